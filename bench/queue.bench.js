// Processor jobs through the Redis queue (BullMQ), beside the same runs without a queue:
// 1. Throughput: 1,000 detect_density_change_points jobs on one small .annot file, enqueued at
//    once and consumed by two `annot worker` child processes (concurrency 1 each); jobs/s from
//    the first enqueue to the last completion, and end-to-end latency (enqueue to completion,
//    p50/p99: under a burst this is mostly time spent waiting in the queue). Reference: the same
//    1,000 runs in this process, one after another, each opening the store, running the processor
//    and closing it, as a worker does for each job.
// 2. Latency of a lone job: 100 jobs one at a time (each enqueued when the previous completed),
//    enqueue-to-completion p50/p99 vs the same run's in-process time.
// The processor finds its change points on the first run and writes nothing afterwards, so the
// jobs measure the queue and a store open + scan, not write contention.
// Needs Redis at ANNOT_REDIS_URL (default redis://127.0.0.1:6379); skipped when it is unreachable.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Queue, QueueEvents } from 'bullmq';
import { makeAnnotation, mediaRef } from '../dist/src/model/annotation.js';
import { makeTier } from '../dist/src/model/tier.js';
import { connectRedis, PROCESSOR_JOB_NAME, redisUrlFrom } from '../dist/src/processors/queue.js';
import { runProcessor } from '../dist/src/processors/registry.js';
import { AnnotationService } from '../dist/src/service/annotation-service.js';
import { openServiceStore } from '../dist/src/service/open-service-store.js';
import { SqliteStore } from '../dist/src/store/sqlite.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { report } from './lib/harness.js';

const JOBS = Number(process.env.ANNOT_BENCH_QUEUE_JOBS ?? 1000);
const LONE_JOBS = 100;
const WORKERS = 2;
const PROCESSOR = 'detect_density_change_points';
const PARAMS = { bucket_seconds: '1', min_delta: 3 };
const REDIS_URL = redisUrlFrom();
const ANNOT_BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-queue-'));
const queueName = `annot-bench-queue-${process.pid}`;

try {
  (await connectRedis(REDIS_URL)).disconnect();
} catch (error) {
  console.log(`queue.bench: ${error.message}; skipped`);
  process.exit(0);
}

const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const sortedNumbers = (values) => [...values].sort((a, b) => a - b);

/** 200 words on one asset: bursts and lulls over 60 s, so the processor has change points to find. */
async function makeStore(path) {
  const store = await SqliteStore.open(path, { create: true });
  await store.addTier(makeTier({ name: 'words' }));
  const words = [];
  for (let i = 0; i < 200; i++) {
    const second = (i * 7) % 60;
    const start = new RationalTime(second * 1000 + (i % 10) * 37, 1000);
    words.push(
      makeAnnotation({
        tier: 'words',
        reference: mediaRef('talk.wav', new TimeInterval(start, start.plus(new RationalTime(200, 1000)))),
        body: { text: `w${i}` },
        body_schema_uri: 'annot://schema/word/v1',
        provenance: { was_generated_by: 'user:bench', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
        confidence: null,
      }),
    );
  }
  await store.addMany(words);
  await store.close();
}

/** What a worker does for one job, minus the queue: open the store, run, close. Returns ms. */
async function inProcessRun(path) {
  const t0 = performance.now();
  const store = await openServiceStore(path);
  try {
    await runProcessor(PROCESSOR, new AnnotationService(store), PARAMS);
  } finally {
    await store.close();
  }
  return performance.now() - t0;
}

function spawnWorker(path) {
  const child = spawn(process.execPath, [ANNOT_BIN, 'worker', '--store', path, '--queue-name', queueName], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('close', resolve));
  const ready = new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('annot worker: ready')) resolve();
    });
    exited.then((code) => reject(new Error(`annot worker exited ${code}: ${stderr}`)));
  });
  return { child, exited, ready };
}

