import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { InvalidInputError } from '../../errors/annot-error.js';
import { errorCodeOf } from '../../errors/error-code-of.js';
import { withoutCredentials } from '../credentials.js';
import { MissingFalKeyError } from '../errors.js';
import type { RenderEvent } from '../events.js';
import { chooseProvider } from '../provider-choice.js';
import type { Provider } from '../providers/provider.js';
import type { RemoteCache } from '../remote/remote-cache.js';
import { redactAws } from '../remote/s3-object-store.js';
import { renderBeat } from '../render-beat.js';
import { renderShot } from '../render-shot.js';
import { DEFAULT_RENDER_QUEUE, FarmKeys, liveWaiters } from './farm-keys.js';
import { handOver } from './media-handoff.js';
import { closeRedis, connectRenderRedis, renderRedisUrl } from './redis-connection.js';
import { sharedPendingRequests } from './shared-pending-requests.js';
import { parseUnitJob, type UnitJobData, type UnitJobResult } from './unit-job.js';

/** How a render worker reaches its queue, how many units it takes at once, and the caches it renders with. */
export interface RenderWorkerOptions {
  /** Default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379. */
  redisUrl?: string;
  /** Default `annot-render`. */
  queueName?: string;
  /** Units rendered at once. Default 1. */
  concurrency?: number;
  /** This worker's own cache (default ANNOT_CACHE_DIR, …): units it has are not rendered again. */
  cacheDir?: string;
  /** The shared cache, looked up and written as by a render on this machine. */
  remoteCache?: RemoteCache;
  /** Seconds a unit stays claimed by a worker that stopped answering before another takes it over. Default 20. */
  lockSeconds?: number;
  /** Told of each unit the worker starts, finishes or fails, and of its connection's errors (`annot render worker` prints them). */
  onEvent?: (event: RenderWorkerEvent) => void;
}

/** What a render worker reports as it works: one unit started, finished or failed, or an error of the worker itself. */
export type RenderWorkerEvent =
  | {
      /** The worker took a unit and is rendering it. */
      type: 'active';
      /** The unit's job id in the queue (shared by every caller of the same unit). */
      jobId: string;
      /** `shot ID` or `beat ID`, for a log line. */
      unit: string;
    }
  | {
      /** The unit is rendered and its result handed back. */
      type: 'completed';
      /** The unit's job id in the queue. */
      jobId: string;
      /** `shot ID` or `beat ID`. */
      unit: string;
      /** Whether a cache held it (the worker's own or the shared one): nothing was paid for it. */
      cacheHit: boolean;
      /** Where the callers find its media: `remote` (the shared cache) or `redis`. */
      mediaIn: string;
    }
  | {
      /** The unit failed for good; its callers get the error with its code. */
      type: 'failed';
      /** The unit's job id in the queue. */
      jobId: string;
      /** `shot ID` or `beat ID`. */
      unit: string;
      /** The failure's message, naming this worker. */
      error: string;
    }
  | {
      /** An error outside any one unit (a lost connection to Redis, for one); the worker goes on. */
      type: 'error';
      /** What failed, with any credential removed. */
      error: string;
    };

/** A running render worker, as startRenderWorker gives it. */
export interface RenderWorker {
  /** `host:pid`, as failures name it. */
  readonly name: string;
  /** The queue the worker takes units from. */
  readonly queueName: string;
  /** Takes no new units, lets the running ones finish, then disconnects. Idempotent. */
  close(): Promise<void>;
}

/** Progress goes to Redis at most this often. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * A render worker: takes units from the queue and renders each with its own provider and key
 * (FAL_KEY in its own environment: the worker's operator pays), its own cache and the shared
 * one. A job carries no key. Every failure fails the unit for good, as in a local render, with
 * its code and the worker's name; a unit nobody waits for any more (its callers pressed Ctrl-C
 * or died) is not rendered, and a running one is stopped when its last caller says so. A worker
 * that dies mid-unit loses its lock, and another takes the unit over within `lockSeconds` and a
 * half; a fal request it had submitted is found in Redis and collected, not paid for again.
 */
