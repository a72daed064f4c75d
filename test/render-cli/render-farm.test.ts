import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { eventually } from '../support/serve-cli.js';
import { cliDir, jsonLines, render, startCli } from './cli-env.js';
import { freshQueueName, REDIS_URL, redisProblem, startWorker, type WorkerProcess } from './farm-env.js';

/**
 * `annot render worker` and `render scene --queue` as users run them: real child processes, the
 * machine's Redis (BullMQ), the fake fal server over HTTP. Each worker and each caller is a
 * "machine" with a cache folder of its own; no test waits on the clock, only on what the
 * processes say and what fal and Redis record, within generous deadlines.
 */
const unreachable = await redisProblem();
const WORKER_KEY = 'worker-key-id:worker-key-secret-0123456789';
const SLOW = 180_000;

const SCENE = [
  'title: Farm Scene',
  'characters:',
  '  - name: Ann',
  '    voice: { voice_id: v1 }',
  '    reference_image_url: https://example.com/ann.png',
  'shots:',
  '  - { id: s1, description: a quay at dawn }',
  '  - { id: s2, description: the lamp room }',
  '  - { id: s3, description: a storm coming in }',
  'beats:',
  '  - { id: b1, speaker: Ann, line: Morning. }',
  '  - { id: b2, speaker: Ann, line: The lamp is out. }',
  '',
].join('\n');

if (unreachable !== null) {
  if (process.env.CI === 'true') throw new Error(`Redis at ${REDIS_URL} is unreachable (${unreachable}); CI must run the render farm tests`);
  console.warn(`\n!!! Redis at ${REDIS_URL} is unreachable (${unreachable}): SKIPPING the render farm tests. !!!\n`);
}
const describeFarm = unreachable === null ? describe : describe.skip;