const storePath = join(scratch, 'bench.annot');
await makeStore(storePath);
await inProcessRun(storePath); // writes the change points once; every later run finds them present

// Reference: the same runs, in this process, no queue.
for (let i = 0; i < 20; i++) await inProcessRun(storePath);
const inProcessTimes = [];
const refStart = performance.now();
for (let i = 0; i < JOBS; i++) inProcessTimes.push(await inProcessRun(storePath));
const refJobsPerSecond = (JOBS / (performance.now() - refStart)) * 1000;
const inProcessSorted = sortedNumbers(inProcessTimes);

const connection = await connectRedis(REDIS_URL);
const queue = new Queue(queueName, { connection });
const events = new QueueEvents(queueName, { connection: { url: REDIS_URL } });
await events.waitUntilReady();
const workers = Array.from({ length: WORKERS }, () => spawnWorker(storePath));
try {
  await Promise.all(workers.map((worker) => worker.ready));
  const data = { processor: PROCESSOR, store: storePath, params: PARAMS, actor: null };
  const options = { attempts: 3, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: false, removeOnFail: false };

  // 1. A burst of JOBS jobs.
  const burstStart = Date.now();
  const added = await queue.addBulk(Array.from({ length: JOBS }, () => ({ name: PROCESSOR_JOB_NAME, data, opts: options })));
  for (;;) {
    const counts = await queue.getJobCounts('completed', 'failed');
    if (counts.completed + counts.failed >= JOBS) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const finished = await Promise.all(added.map((job) => queue.getJob(job.id)));
  const failed = finished.filter((job) => job.failedReason);
  if (failed.length > 0) throw new Error(`${failed.length} bench jobs failed, e.g. ${failed[0].failedReason}`);
  const lastFinish = Math.max(...finished.map((job) => job.finishedOn));
  const jobsPerSecond = (JOBS / (lastFinish - burstStart)) * 1000;
  const burstLatency = sortedNumbers(finished.map((job) => job.finishedOn - job.timestamp));
  const byWorker = new Map();
  for (const job of finished) byWorker.set(job.processedBy ?? 'unknown', (byWorker.get(job.processedBy ?? 'unknown') ?? 0) + 1);

  report({
    name: `queue throughput (${JOBS} ${PROCESSOR} jobs, ${WORKERS} workers)`,
    figure: jobsPerSecond,
    unit: 'jobs/s',
    reference: 'the same runs in-process, no queue',
    referenceFigure: refJobsPerSecond,
    higherIsBetter: true,
    extra: {
      e2e_latency_p50_ms: Math.round(percentile(burstLatency, 0.5)),
      e2e_latency_p99_ms: Math.round(percentile(burstLatency, 0.99)),
      in_process_run_p50_ms: percentile(inProcessSorted, 0.5).toFixed(2),
      in_process_run_p99_ms: percentile(inProcessSorted, 0.99).toFixed(2),
      jobs_per_worker: [...byWorker.values()].join('/'),
    },
  });

  // 2. One job at a time: the queue's own latency.
  const lone = [];
  for (let i = 0; i < LONE_JOBS; i++) {
    const t0 = performance.now();
    const job = await queue.add(PROCESSOR_JOB_NAME, data, options);
    await job.waitUntilFinished(events, 30_000);
    lone.push(performance.now() - t0);
  }
  const loneSorted = sortedNumbers(lone);
  report({
    name: 'queue end-to-end latency of a lone job, p50',
    figure: percentile(loneSorted, 0.5),
    unit: 'ms',
    reference: 'the same run in-process, p50',
    referenceFigure: percentile(inProcessSorted, 0.5),
    higherIsBetter: false,
    extra: { lone_p99_ms: percentile(loneSorted, 0.99).toFixed(2), in_process_p99_ms: percentile(inProcessSorted, 0.99).toFixed(2) },
  });
} finally {
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.exited));
  await queue.obliterate({ force: true });
  await queue.close();
  await events.close();
  connection.disconnect();
  rmSync(scratch, { recursive: true, force: true });
}
