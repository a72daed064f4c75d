import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqlite.js';
import { ANNOT_BIN } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';
import { eventually, serveCli } from '../support/serve-cli.js';
import { wordInput, WORDS_TIER } from './http-client.js';

const serve = (args: string[], env: NodeJS.ProcessEnv = {}) => serveCli(args, { env, killAfterMs: 20_000 });

/** True once a fresh connection to the server is refused (it has stopped accepting). */
async function refusesConnections(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/health`, { headers: { connection: 'close' } });
    return false;
  } catch {
    return true;
  }
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('annot serve (the built CLI)', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('prints its URL first, lets a request in flight finish on SIGTERM, refuses new ones, and exits 0', async () => {
    const sample = join(dir, 'upload.annot');
    await writeSampleAnnot(sample);
    const upload = readFileSync(sample);
    const served = await serve(['--port', '0']);
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${served.url}/health`)).status).toBe(200);

    // An upload sent in two halves, the signal arriving between them: the second half goes only
    // once the server is seen refusing new connections, so the request is in flight across it.
    let req!: ClientRequest;
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = request(`${served.url}/import?format=annot`, { method: 'POST', headers: { 'content-length': upload.length } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });
    await new Promise<void>((resolve) => req.write(upload.subarray(0, 1000), () => resolve()));
    served.child.kill('SIGTERM');
    await eventually(() => refusesConnections(served.url), 'the server refuses new connections after SIGTERM');
    req.end(upload.subarray(1000));
    const finished = await answer;
    expect(finished.status).toBe(201);
    expect(JSON.parse(finished.body)).toMatchObject({ annotations_added: 6 });
    expect(await served.exited).toEqual({ code: 0, signal: null });
    expect(served.stderr()).toContain('annot serve: stopped');
  });

  it('answers a request whose connection was accepted before SIGTERM but whose bytes arrive after it', async () => {
    const sample = join(dir, 'late.annot');
    await writeSampleAnnot(sample);
    const upload = readFileSync(sample);
    const served = await serve([]);
    const { hostname, port } = new URL(served.url);
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let raw = '';
    socket.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    served.child.kill('SIGTERM');
    // Wait until the server has begun its shutdown: new connections are refused.
    await eventually(() => refusesConnections(served.url), 'the server refuses new connections after SIGTERM');
    socket.write(`POST /import?format=annot HTTP/1.1\r\nhost: ${hostname}\r\ncontent-length: ${upload.length}\r\n\r\n`);
    socket.write(upload);
    await ended;
    expect(raw).toMatch(/^HTTP\/1\.1 201 /);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ annotations_added: 6 });
    expect(await served.exited).toEqual({ code: 0, signal: null });
  });

  it('requires the bearer token given in ANNOT_TOKEN, except on /health', async () => {
    const served = await serve([], { ANNOT_TOKEN: 'tok' });
    try {
      expect((await fetch(`${served.url}/health`)).status).toBe(200);
      expect((await fetch(`${served.url}/tiers`)).status).toBe(401);
      expect((await fetch(`${served.url}/tiers`, { headers: { authorization: 'Bearer tok' } })).status).toBe(200);
    } finally {
      served.child.kill('SIGINT');
      expect((await served.exited).code).toBe(0);
    }
  });

  it('exits 1 with one clean line when the port is taken', async () => {
    const first = await serve([]);
    try {
      const port = new URL(first.url).port;
      const second = spawn(process.execPath, [ANNOT_BIN, 'serve', '--port', port], { env: { ...process.env, ANNOT_TOKEN: '' } });
      let err = '';
      second.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise((resolve) => second.on('close', resolve));
      expect(code).toBe(1);
      expect(err).toMatch(/^annot: .*address already in use/m);
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('serves an .annot file and leaves it closed and consistent after SIGTERM', async () => {
    const file = join(dir, 'served.annot');
    const served = await serve([file]);
    expect((await fetch(`${served.url}/tiers`, json(WORDS_TIER))).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await fetch(`${served.url}/annotations`, json(wordInput(`w${i}`, i * 100, i * 100 + 50)))).status).toBe(201);
    const clock = (await (await fetch(`${served.url}/oplog/latest-clock`)).json()) as { clock: number };
    served.child.kill('SIGTERM');
    expect((await served.exited).code).toBe(0);
    expect(existsSync(`${file}-wal`) && readFileSync(`${file}-wal`).length > 0).toBe(false);
    const store = await SqliteStore.open(file, { readonly: true });
    try {
      expect(await store.count()).toBe(5);
      expect(clock.clock).toBe(6);
    } finally {
      await store.close();
    }
  });
});
