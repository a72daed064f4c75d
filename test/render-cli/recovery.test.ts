import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { eventually } from '../support/serve-cli.js';
import { cliDir, jsonLines, render, startCli } from './cli-env.js';

/**
 * A render that failed or was interrupted finishes on a plain re-run: a failed request is
 * submitted afresh, an expired one too, and one still running at fal is collected, not paid for
 * twice. Everything runs the built CLI against the fake fal server over real HTTP.
 */
describe('annot render scene recovers on a plain re-run', () => {
  const t = cliDir();
  let fal: FakeFalServer;
  const falEnv = () => ({ ...t.env, FAL_KEY: 'test-key', FAL_QUEUE_URL: fal.url });
  beforeAll(async () => {
    fal = await startFakeFalServer();
  });
  afterEach(() => {
    fal.setOutcome(undefined);
    fal.setLatency(0);
    fal.setQueueShare(0.5);
    fal.reset();
  });
  afterAll(async () => {
    await fal.close();
    t.cleanup();
  });

  const writeScene = (name: string, body: string) => {
    const path = join(t.dir, name);
    writeFileSync(path, body);
    return path;
  };

  /** Starts a render, sends SIGINT once fal has the submission, and returns its exit code and stderr. */
  async function interruptAfterSubmit(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = startCli(['render', ...args], falEnv());
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await eventually(() => fal.submissions().length > 0 && fal.requests.some((r) => r.phase === 'status'), 'fal polled for a submitted unit', 30_000);
    child.kill('SIGINT');
    return { code: await exited, stderr };
  }

  // Several whole CLI runs per test, on a shared machine.
  const SLOW = 120_000;

  it('renders only the unit that failed with a 500, and counts every other unit as a hit', async () => {
    const scene = writeScene(
      'five.yaml',
      [
        'title: Five Units',
        'characters:',
        '  - name: Ann',
        '    voice: { voice_id: v1 }',
        'shots:',
        '  - { id: s1, description: shot one }',
        '  - { id: s2, description: shot two }',
        '  - { id: s3, description: shot three }',
        'beats:',
        '  - { id: b1, speaker: Ann, line: Hello there. }',
        '  - { id: b2, speaker: Ann, line: Goodbye now. }',
        '',
      ].join('\n'),
    );
    const manifest = join(t.dir, 'five.manifest.json');
    let failed = false;
    fal.setOutcome((_model, args) => {
      if (failed || !String(args.prompt ?? '').startsWith('shot one')) return undefined;
      failed = true;
      return { error: { status: 500, detail: 'the runner crashed' } };
    });
    const first = await render(['scene', scene, '--manifest', manifest, '--keep-going'], falEnv());
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('the runner crashed');
    expect(JSON.parse(readFileSync(manifest, 'utf8')).failures).toEqual([expect.objectContaining({ unit: 'shot', id: 's1', code: 'ANNOT_FAL_SERVER_ERROR' })]);

    fal.reset();
    const again = await render(['scene', scene, '--manifest', manifest], falEnv());
    expect(again.code).toBe(0);
    const lines = jsonLines(again.stdout);
    expect(lines.filter((l) => l.cache_hit === false).map((l) => l.id)).toEqual(['s1']);
    expect(fal.submissions()).toHaveLength(1);
    expect(String(fal.submissions()[0].args.prompt)).toMatch(/^shot one/);
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written.failures).toBeUndefined();
    expect(written.cache_hits).toBe(4);
    expect(written.shot_count + written.beat_count).toBe(5);
  }, SLOW);

  it('resumes a render interrupted after submitting, without submitting again', async () => {
    const scene = writeScene('one.yaml', 'title: One Shot\nshots:\n  - { id: x, description: a slow still }\n');
    fal.setQueueShare(0);
    // An hour: the request surely still runs when the signal comes; it is completed by hand below.
    fal.setLatency(3_600_000);
    const interrupted = await interruptAfterSubmit(['scene', scene, '--manifest', join(t.dir, 'one.json')]);
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain('interrupted');
    // The request was already running: it was left to finish, not cancelled.
    expect(fal.cancelled()).toEqual([]);
    expect(fal.submissions()).toHaveLength(1);
    fal.completeRunning();
    fal.setLatency(0);

    const again = await render(['scene', scene, '--manifest', join(t.dir, 'one.json')], falEnv());
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout).map((l) => [l.id, l.cache_hit])).toEqual([['x', false]]);
    expect(fal.submissions()).toHaveLength(1);
  }, SLOW);

  it('submits afresh when fal answers 404 for the recorded request', async () => {
    const scene = writeScene('gone.yaml', 'title: Gone Shot\nshots:\n  - { id: g, description: an expiring still }\n');
    fal.setQueueShare(0);
    fal.setLatency(3_600_000);
    const interrupted = await interruptAfterSubmit(['scene', scene, '--manifest', join(t.dir, 'gone.json')]);
    expect(interrupted.code).toBe(130);
    const [first] = fal.submissions();
    fal.expire(first.request_id);
    fal.setLatency(0);

    const again = await render(['scene', scene, '--manifest', join(t.dir, 'gone.json')], falEnv());
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout).map((l) => l.id)).toEqual(['g']);
    const statusOfGone = fal.requests.filter((r) => r.phase === 'status' && r.request_id === first.request_id);
    expect(statusOfGone.length).toBeGreaterThan(0);
    expect(fal.submissions()).toHaveLength(2);
    expect(fal.submissions()[1].args).toEqual(first.args);
  }, SLOW);
});
