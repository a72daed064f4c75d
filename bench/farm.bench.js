// Rendering as a team (README, "Rendering as a team"), each figure beside a reference measured in the same run:
// 1. A second machine renders a 200-unit scene the first rendered, through the shared cache (s3rver in this
//    process): zero fal submissions; its time against the first machine's, and the bytes it pulled.
// 2. 1, 2 and 4 render workers (--concurrency 4 each) on the fake fal server at 200 ms a call: wall time against
//    the ideal (units / slots x one call, which is one status poll, 500 ms, as fal's own client polls) and against
//    one process rendering alone at --concurrency 4N.
// 3. --provider local on 1 and 2 workers: the speed-up, up to the core count.
// 4. Two callers on one scene at once: fal submissions = unique units.
// 5. Ctrl-C on a caller: every worker idle (no unit waiting or running) in under 1 s, and no submission after.
// Needs Redis at ANNOT_REDIS_URL (default redis://127.0.0.1:6379); skipped when it is unreachable.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import S3rver from 's3rver';
import { startFakeFalServer } from './lib/fake-fal.js';
import { report } from './lib/harness.js';

const BIN = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const REDIS_URL = process.env.ANNOT_REDIS_URL ?? 'redis://127.0.0.1:6379';
const FAL_KEY = 'bench-key-id:bench-key-secret';
const POLL_MS = 500;
const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-farm-'));
const queues = [];
let machines = 0;

const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
probe.on('error', () => undefined);
try {
  await probe.connect();
  await probe.ping();
  probe.disconnect();
} catch (error) {
  console.log(`farm.bench: Redis at ${REDIS_URL} is unreachable (${error.message}); skipped`);
  process.exit(0);
}

/** A scene of `units` shots, each one still: one model call per unit. */
function scene(tag, units) {
  const path = join(scratch, `${tag}.yaml`);
  const shots = Array.from({ length: units }, (_, i) => `  - { id: s${i}, description: "bench ${tag} shot ${i}" }`);
  writeFileSync(path, `title: Bench ${tag}\nshots:\n${shots.join('\n')}\n`);
  return path;
}

const machine = (fal, extra = {}) => ({ ANNOT_CACHE_DIR: join(scratch, `machine-${machines++}`), FAL_KEY, FAL_QUEUE_URL: fal.url, ANNOT_REDIS_URL: REDIS_URL, ANNOT_LOCAL_SPEECH: 'placeholder', ...extra });

function queueName(tag) {
  const name = `annot-bench-farm-${process.pid}-${tag}`;
  queues.push(name);
  return name;
}

/** Runs `annot args` to its end: exit code, output, wall milliseconds. */
function annot(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`annot ${args.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`));
      else resolve({ stdout, stderr, ms });
    });
  });
}

/** Starts `annot render worker` and resolves once it is ready. */
function worker(queue, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'render', 'worker', '--queue-name', queue, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    const exited = new Promise((done) => child.on('close', done));
    child.stderr.on('data', (c) => {
      output += c;
      if (output.includes('annot render worker: ready')) resolve({ child, exited, output: () => output });
    });
    exited.then((code) => reject(new Error(`a worker exited with ${code} before it was ready:\n${output}`)));
  });
}

async function stopAll(workers) {
  for (const w of workers) w.child.kill('SIGTERM');
  await Promise.all(workers.map((w) => w.exited));
}

async function sharedCache() {
  const directory = join(scratch, 's3');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: 'bench' }] });
  const { port } = await server.run();
  const s3 = { AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
  const fal = await startFakeFalServer({ latencyMs: 200 });
  try {
    const file = scene('team', 200);
    const args = ['render', 'scene', file, '--provider', 'fal', '--remote-cache', 's3://bench/team', '--concurrency', '16', '--manifest', join(scratch, 'team.manifest.json'), '-q'];
    const first = await annot(args, { ...machine(fal), ...s3 });
    const paid = fal.submissions().length;
    const second = await annot(args, { ...machine(fal), ...s3 });
    const again = fal.submissions().length - paid;
    const bytes = Number(/units pulled \((\d+) bytes\)/.exec(second.stdout)?.[1] ?? NaN);
    report({
      name: 'farm: a second machine renders a 200-unit scene from the shared cache',
      figure: second.ms,
      unit: 'ms',
      reference: 'the first machine rendering it (fal 200 ms a call, --concurrency 16)',
      referenceFigure: first.ms,
      higherIsBetter: false,
      met: again === 0,
      targetText: 'zero fal submissions',
      extra: { fal_submissions_first: paid, fal_submissions_second: again, bytes_pulled: bytes },
    });
  } finally {
    await fal.close();
    await server.close();
  }
}

