import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { ANNOT_BIN } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { describeWithPostgres, POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { annotMcpTransport, connectTools, type ToolClient } from './mcp-client.js';

interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
}

/** `location`: a .annot path, or `['--store', url]`. */
function startServe(location: string[]): Promise<Served> {
  const child = spawn(process.execPath, [ANNOT_BIN, 'serve', ...location, '--port', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('close', (code) => {
      // Our end of its stdin stays open after the exit (a child's close waits only for stdout and stderr).
      child.stdin.destroy();
      reject(new Error(`annot serve exited (${code}) before listening: ${err}`));
    });
  });
}

async function post(url: string, body: unknown): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return Number(response.headers.get('x-service-clock'));
}

/**
 * The same two processes on one store location, a .annot file or a PostgreSQL project: one op-log,
 * one Lamport clock, never a clock handed out twice.
 */
function describeSharedClock(name: string, location: () => string[], cleanup: () => void | Promise<void>): void {
  describe(name, () => {
    let served: Served;
    let tools: ToolClient;

    beforeAll(async () => {
      served = await startServe(location());
      tools = await connectTools(annotMcpTransport(location()));
    });
    afterAll(async () => {
      await tools?.close();
      if (served) {
        const closed = new Promise((resolve) => served.child.on('close', resolve));
        served.child.kill('SIGTERM');
        await closed;
      }
      await cleanup();
    });

    const media = (start: number, end: number) => ({ kind: 'media', asset_id: 'talk.wav', interval: { start: { v: start, r: 1000 }, end: { v: end, r: 1000 } } });

    it('hands out every clock once, in order, whichever process asks, also when both write at the same moment', async () => {
      const clocks: number[] = [];
      clocks.push(await post(`${served.url}/tiers`, { name: 'human', stereotype: 'NONE' }));
      clocks.push((await tools.ok('add_tier', { name: 'agent', actor: 'agent:test' })).clock!);
      for (let i = 0; i < 6; i++) {
        clocks.push(await post(`${served.url}/annotations`, { tier: 'human', reference: media(i * 1000, i * 1000 + 500), body: { text: `h${i}` }, body_schema_uri: 'annot://schema/label/v1' }));
        clocks.push((await tools.ok('add_annotation', { tier: 'agent', asset_id: 'talk.wav', start_seconds: i, end_seconds: i + 0.5, body: { text: `a${i}` } })).clock!);
      }
      // Interleaving in order: each process sees the other's last clock and continues from it.
      expect(clocks).toEqual(clocks.map((_, index) => index + 1));

      const racing = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? post(`${served.url}/annotations`, { tier: 'human', reference: media(10_000 + i, 10_500 + i), body: { text: `rh${i}` }, body_schema_uri: 'annot://schema/label/v1' })
            : tools.ok('add_annotation', { tier: 'agent', asset_id: 'talk.wav', start_seconds: 10 + i / 1000, end_seconds: 11, body: { text: `ra${i}` } }).then((r) => r.clock!),
        ),
      );
      const all = [...clocks, ...racing];
      expect(new Set(all).size).toBe(all.length);
      expect([...racing].sort((a, b) => a - b)).toEqual(racing.map((_, index) => clocks.length + index + 1));

      const log = (await (await fetch(`${served.url}/oplog`)).json()) as Array<{ clock: number }>;
      expect(log.map((entry) => entry.clock)).toEqual(all.map((_, index) => index + 1));
      expect((await tools.ok('latest_clock')).result).toEqual({ clock: all.length });
    });

    it('replays the shared log to the state both processes see now', async () => {
      const latest = (await tools.ok<{ clock: number }>('latest_clock')).result.clock;
      const viaMcp = (await tools.ok<{ annotations: Array<{ id: string }>; tiers: unknown[] }>('state_at', { clock: latest })).result;
      const viaHttp = (await (await fetch(`${served.url}/state-at?clock=${latest}`)).json()) as typeof viaMcp;
      const current = (await tools.ok<{ annotations: Array<{ id: string }> }>('query_annotations', { limit: 10000 })).result.annotations;
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect([...viaMcp.annotations].sort(byId)).toEqual([...current].sort(byId));
      expect([...viaHttp.annotations].sort(byId)).toEqual([...current].sort(byId));
      expect(viaHttp.tiers).toEqual(viaMcp.tiers);
    });
  });
}

const files = tempDir('annot-shared-clock-');
describeSharedClock('annot serve and annot mcp on one .annot file', () => [join(files.dir, 'shared.annot')], files.cleanup);

const project = `jest-shared-${process.pid}-${Date.now()}`;
describeWithPostgres('annot serve --store and annot mcp --store on one PostgreSQL project', await postgresUnreachable(), () => {
  describeSharedClock('shared project', () => ['--store', `${POSTGRES_URL}?project=${project}`], async () => {
    const { PostgresStore } = await import('../../src/store/postgres.js');
    const store = await PostgresStore.open(`${POSTGRES_URL}?project=${project}`);
    await store.dropProject();
  });
});