describeFarm('render units on render workers (annot render worker, render scene --queue)', () => {
  const t = cliDir();
  let fal: FakeFalServer;
  let workers: WorkerProcess[] = [];
  const queues: string[] = [];
  let sceneFile = '';
  let n = 0;

  beforeAll(async () => {
    fal = await startFakeFalServer({ acceptKeys: [WORKER_KEY] });
    sceneFile = join(t.dir, 'farm.yaml');
    writeFileSync(sceneFile, SCENE);
  });
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    workers = [];
    fal.setLatency(0);
    fal.reset();
  });
  afterAll(async () => {
    for (const name of queues) {
      const queue = new Queue(name, { connection: { url: REDIS_URL } });
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
    const redis = new Redis(REDIS_URL);
    for (const name of queues) {
      const keys = await redis.keys(`annot-render:${name}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
    await fal.close();
    t.cleanup();
  });

  /** A machine: its own cache folder; a worker machine has the fal key, a caller none. */
  const machine = (name: string, extra: NodeJS.ProcessEnv = {}) => ({ ...t.env, ANNOT_CACHE_DIR: join(t.dir, `${name}-${n++}`), FAL_QUEUE_URL: fal.url, ANNOT_REDIS_URL: REDIS_URL, ...extra });
  const queueName = (what: string) => {
    const name = freshQueueName(what);
    queues.push(name);
    return name;
  };
  const worker = async (queue: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) => {
    const started = await startWorker(['--queue-name', queue, ...extra], machine('worker', { FAL_KEY: WORKER_KEY, ...env }));
    workers.push(started);
    return started;
  };

  it('renders a scene on two workers for a caller without a key; the media reach it through Redis', async () => {
    const queue = queueName('two-workers');
    await worker(queue);
    await worker(queue);
    const caller = machine('caller');
    const manifest = join(t.dir, 'two-workers.manifest.json');
    const ran = await render(['scene', sceneFile, '--queue', '--queue-name', queue, '--manifest', manifest, '--json'], caller, SLOW);
    expect(ran.stderr).not.toContain('[ANNOT_');
    expect(ran.code).toBe(0);
    const lines = jsonLines(ran.stdout);
    expect(lines.map((line) => `${line.unit}:${line.id}`).sort()).toEqual(['beat:b1', 'beat:b2', 'shot:s1', 'shot:s2', 'shot:s3']);
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const unit of [...written.shots, ...written.beats]) {
      expect(unit.path.startsWith(caller.ANNOT_CACHE_DIR)).toBe(true);
      expect(existsSync(unit.path)).toBe(true);
    }
    // Every call went out with a worker's key: the caller had none.
    expect(new Set(fal.submissions().map((s) => s.authorization))).toEqual(new Set([`Key ${WORKER_KEY}`]));
    expect(ran.stderr).toContain('on the render workers of queue');
    // Both workers took units.
    expect(workers.filter((w) => /started/.test(w.output()))).toHaveLength(2);
    expect(workers.map((w) => w.output()).join('')).toContain('media for the caller via redis');
  }, SLOW);

  it('shares each unit between two callers rendering one scene at once: fal is called once per unit', async () => {
    const queue = queueName('two-callers');
    await worker(queue, ['--concurrency', '2']);
    fal.setLatency(300);
    const [one, two] = await Promise.all(
      ['one', 'two'].map((who) => render(['scene', sceneFile, '--queue', '--queue-name', queue, '--manifest', join(t.dir, `callers-${who}.manifest.json`), '-q'], machine(`caller-${who}`), SLOW)),
    );
    expect([one.code, two.code]).toEqual([0, 0]);
    // 3 stills, 2 speeches and 2 talking videos (one per speech): each once.
    const submitted = fal.submissions();
    expect(submitted).toHaveLength(7);
    const stills = submitted.filter((s) => typeof s.args.image_size === 'string').map((s) => s.args.prompt);
    const speeches = submitted.filter((s) => typeof s.args.text === 'string').map((s) => s.args.text);
    expect(new Set(stills).size).toBe(3);
    expect(new Set(speeches).size).toBe(2);
    expect(submitted.filter((s) => s.args.audio_url !== undefined)).toHaveLength(2);
    const shots = (file: string) => JSON.parse(readFileSync(join(t.dir, file), 'utf8')).shots.map((s: { sha256: string }) => s.sha256);
    expect(shots('callers-one.manifest.json')).toEqual(shots('callers-two.manifest.json'));
  }, SLOW);

  it('fails a unit on a worker without the key, with an error naming the worker; the caller reports it like any failed unit', async () => {
    const queue = queueName('no-key');
    const keyless = await worker(queue, [], { FAL_KEY: '' });
    const manifest = join(t.dir, 'no-key.manifest.json');
    const ran = await render(['scene', sceneFile, '--queue', '--queue-name', queue, '--manifest', manifest, '--keep-going', '-q'], machine('caller'), SLOW);
    expect(ran.code).toBe(1);
    const pid = keyless.child.pid;
    expect(ran.stderr).toMatch(new RegExp(`render worker [^ ]+:${pid} has no fal key`));
    expect(ran.stderr).toContain('[ANNOT_SCENE_RENDER_FAILED]');
    const failures = JSON.parse(readFileSync(manifest, 'utf8')).failures;
    expect(failures).toHaveLength(5);
    expect(new Set(failures.map((f: { code: string }) => f.code))).toEqual(new Set(['ANNOT_FAL_KEY_MISSING']));
    expect(fal.submissions()).toHaveLength(0);
  }, SLOW);

  it('Ctrl-C on the caller takes its waiting units off the queue and stops the running one: the worker goes idle, fal gets nothing more', async () => {
    const queue = queueName('ctrl-c');
    const busy = await worker(queue);
    fal.setLatency(3_600_000);
    fal.setQueueShare(0);
    const caller = startCli(['render', 'scene', sceneFile, '--queue', '--queue-name', queue, '--manifest', join(t.dir, 'ctrl-c.manifest.json'), '-q'], machine('caller'));
    let stderr = '';
    caller.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => caller.on('close', (code) => resolve(code)));
    await eventually(() => fal.submissions().length === 1 && fal.requests.some((r) => r.phase === 'status'), 'the worker submitted the first unit and polls it', 60_000);
    caller.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('taken off the render queue');
    const jobs = new Queue(queue, { connection: { url: REDIS_URL } });
    try {
      await eventually(async () => {
        const counts = await jobs.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
        return Object.values(counts).every((count) => count === 0);
      }, 'no unit left waiting or running', 30_000);
    } finally {
      await jobs.close();
    }
    await eventually(() => /failed: .*(aborted|nobody waits)/.test(busy.output()), 'the worker stopped the unit', 30_000);
    // The running request was left to fal (it had started) or cancelled; nothing new was submitted.
    expect(fal.submissions()).toHaveLength(1);
  }, SLOW);

  it('takes a unit over from a worker killed mid-unit, and collects the request fal already has instead of paying twice', async () => {
    const queue = queueName('kill-9');
    const doomed = await worker(queue, ['--lock-seconds', '2']);
    fal.setLatency(4000);
    const single = join(t.dir, 'single.yaml');
    writeFileSync(single, 'title: Single\nshots:\n  - { id: s1, description: one long render }\n');
    const caller = render(['scene', single, '--queue', '--queue-name', queue, '--manifest', join(t.dir, 'kill.manifest.json'), '-q'], machine('caller'), SLOW);
    await eventually(() => fal.submissions().length === 1, 'the doomed worker submitted the unit', 60_000);
    // Killed once the request is recorded where every worker sees it (a submission whose answer never reached the worker cannot be).
    const redis = new Redis(REDIS_URL);
    try {
      await eventually(async () => (await redis.keys(`annot-render:${queue}:pending:*`)).length === 1, 'the pending request is recorded in Redis', 60_000);
    } finally {
      await redis.quit();
    }
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    const rescuer = await worker(queue, ['--lock-seconds', '2']);
    const ran = await caller;
    expect(ran.stderr).not.toContain('[ANNOT_');
    expect(ran.code).toBe(0);
    expect(rescuer.output()).toContain('shot s1 done');
    expect(fal.submissions()).toHaveLength(1);
    expect(fal.requests.filter((r) => r.phase === 'result')).toHaveLength(1);
  }, SLOW);

  it('renders with --provider local on the workers, offline', async () => {
    const queue = queueName('local');
    const w = await worker(queue, [], { FAL_KEY: '' });
    const ran = await render(['scene', sceneFile, '--queue', '--queue-name', queue, '--provider', 'local', '--manifest', join(t.dir, 'local.manifest.json'), '-q'], machine('caller'), SLOW);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('5 rendered');
    expect(w.output()).toContain('done (rendered');
    expect(fal.requests).toHaveLength(0);
  }, SLOW);

  it('refuses --queue when Redis does not answer, before anything is rendered', async () => {
    const ran = await render(['scene', sceneFile, '--queue', '--redis', 'redis://127.0.0.1:1', '-q'], machine('caller'));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('cannot reach the Redis of the render queue at redis://127.0.0.1:1');
    expect(ran.stderr).toContain('[ANNOT_QUEUE_UNAVAILABLE]');
  });
});