async function scaling() {
  const fal = await startFakeFalServer({ latencyMs: 200 });
  const units = 80;
  try {
    for (const n of [1, 2, 4]) {
      const queue = queueName(`scale-${n}`);
      const workers = await Promise.all(Array.from({ length: n }, () => worker(queue, ['--concurrency', '4'], machine(fal))));
      const farm = await annot(['render', 'scene', scene(`farm-${n}`, units), '--queue', '--queue-name', queue, '--manifest', join(scratch, `farm-${n}.json`), '-q'], machine(fal, { FAL_KEY: '' }));
      await stopAll(workers);
      const alone = await annot(['render', 'scene', scene(`alone-${n}`, units), '--provider', 'fal', '--concurrency', String(4 * n), '--manifest', join(scratch, `alone-${n}.json`), '-q'], machine(fal));
      const ideal = Math.ceil(units / (4 * n)) * POLL_MS;
      report({
        name: `farm: ${units} units on ${n} worker${n > 1 ? 's' : ''} (--concurrency 4), fal 200 ms a call`,
        figure: farm.ms,
        unit: 'ms',
        reference: `ideal (${Math.ceil(units / (4 * n))} rounds of one ${POLL_MS} ms status poll)`,
        referenceFigure: ideal,
        higherIsBetter: false,
        target: 1.15,
        targetText: '<= 1.15x ideal',
        extra: { one_process_at_concurrency_4n_ms: Math.round(alone.ms), vs_one_process: (farm.ms / alone.ms).toFixed(3), vs_one_process_target: '<= 1.10' },
      });
    }
  } finally {
    await fal.close();
  }
}

async function localSpeedup() {
  const units = 16;
  const times = [];
  const fal = await startFakeFalServer();
  try {
    for (const n of [1, 2]) {
      const queue = queueName(`local-${n}`);
      const workers = await Promise.all(Array.from({ length: n }, () => worker(queue, ['--concurrency', '1'], machine(fal, { FAL_KEY: '' }))));
      const run = await annot(['render', 'scene', scene(`local-${n}`, units), '--queue', '--queue-name', queue, '--provider', 'local', '--manifest', join(scratch, `local-${n}.json`), '-q'], machine(fal, { FAL_KEY: '' }));
      await stopAll(workers);
      times.push(run.ms);
    }
  } finally {
    await fal.close();
  }
  const cores = availableParallelism();
  const speedup = times[0] / times[1];
  report({
    name: `farm: --provider local, ${units} units, 2 workers against 1 (speed-up)`,
    figure: speedup,
    unit: 'x',
    reference: '1 worker',
    higherIsBetter: true,
    met: speedup >= Math.min(2, cores) * 0.75,
    targetText: `close to min(2 workers, ${cores} cores)`,
    extra: { one_worker_ms: Math.round(times[0]), two_workers_ms: Math.round(times[1]) },
  });
}

async function twoCallers() {
  const fal = await startFakeFalServer({ latencyMs: 200 });
  const units = 20;
  try {
    const queue = queueName('callers');
    const workers = [await worker(queue, ['--concurrency', '8'], machine(fal))];
    const file = scene('callers', units);
    await Promise.all(['a', 'b'].map((who) => annot(['render', 'scene', file, '--queue', '--queue-name', queue, '--manifest', join(scratch, `callers-${who}.json`), '-q'], machine(fal, { FAL_KEY: '' }))));
    await stopAll(workers);
    const submissions = fal.submissions().length;
    report({ name: `farm: two callers render one ${units}-unit scene at once`, figure: submissions, unit: 'fal submissions', reference: 'unique units', referenceFigure: units, higherIsBetter: false, target: 1, targetText: '= unique units' });
  } finally {
    await fal.close();
  }
}

async function interrupt() {
  const fal = await startFakeFalServer({ latencyMs: 3_600_000 });
  const queue = queueName('ctrl-c');
  const jobs = new Queue(queue, { connection: { url: REDIS_URL } });
  try {
    const workers = await Promise.all([0, 1].map(() => worker(queue, ['--concurrency', '2'], machine(fal))));
    const caller = spawn(process.execPath, [BIN, 'render', 'scene', scene('ctrl-c', 20), '--queue', '--queue-name', queue, '--manifest', join(scratch, 'ctrl-c.json'), '-q'], { env: { ...process.env, ...machine(fal, { FAL_KEY: '' }) }, stdio: 'ignore' });
    const exited = new Promise((resolve) => caller.on('close', resolve));
    const deadline = Date.now() + 60_000;
    while (fal.submissions().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    caller.kill('SIGINT');
    let idle = NaN;
    while (performance.now() - t0 < 30_000) {
      const counts = await jobs.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((c) => c === 0)) {
        idle = performance.now() - t0;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await exited;
    const before = fal.submissions().length;
    await new Promise((r) => setTimeout(r, 1500));
    const later = fal.submissions().length - before;
    await stopAll(workers);
    report({ name: 'farm: Ctrl-C on a caller until every worker is idle', figure: idle, unit: 'ms', higherIsBetter: false, met: idle < 1000 && later === 0, targetText: '< 1000 ms, no later submission', extra: { submissions_before: before, submissions_after: later } });
  } finally {
    await jobs.close();
    await fal.close();
  }
}

try {
  await sharedCache();
  await scaling();
  await localSpeedup();
  await twoCallers();
  await interrupt();
} finally {
  const redis = new Redis(REDIS_URL);
  for (const name of queues) {
    const queue = new Queue(name, { connection: { url: REDIS_URL } });
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    const keys = await redis.keys(`annot-render:${name}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
  rmSync(scratch, { recursive: true, force: true });
}
