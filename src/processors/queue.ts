/**
 * The Redis queue of processor jobs (BullMQ): enqueueProcessorJob, getJobStatus. It keeps BullMQ and
 * ioredis out of programs that import only `annot`.
 *
 * @packageDocumentation
 * @module annot/queue
 */

import { resolve } from 'node:path';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { InvalidInputError } from '../errors/annot-error.js';
import { isPostgresLocation, redactLocation, withoutPassword } from '../service/open-service-store.js';
import { JobNotFoundError, QueueUnavailableError } from './errors.js';
import { resolveProcessorParams } from './registry.js';

/** The queue processors' jobs go to unless another is named. */
export const DEFAULT_QUEUE_NAME = 'annot-processors';
/** The Redis server used when neither an option nor ANNOT_REDIS_URL names one. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** The BullMQ job name of every processor run. */
export const PROCESSOR_JOB_NAME = 'run_processor';
/** How many times a job is run before it fails for good, unless EnqueueOptions.attempts says otherwise. */
export const DEFAULT_ATTEMPTS = 3;
/** The delay before a job's first retry, in milliseconds; each next one doubles it. */
export const DEFAULT_BACKOFF_MS = 1000;

/** Which Redis server and which queue. */
export interface QueueLocation {
  /** Default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379. */
  readonly redisUrl?: string;
  /** Default `annot-processors`. Workers and enqueuers must name the same queue. */
  readonly queueName?: string;
}

/** What a job carries: everything a worker on any machine needs to run it. */
export interface ProcessorJobData {
  /** The processor's name. */
  readonly processor: string;
  /** The store location (an absolute `.annot` path or a `postgres://` URL); null to use the worker's `--store`. */
  readonly store: string | null;
  /** The processor's parameters, as checked by its schema. */
  readonly params: Record<string, unknown>;
  /** Null for the processor's default actor, `processor:<name>`. */
  readonly actor: string | null;
}

/** Options of enqueueProcessorJob. */
export interface EnqueueOptions extends QueueLocation {
  /** Runs before the job fails for good. Default 3. */
  readonly attempts?: number;
  /** The first retry's delay; each next one doubles it. Default 1000 ms. */
  readonly backoffMs?: number;
}

/** A job as `annot process --status` shows it (snake_case: it is printed as JSON). */
export interface JobStatus {
  /** The job's id. */
  readonly id: string;
  /** The queue it is in. */
  readonly queue: string;
  /** The processor it runs. */
  readonly processor: string;
  /** The store location it runs on, with any password shown as `***`; null for the worker's own. */
  readonly store: string | null;
  /** waiting, delayed (between retries), active, completed, failed, ... */
  readonly state: string;
  /** The last progress the processor reported, or null. */
  readonly progress: unknown;
  /** How many times it has been run so far. */
  readonly attempts_made: number;
  /** How many times it may be run. */
  readonly attempts: number;
  /** What the processor gave back, once it completed. */
  readonly result: unknown;
  /** The last attempt's error: kept on a job that failed for good. */
  readonly failed_reason: string | null;
  /** `host:pid` of the worker that last took the job, null before one did. */
  readonly processed_by: string | null;
  /** When it was enqueued (ISO 8601). */
  readonly enqueued_at: string;
  /** When it finished (ISO 8601), or null. */
  readonly finished_at: string | null;
}

/** The Redis URL to use: the one given, else ANNOT_REDIS_URL, else DEFAULT_REDIS_URL. */
export function redisUrlFrom(explicit?: string): string {
  return explicit ?? process.env.ANNOT_REDIS_URL ?? DEFAULT_REDIS_URL;
}

/**
 * A Redis connection that is known to work: one connection attempt, then a QueueUnavailableError
 * saying where and what to do, so a command never hangs retrying a Redis that is not there. A
 * worker's connection (`forWorker`) then retries forever, as BullMQ's blocking reads require.
 */
