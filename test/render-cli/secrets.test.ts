import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { RecordingServer } from '../support/recording-server.js';
import type { CliResult } from '../support/run-cli.js';
import { cliDir, render } from './cli-env.js';

// A key shaped like fal's, and every form a leak of it could take.
const KEY_ID = '9b2e4c1a-0f3d-4e5b-8a6c-7d8e9f0a1b2c';
const KEY_SECRET = 'fedcba9876543210fedcba9876543210';
const KEY = `${KEY_ID}:${KEY_SECRET}`;
const KEY_FORMS = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), KEY_ID, KEY_SECRET];

/** The files under a folder, each with its bytes read as text (SQLite pages hold their strings as UTF-8). */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path).toString('latin1') }];
  });
}

/** Where any form of the key turned up: stdout, stderr, or a file annot wrote. */
function leaks(result: CliResult, dir: string): string[] {
  const places = [
    { path: 'stdout', text: result.stdout },
    { path: 'stderr', text: result.stderr },
    ...filesUnder(dir),
  ];
  return places.flatMap(({ path, text }) => KEY_FORMS.filter((form) => text.includes(form)).map((form) => `${path}: ${form}`));
}

describe('annot render never prints or writes the fal key, whatever fal answers', () => {
  const t = cliDir();
  let fal: FakeFalServer;
  let other: RecordingServer;
  const falEnv = () => ({ ...t.env, FAL_KEY: KEY, FAL_QUEUE_URL: fal.url });
  let n = 0;
  /** A fresh scene of two shots (fresh prompts, so nothing comes from the cache) and its manifest path. */
  const freshScene = () => {
    const path = join(t.dir, `scene-${++n}.yaml`);
    writeFileSync(path, `title: Scene ${n}\nshots:\n  - id: a\n    description: first of ${n}\n  - id: b\n    description: second of ${n}\n`);
    return { path, manifest: join(t.dir, `scene-${n}.manifest.json`) };
  };

  beforeAll(async () => {
    fal = await startFakeFalServer();
    other = await new RecordingServer().start();
  });
  afterAll(async () => {
    await fal.close();
    await other.close();
    t.cleanup();
  });
  beforeEach(() => fal.reset());

  it('a 401 echoing the key: not on stderr, not in the JSON lines, not in the manifest or the cache', async () => {
    fal.inject({ phase: 'submit', status: 401, times: 10, body: { detail: `Invalid key: ${KEY}; key id ${KEY_ID}; ?key=${encodeURIComponent(KEY)}` } });
    const { path, manifest } = freshScene();
    const result = await render(['scene', path, '--manifest', manifest, '--json'], falEnv());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fal refused the credentials for');
    expect(result.stderr).toContain('Invalid key: ***');
    expect(JSON.parse(readFileSync(manifest, 'utf8')).failures[0]).toMatchObject({ code: 'ANNOT_FAL_UNAUTHORIZED', error: expect.stringContaining('Invalid key: ***') });
    expect(leaks(result, t.dir)).toEqual([]);

    fal.inject({ phase: 'submit', status: 401, body: { detail: `Invalid key: ${KEY}` } });
    const shot = await render(['shot', path, 'a', '--json'], falEnv());
    expect(shot.code).toBe(1);
    expect(leaks(shot, t.dir)).toEqual([]);
  });

  it('a 422 whose detail list quotes the key, and status logs that echo it', async () => {
    fal.setOutcome((_model, args) =>
      String(args.prompt).startsWith('second') ? { error: { status: 422, detail: [{ loc: ['body', 'prompt'], msg: `rejected for Key ${KEY}`, type: 'value_error' }] } } : undefined,
    );
    fal.inject({ phase: 'status', status: 200, times: 2, body: { status: 'IN_PROGRESS', logs: [{ message: `runner authenticated with Authorization: Key ${KEY}` }] } });
    const { path, manifest } = freshScene();
    const result = await render(['scene', path, '--manifest', manifest, '--json', '--keep-going'], falEnv());
    fal.setOutcome(undefined);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('rejected for Key ***');
    expect(JSON.parse(readFileSync(manifest, 'utf8')).shots).toHaveLength(1);
    expect(leaks(result, t.dir)).toEqual([]);
  });

  it('a queue reply naming another origin: refused with a typed error, and that origin gets nothing', async () => {
    const id = 'req-elsewhere';
    fal.inject({
      phase: 'submit',
      status: 200,
      body: { request_id: id, status_url: `${other.url}/x/requests/${id}/status`, response_url: `${other.url}/x/requests/${id}`, cancel_url: `${other.url}/x/requests/${id}/cancel` },
    });
    const { path, manifest } = freshScene();
    const result = await render(['scene', path, '--manifest', manifest], falEnv());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`not on the queue's origin ${fal.url}`);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).failures[0]).toMatchObject({ unit: 'shot', id: 'a', code: 'ANNOT_FAL_FOREIGN_URL' });
    expect(other.requests).toEqual([]);
    expect(fal.requests.filter((r) => r.phase === 'cancel').map((r) => r.path)).toEqual([`/fal-ai/flux/dev/requests/${id}/cancel`]);
    expect(leaks(result, t.dir)).toEqual([]);
  });
});
