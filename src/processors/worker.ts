/**
 * The worker that runs queued processor jobs: startProcessorWorker. It keeps BullMQ out of programs
 * that import only `annot`.
 *
 * @packageDocumentation
 * @module annot/worker
 */

import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { InvalidInputError } from '../errors/annot-error.js';
import { AnnotationService } from '../service/annotation-service.js';
import { lendPassword, openServiceStore, redactLocation } from '../service/open-service-store.js';
import { ProcessorParamsError, UnknownProcessorError } from './errors.js';
import type { ProcessorProgress, ProcessorResult } from './processor.js';
import { connectRedis, DEFAULT_QUEUE_NAME, redisUrlFrom, type ProcessorJobData, type QueueLocation } from './queue.js';
import { resolveProcessorParams, runProcessor } from './registry.js';

/** Options of startProcessorWorker. */
export interface ProcessorWorkerOptions extends QueueLocation {
  /** The store for jobs that name none. When given, it is opened once at start, so a wrong location fails at once. */
  readonly store?: string;
  /** Jobs run at the same time by this worker. Default 1. */
  readonly concurrency?: number;
  /** Told about every job that starts, completes or fails (the CLI logs them). */
  readonly onEvent?: (event: WorkerEvent) => void;
}

/** What a worker tells its `onEvent` listener. */
export type WorkerEvent =
  | {
      /** A job started. */
      readonly type: 'active';
      /** The job's id. */
      readonly jobId: string;
      /** The processor it runs. */
      readonly processor: string;
    }
  | {
      /** A job completed. */
      readonly type: 'completed';
      /** The job's id. */
      readonly jobId: string;
      /** The processor it ran. */
      readonly processor: string;
      /** What the processor gave back. */
      readonly result: ProcessorResult;
    }
  | {
      /** An attempt of a job failed. */
      readonly type: 'failed';
      /** The job's id. */
      readonly jobId: string;
      /** The processor it ran. */
      readonly processor: string;
      /** The error's message, with any password taken out. */
      readonly error: string;
      /** Whether the job will be tried again. */
      readonly willRetry: boolean;
    }
  | {
      /** The worker itself failed (a lost Redis connection). */
      readonly type: 'error';
      /** The error's message. */
      readonly error: string;
    };

/** A running worker: what startProcessorWorker gives. */
export interface ProcessorWorker {
  /** The BullMQ worker underneath. */
  readonly worker: Worker<ProcessorJobData, ProcessorResult>;
  /** The name of the queue it takes jobs from. */
  readonly queueName: string;
  /** Takes no new jobs, lets the running ones finish, then disconnects. Idempotent. */
  close(): Promise<void>;
}

/** Progress goes to Redis at most this often (each update is a round trip). */
const PROGRESS_INTERVAL_MS = 100;

/**
 * A BullMQ worker that runs processor jobs. Each job opens its store afresh and closes it when
 * done, as a short-lived client of the store: a `.annot` file or a PostgreSQL project is shared
 * with the other workers and with `serve`/`mcp` through its own transactions and op-log, so
 * any number of workers on any number of machines can take jobs from one queue. A job whose
 * processor or params are wrong fails for good at once (retrying cannot fix it); any other
 * failure (a store that cannot be opened, a refused write) is retried with the job's backoff.
 */
export async function startProcessorWorker(options: ProcessorWorkerOptions = {}): Promise<ProcessorWorker> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new InvalidInputError(`concurrency: expected a positive whole number, got ${concurrency}`);
  if (options.store !== undefined) await (await openServiceStore(options.store)).close();
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const connection: Redis = await connectRedis(redisUrlFrom(options.redisUrl), { forWorker: true });
  const emit = options.onEvent ?? (() => {});

  const worker = new Worker<ProcessorJobData, ProcessorResult>(queueName, (job, _token, signal) => runJob(job, options.store, signal), {
    connection,
    concurrency,
    // Recorded on every job it takes (processed_by in --status), so a failure can be traced to a machine.
    name: `${hostname()}:${process.pid}`,
  });
  worker.on('active', (job) => emit({ type: 'active', jobId: String(job.id), processor: job.data.processor }));
  worker.on('completed', (job, result) => emit({ type: 'completed', jobId: String(job.id), processor: job.data.processor, result }));
  worker.on('failed', (job, error) => {
    if (!job) return;
    const willRetry = !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    emit({ type: 'failed', jobId: String(job.id), processor: job.data.processor, error: error.message, willRetry });
  });
  worker.on('error', (error) => emit({ type: 'error', error: error.message }));
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    worker,
    queueName,
    close: () => {
      closing ??= (async () => {
        try {
          await worker.close();
        } finally {
          await connection.quit().catch(() => connection.disconnect());
        }
      })();
      return closing;
    },
  };
}

async function runJob(job: Job<ProcessorJobData, ProcessorResult>, defaultStore: string | undefined, signal: AbortSignal | undefined): Promise<ProcessorResult> {
  const { processor, params, actor } = job.data;
  const location = job.data.store ?? defaultStore;
  try {
    resolveProcessorParams(processor, params);
    if (location === undefined) throw new InvalidInputError('the job names no store and this worker has no --store');
  } catch (error) {
    if (error instanceof ProcessorParamsError || error instanceof UnknownProcessorError || error instanceof InvalidInputError) {
      throw new UnrecoverableError(error.message);
    }
    throw error;
  }
  const progress = progressReporter(job);
  let store;
  try {
    store = await openServiceStore(job.data.store === null ? location : lendPassword(location, defaultStore));
  } catch (error) {
    throw new Error(`cannot open store ${redactLocation(location)}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    return await runProcessor(processor, new AnnotationService(store), params, { actor: actor ?? undefined, onProgress: progress.report, signal });
  } finally {
    await progress.flush();
    await store.close();
  }
}

/** Sends the latest progress to Redis, at most every PROGRESS_INTERVAL_MS and never two updates at once. */
function progressReporter(job: Job): { report: (progress: ProcessorProgress) => void; flush: () => Promise<void> } {
  let latest: ProcessorProgress | undefined;
  let sentAt = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const send = () => {
    const value = latest;
    latest = undefined;
    sentAt = Date.now();
    if (value !== undefined) inFlight = inFlight.then(() => job.updateProgress({ ...value })).catch(() => undefined);
  };
  return {
    report: (progress) => {
      latest = progress;
      if (Date.now() - sentAt >= PROGRESS_INTERVAL_MS) send();
    },
    flush: async () => {
      send();
      await inFlight;
    },
  };
}
