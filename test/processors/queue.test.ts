import { jest } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { QueueUnavailableError } from '../../src/processors/errors.js';
import { loadProcessorModules } from '../../src/processors/plugins.js';
import { connectRedis, enqueueProcessorJob, getJobStatus, obliterateQueue, redisUrlFrom, type JobStatus } from '../../src/processors/queue.js';
import { unregisterProcessor } from '../../src/processors/registry.js';
import { startProcessorWorker, type ProcessorWorker } from '../../src/processors/worker.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { ANNOT_BIN, runCli } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';
import { eventually } from '../support/serve-cli.js';

jest.setTimeout(60_000);

const REDIS_URL = redisUrlFrom();
const RUN = `annot-test-${randomBytes(4).toString('hex')}`;
let queueNumber = 0;
const freshQueue = () => `${RUN}-${++queueNumber}`;

async function redisProblem(): Promise<string | null> {
  try {
    const redis = await connectRedis(REDIS_URL);
    await redis.quit();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const unreachable = await redisProblem();

/**
 * A processor the tests load into both kinds of worker (in this process and `annot worker
 * --plugin` children): it waits until its gate file exists (when given one), reports progress in
 * four steps, then writes one meta entry through the service and says which process ran it. The
 * gate lets a test hold jobs running until it has seen what it needs, instead of guessing a span.
 */
const TOUCH_PLUGIN = `
import { existsSync } from 'node:fs';
const pause = () => new Promise((resolve) => setTimeout(resolve, 10));
export default {
  name: 'test_touch',
  description: 'waits for its gate file, then records in the store which process ran it',
  paramsSchema: {
    type: 'object',
    properties: { key: { type: 'string' }, gate: { type: 'string' } },
    required: ['key'],
    additionalProperties: false,
  },
  async run(service, params, context) {
    while (params.gate !== undefined && !existsSync(params.gate)) await pause();
    for (let step = 1; step <= 4; step++) context.onProgress({ phase: 'step', done: step, total: 4 });
    const clock = await service.apply([{ kind: 'set_meta', key: params.key, value: String(process.pid) }], context.actor);
    return { pid: process.pid, clock };
  },
};
`;

const files = tempDir('annot-queue-');
const pluginPath = join(files.dir, 'touch-plugin.mjs');
writeFileSync(pluginPath, TOUCH_PLUGIN);

interface ChildWorker {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** `annot worker` as a child process, resolved once it says it is ready. */
async function spawnWorker(args: string[]): Promise<ChildWorker> {
  const child = spawn(process.execPath, [ANNOT_BIN, 'worker', '--plugin', pluginPath, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (stderr.includes('annot worker: ready')) resolve();
    });
    void exited.then((code) => reject(new Error(`annot worker exited ${code} before it was ready: ${stderr}`)));
  });
  return { child, exited, stderr: () => stderr };
}

async function waitForState(jobId: string, queueName: string, states: readonly string[], timeoutMs = 20_000): Promise<JobStatus> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = await getJobStatus(jobId, { queueName });
    if (states.includes(status.state)) return status;
    if (Date.now() > until) throw new Error(`job ${jobId} is still ${status.state} after ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('enqueueing without Redis', () => {
  it('fails at once with a message saying where Redis was expected and what to do', async () => {
    const attempt = enqueueProcessorJob({ processor: 'low_confidence_review', store: join(files.dir, 'x.annot') }, { redisUrl: 'redis://127.0.0.1:1' });
    await expect(attempt).rejects.toThrow(QueueUnavailableError);
    await expect(attempt).rejects.toThrow(/cannot reach Redis at redis:\/\/127\.0\.0\.1:1\/?.*start redis-server/);
  });
});

if (unreachable !== null) {
  if (process.env.CI === 'true') {
    describe('the processor queue', () => {
      it('needs Redis at ANNOT_REDIS_URL in CI', () => {
        throw new Error(`Redis at ${REDIS_URL} is unreachable (${unreachable}); CI must run the queue tests`);
      });
    });
  } else {
    console.warn(`\n!!! Redis at ${REDIS_URL} is unreachable (${unreachable}): SKIPPING every queue test. Set ANNOT_REDIS_URL or start redis-server. !!!\n`);
    describe.skip('the processor queue (Redis unreachable)', () => {
      it('is skipped', () => undefined);
    });
  }
} else {
  describe('the processor queue on Redis', () => {
    const queues: string[] = [];
    const workers: ProcessorWorker[] = [];
    const children: ChildWorker[] = [];
    const queue = () => {
      const name = freshQueue();
      queues.push(name);
      return name;
    };

    beforeAll(async () => {
      await loadProcessorModules([pluginPath]);
    });

    afterEach(async () => {
      for (const worker of workers.splice(0)) await worker.close();
      for (const child of children.splice(0)) {
        if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
        await child.exited;
      }
    });

    afterAll(async () => {
      unregisterProcessor('test_touch');
      for (const name of queues) await obliterateQueue({ queueName: name });
      files.cleanup();
    });

    it('shares the jobs for one .annot file between two workers, every change in the one op-log', async () => {
      const queueName = queue();
      const store = join(files.dir, 'shared.annot');
      await writeSampleAnnot(store);
      workers.push(await startProcessorWorker({ queueName, store }));
      const child = await spawnWorker(['--store', store, '--queue-name', queueName]);
      children.push(child);

      const jobIds: string[] = [];
      // The jobs wait at a gate until two run at once: each worker runs one job at a time, so then
      // both workers have taken one, however the machine schedules them.
      const gate = join(files.dir, 'shared.gate');
      for (let i = 0; i < 6; i++) jobIds.push(await enqueueProcessorJob({ processor: 'test_touch', store, params: { key: `touch-${i}`, gate } }, { queueName }));
      // Two reviews of the same file may run at once on the two workers: still one candidate.
      for (let i = 0; i < 2; i++) jobIds.push(await enqueueProcessorJob({ processor: 'low_confidence_review', store, params: { threshold: 0.8 } }, { queueName }));
      jobIds.push(await enqueueProcessorJob({ processor: 'detect_density_change_points', store, params: { min_delta: 1 } }, { queueName }));
      const active = async () => (await Promise.all(jobIds.map((id) => getJobStatus(id, { queueName })))).filter((status) => status.state === 'active').length;
      await eventually(async () => (await active()) === 2, 'both workers running a job', 20_000);
      writeFileSync(gate, '');

      const done = await Promise.all(jobIds.map((id) => waitForState(id, queueName, ['completed', 'failed'])));

      expect(done.map((status) => status.state)).toEqual(Array(jobIds.length).fill('completed'));
      const pids = new Set(done.slice(0, 6).map((status) => (status.result as { pid: number }).pid));
      expect(pids).toEqual(new Set([process.pid, child.child.pid]));
      expect(done[6].progress).toMatchObject({ phase: expect.any(String) });
      const reviews = done.slice(6, 8).map((status) => status.result as { flagged: number });
      expect(reviews.reduce((sum, review) => sum + review.flagged, 0)).toBe(1);

      const opened = await SqliteStore.open(store, { readonly: true });
      try {
        expect(await opened.byTier('for-review')).toHaveLength(1);
        expect(Object.keys(await opened.listMeta()).filter((key) => key.startsWith('touch-'))).toHaveLength(6);
        const log = await opened.readOpLog();
        expect(log.map((entry) => entry.clock)).toEqual(log.map((_, i) => i + 1));
        expect(new Set(log.map((entry) => entry.actor))).toEqual(
          new Set(['processor:test_touch', 'processor:low_confidence_review', 'processor:detect_density_change_points']),
        );
      } finally {
        await opened.close();
      }
    });

    it('retries a job whose store cannot be opened, then keeps it failed with its error visible to annot process --status', async () => {
      const queueName = queue();
      workers.push(await startProcessorWorker({ queueName }));
      const missing = join(files.dir, 'no-such-dir', 'gone.annot');

      const enqueued = await runCli(['process', 'low_confidence_review', missing, '--queue', '--queue-name', queueName, '--backoff', '50', '--attempts', '3']);
      expect(enqueued.stderr).toBe('');
      expect(enqueued.code).toBe(0);
      const jobId = enqueued.stdout.trim();
      await waitForState(jobId, queueName, ['failed']);

      const json = await runCli(['process', '--status', jobId, '--queue-name', queueName, '--json']);
      expect(json.code).toBe(0);
      const status = JSON.parse(json.stdout) as JobStatus;
      expect(status).toMatchObject({ id: jobId, state: 'failed', processor: 'low_confidence_review', attempts_made: 3, attempts: 3, result: null });
      expect(status.failed_reason).toMatch(/cannot open store .*gone\.annot: .*no such \.annot file/);

      const text = await runCli(['process', '--status', jobId, '--queue-name', queueName]);
      expect(text.stdout).toMatch(new RegExp(`^job ${jobId} on ${queueName}: failed$`, 'm'));
      expect(text.stdout).toMatch(/^failed: cannot open store .*no such \.annot file/m);
    });

    it('fails a job with bad params for good on its first attempt: retrying could not fix it', async () => {
      const queueName = queue();
      const store = join(files.dir, 'params.annot');
      await writeSampleAnnot(store);
      workers.push(await startProcessorWorker({ queueName }));
      // enqueueProcessorJob refuses bad params, so put the job on the queue the way another producer might.
      const raw = new Queue(queueName, { connection: { url: REDIS_URL } });
      const job = await raw.add('run_processor', { processor: 'low_confidence_review', store, params: { threshold: 7 }, actor: null }, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
      await raw.close();

      const status = await waitForState(String(job.id), queueName, ['failed']);

      expect(status.attempts_made).toBe(1);
      expect(status.failed_reason).toMatch(/low_confidence_review: invalid params: params\.threshold/);
    });

    it('refuses to enqueue a run whose params are wrong, before anything reaches the queue', async () => {
      const queueName = queue();
      const result = await runCli(['process', 'low_confidence_review', join(files.dir, 'x.annot'), '--queue', '--queue-name', queueName, '--param', 'threshold=2']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^annot: low_confidence_review: invalid params: params\.threshold/);
      expect(result.stdout).toBe('');
    });

    it('lets the running job finish when the worker gets SIGTERM, then exits 0', async () => {
      const queueName = queue();
      const store = join(files.dir, 'graceful.annot');
      await writeSampleAnnot(store);
      const child = await spawnWorker(['--queue-name', queueName]);
      children.push(child);
      const gate = join(files.dir, 'graceful.gate');
      const jobId = await enqueueProcessorJob({ processor: 'test_touch', store, params: { key: 'graceful', gate } }, { queueName });
      await waitForState(jobId, queueName, ['active']);

      // The job is held at its gate until the worker has taken the signal, so it is surely running then.
      child.child.kill('SIGTERM');
      await eventually(() => child.stderr().includes('SIGTERM: finishing the running jobs'), 'the worker saying it finishes its jobs', 20_000);
      writeFileSync(gate, '');

      expect(await child.exited).toBe(0);
      const status = await getJobStatus(jobId, { queueName });
      expect(status).toMatchObject({ state: 'completed', result: { pid: child.child.pid } });
      expect(status.progress).toEqual({ phase: 'step', done: 4, total: 4 });
      expect(child.stderr()).toMatch(/SIGTERM: finishing the running jobs[\s\S]*completed[\s\S]*stopped/);
    });
  });
}