export async function startRenderWorker(options: RenderWorkerOptions = {}): Promise<RenderWorker> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new InvalidInputError(`concurrency: expected a positive whole number, got ${concurrency}`);
  const lockMs = Math.round((options.lockSeconds ?? 20) * 1000);
  if (!(lockMs >= 1000)) throw new InvalidInputError(`lock: expected at least 1 second, got ${options.lockSeconds}`);
  const url = renderRedisUrl(options.redisUrl);
  const queueName = options.queueName ?? DEFAULT_RENDER_QUEUE;
  const keys = new FarmKeys(queueName);
  const name = `${hostname()}:${process.pid}`;
  const emit = options.onEvent ?? (() => {});
  const [connection, redis, subscriber] = await Promise.all([0, 1, 2].map(() => connectRenderRedis(url, { forWorker: true })));
  const running = new Map<string, AbortController>();
  await listenForCancels(subscriber, redis, keys, running);
  const context: JobContext = { options, keys, redis, name, running, providers: new Map() };

  const worker = new Worker<UnitJobData, UnitJobResult>(queueName, (job, _token, signal) => renderJob(job, context, signal), {
    connection,
    concurrency,
    name,
    lockDuration: lockMs,
    stalledInterval: Math.max(500, Math.round(lockMs / 2)),
    maxStalledCount: 3,
  });
  worker.on('active', (job) => emit({ type: 'active', jobId: String(job.id), unit: describeJob(job) }));
  worker.on('completed', (job, result) => emit({ type: 'completed', jobId: String(job.id), unit: describeJob(job), cacheHit: result.cache_hit, mediaIn: result.media_in }));
  worker.on('failed', (job, error) => job && emit({ type: 'failed', jobId: String(job.id), unit: describeJob(job), error: error.message }));
  worker.on('error', (error) => emit({ type: 'error', error: redactAws(withoutCredentials(error.message)) }));
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    name,
    queueName,
    close: () => {
      closing ??= (async () => {
        try {
          await worker.close();
        } finally {
          await Promise.all([connection, redis, subscriber].map(closeRedis));
        }
      })();
      return closing;
    },
  };
}

interface JobContext {
  options: RenderWorkerOptions;
  keys: FarmKeys;
  redis: Redis;
  name: string;
  running: Map<string, AbortController>;
  /** One provider per choice for the worker's life (fal reads the key at each call). */
  providers: Map<string, Provider>;
}

/** "Stop this unit if nobody waits for it": a caller's Ctrl-C reaches the unit wherever it runs. */
async function listenForCancels(subscriber: Redis, redis: Redis, keys: FarmKeys, running: Map<string, AbortController>): Promise<void> {
  await subscriber.subscribe(keys.cancelChannel);
  subscriber.on('message', (_channel: string, jobId: string) => {
    const controller = running.get(jobId);
    if (!controller) return;
    liveWaiters(redis, keys, jobId).then(
      (waiting) => waiting === 0 && controller.abort(),
      () => undefined,
    );
  });
}

async function renderJob(job: Job<UnitJobData, UnitJobResult>, context: JobContext, bullSignal: AbortSignal | undefined): Promise<UnitJobResult> {
  const jobId = String(job.id);
  const controller = new AbortController();
  context.running.set(jobId, controller);
  bullSignal?.addEventListener('abort', () => controller.abort(), { once: true });
  const progress = progressReporter(job, context.name);
  try {
    const data = parseUnitJob(job.data);
    if ((await liveWaiters(context.redis, context.keys, jobId)) === 0) {
      throw new UnrecoverableError('[ANNOT_RENDER_ABORTED] nobody waits for this unit any more (its callers stopped); not rendered');
    }
    progress.report({ type: 'progress', message: `on render worker ${context.name}` });
    const provider = providerFor(data, context);
    const signal = controller.signal;
    const common = {
      provider,
      cacheDir: context.options.cacheDir,
      durableAssets: true,
      remoteCache: context.options.remoteCache,
      pendingRequests: sharedPendingRequests(context.redis, context.keys, provider.origin ?? provider.name),
      force: data.force,
      signal,
      onEvent: progress.report,
    };
    const result = await renderSpec(data, common);
    return await handOver(result, { redis: context.redis, keys: context.keys, remote: context.options.remoteCache, worker: context.name, cacheHit: result.cache_hit === true, ctx: { emit: progress.report, signal } });
  } catch (error) {
    if (error instanceof UnrecoverableError) throw error;
    const message = redactAws(withoutCredentials(error instanceof Error ? error.message : String(error)));
    throw new UnrecoverableError(`[${errorCodeOf(error)}] ${message} (render worker ${context.name})`);
  } finally {
    context.running.delete(jobId);
    await progress.flush();
  }
}