export async function connectRedis(url: string, options: { forWorker?: boolean } = {}): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: options.forWorker ? null : 1,
    retryStrategy: (times) => (options.forWorker || times <= 1 ? Math.min(times * 200, 2000) : null),
  });
  // Errors surface through connect() below and later through commands; an 'error' event without a listener would crash.
  // connect() itself only says "Connection is closed"; the socket's error says why (ECONNREFUSED, ENOTFOUND).
  let socketError: Error | undefined;
  redis.on('error', (error: Error) => {
    socketError ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const why = socketError ?? error;
    throw new QueueUnavailableError(
      `cannot reach Redis at ${redactLocation(url)} (${why instanceof Error ? why.message : String(why)}); ` +
        'start redis-server, or point --redis / ANNOT_REDIS_URL at a running one',
      { cause: error },
    );
  }
  return redis;
}

/** Runs `use` with a BullMQ queue on a fresh connection, and closes both afterwards. */
async function withQueue<T>(location: QueueLocation, use: (queue: Queue, queueName: string) => Promise<T>): Promise<T> {
  const queueName = location.queueName ?? DEFAULT_QUEUE_NAME;
  const redis = await connectRedis(redisUrlFrom(location.redisUrl));
  const queue = new Queue(queueName, { connection: redis });
  queue.on('error', () => undefined);
  try {
    return await use(queue, queueName);
  } finally {
    await queue.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * Puts a processor run on the queue and returns its job id. The processor and its params are
 * checked here, so a bad request is refused at once instead of failing on a worker later; a
 * file store is named by its absolute path, since workers run elsewhere. A job that fails is
 * retried with exponential backoff and, after its last attempt, kept with its error.
 */
export async function enqueueProcessorJob(
  job: { processor: string; store: string | null; params?: Record<string, unknown>; actor?: string | null },
  options: EnqueueOptions = {},
): Promise<string> {
  resolveProcessorParams(job.processor, job.params ?? {});
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (!Number.isSafeInteger(attempts) || attempts < 1) throw new InvalidInputError(`attempts: expected a positive whole number, got ${attempts}`);
  if (!Number.isSafeInteger(backoffMs) || backoffMs < 0) throw new InvalidInputError(`backoff: expected a whole number of milliseconds >= 0, got ${backoffMs}`);
  const data: ProcessorJobData = { processor: job.processor, store: queuedLocation(job.store), params: job.params ?? {}, actor: job.actor ?? null };
  return withQueue(options, async (queue) => {
    const added = await queue.add(PROCESSOR_JOB_NAME, data, {
      attempts,
      backoff: { type: 'exponential', delay: backoffMs },
      // Finished jobs stay readable by --status for a day; failed ones until someone removes them.
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: false,
    });
    return String(added.id);
  });
}

/** A job's state, progress, result or failure reason. JobNotFoundError for an id the queue does not hold. */
export async function getJobStatus(jobId: string, location: QueueLocation = {}): Promise<JobStatus> {
  return withQueue(location, async (queue, queueName) => {
    // The state first: a job is finished with its result in one step, so a job read after its
    // state said "completed" has its result (read the other way round, it might not yet).
    const state = await queue.getJobState(jobId);
    const job = (await queue.getJob(jobId)) as Job<ProcessorJobData> | undefined;
    if (!job) throw new JobNotFoundError(`job ${jobId} not found on queue "${queueName}" (finished jobs are kept for a day; check --queue-name and --redis)`);
    return {
      id: String(job.id),
      queue: queueName,
      processor: job.data.processor,
      store: job.data.store === null ? null : redactLocation(job.data.store),
      state,
      progress: job.progress,
      attempts_made: job.attemptsMade,
      attempts: job.opts.attempts ?? 1,
      result: job.returnvalue ?? null,
      failed_reason: job.failedReason ?? null,
      processed_by: job.processedBy ?? null,
      enqueued_at: new Date(job.timestamp).toISOString(),
      finished_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  });
}

/** Removes a queue and all its jobs (tests and benchmarks clean up with it). */
export async function obliterateQueue(location: QueueLocation): Promise<void> {
  await withQueue(location, (queue) => queue.obliterate({ force: true }));
}

function queuedLocation(store: string | null): string | null {
  if (store === null) return null;
  if (store === ':memory:') {
    throw new InvalidInputError('a queued job cannot use an in-memory store: a worker could never see it; name a .annot file or a postgres:// URL');
  }
  // The password stays out of Redis: the worker takes it from its own --store, PGPASSWORD or ~/.pgpass.
  return isPostgresLocation(store) ? withoutPassword(store) : resolve(store);
}