/** The job's provider as this worker has it: with its own key, or a clear refusal naming the worker. */
function providerFor(data: UnitJobData, context: JobContext): Provider {
  const known = context.providers.get(data.provider);
  if (known && (data.provider !== 'fal' || process.env.FAL_KEY)) return known;
  try {
    const provider = chooseProvider(data.provider, { cacheDir: context.options.cacheDir });
    context.providers.set(data.provider, provider);
    return provider;
  } catch (error) {
    if (!(error instanceof MissingFalKeyError)) throw error;
    throw new UnrecoverableError(
      `[ANNOT_FAL_KEY_MISSING] render worker ${context.name} has no fal key: FAL_KEY is not set in its environment. ` +
        'Set it where the worker runs (the operator of the workers pays for their renders), or render with --provider local',
    );
  }
}

type CommonOptions = Parameters<typeof renderShot>[1] & Parameters<typeof renderBeat>[2];

function renderSpec(data: UnitJobData, common: CommonOptions): Promise<Record<string, unknown>> {
  const spec = data.spec;
  if (spec.kind === 'shot') {
    return renderShot(spec.shot, {
      ...common,
      environment: spec.environment,
      characters: spec.characters,
      style: spec.style,
      asVideo: spec.as_video,
      quality: spec.quality,
      imageModelId: spec.image_model ?? undefined,
      imageToVideoModelId: spec.image_to_video_model ?? undefined,
    }) as unknown as Promise<Record<string, unknown>>;
  }
  return renderBeat(spec.beat, spec.speaker, {
    ...common,
    ttsQuality: spec.tts_quality ?? undefined,
    lipsyncQuality: spec.lipsync_quality ?? undefined,
    ttsModelId: spec.tts_model ?? undefined,
    avatarModelId: spec.avatar_model ?? undefined,
  }) as unknown as Promise<Record<string, unknown>>;
}

function describeJob(job: Job<UnitJobData>): string {
  const spec = (job.data as Partial<UnitJobData>).spec;
  if (spec?.kind === 'shot') return `shot ${spec.shot?.id}`;
  if (spec?.kind === 'beat') return `beat ${spec.beat?.id}`;
  return 'unit';
}

/** Sends the unit's render events to its callers (through the job's progress), the latest at most every PROGRESS_INTERVAL_MS. */
function progressReporter(job: Job, worker: string): { report: (event: RenderEvent) => void; flush: () => Promise<void> } {
  let latest: RenderEvent | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const send = () => {
    timer = undefined;
    const event = latest;
    latest = undefined;
    if (event) inFlight = inFlight.then(() => job.updateProgress({ ...event, worker })).catch(() => undefined);
  };
  return {
    report: (event) => {
      // Notices are never dropped for a later event; the others are a display's state, so the latest is enough.
      if (event.type === 'notice') {
        inFlight = inFlight.then(() => job.updateProgress({ ...event, worker })).catch(() => undefined);
        return;
      }
      latest = event;
      timer ??= setTimeout(send, PROGRESS_INTERVAL_MS);
    },
    flush: async () => {
      if (timer) clearTimeout(timer);
      send();
      await inFlight;
    },
  };
}
