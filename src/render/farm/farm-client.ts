import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { AnnotError } from '../../errors/annot-error.js';
import { isErrorCode, type ErrorCode } from '../../errors/error-table.js';
import { RenderAbortedError } from '../errors.js';
import type { RenderEvent } from '../events.js';
import type { RemoteCache } from '../remote/remote-cache.js';
import { UnitNotStartedError, type ExecutedUnit, type ExecutorContext, type UnitExecutor, type UnitSpec } from '../unit-executor.js';
import { CALLER_HEARTBEAT_SECONDS, DEFAULT_RENDER_QUEUE, FarmKeys, liveWaiters, UNIT_JOB_NAME } from './farm-keys.js';
import { receive } from './media-handoff.js';
import { closeRedis, connectRenderRedis, renderRedisUrl } from './redis-connection.js';
import { JOB_FORMAT, unitJobId, type FarmProvider, type UnitJobData, type UnitJobResult } from './unit-job.js';

/** A unit a render worker failed: the worker's code (ANNOT_RENDER_WORKER_FAILED when it gave none annot knows) and its message, which names the worker. */
export class RenderWorkerUnitError extends AnnotError {
  /** The code the worker failed the unit with (see docs/errors.md), so a render stopped by a worker reports as one stopped here would. */
  readonly code: ErrorCode;

  constructor(failedReason: string) {
    const match = /^\[(ANNOT_[A-Z0-9_]+)\] ([\s\S]*)$/.exec(String(failedReason));
    super(match ? match[2] : `a render worker failed the unit: ${failedReason}`);
    this.code = match && isErrorCode(match[1]) ? match[1] : 'ANNOT_RENDER_WORKER_FAILED';
  }
}

/** How a RenderFarmClient reaches the render workers, and what it asks them to render with. */
export interface RenderFarmOptions {
  /** Default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379. */
  redisUrl?: string;
  /** Default `annot-render`; the workers must take from the same. */
  queueName?: string;
  /** What the workers render with; they use their own key. */
  provider: FarmProvider;
  /** Where media are pulled from when the workers put them there (the same --remote-cache as the workers). */
  remoteCache?: RemoteCache;
  /** Ctrl-C: every unit of this caller not started is withdrawn, and running ones no other caller waits for are stopped. */
  signal?: AbortSignal;
}

/** How often the caller reads the state of the units it waits for, besides the queue's events (which a reconnect may miss). */
const POLL_MS = 5000;

interface Waiting {
  readonly data: UnitJobData;
  readonly emit: (event: RenderEvent) => void;
  readonly resolve: (result: UnitJobResult) => void;
  readonly reject: (error: Error) => void;
  settled: boolean;
}

/**
 * Sends units to the render workers (`annot render worker`) through Redis and waits for them,
 * as the executor of a render (see unit-executor.ts). One job per unit: callers rendering the
 * same unit at once share its job, so the model is called once. The caller needs no key. The
 * unit's render events come back from whichever worker renders it; its media from the shared
 * cache or, without one, from Redis (media-handoff.ts).
 */
export class RenderFarmClient implements UnitExecutor {
  /** `host:pid:random`: this caller, as the units' waiters in Redis name it (a unit nobody waits for any more is not rendered). */
  readonly callerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly waiting = new Map<string, Waiting>();
  private readonly timers: NodeJS.Timeout[] = [];
  private polling = false;
  private closed = false;
  private withdrawing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly options: RenderFarmOptions,
    /** The queue this client sends units to. */
    readonly queueName: string,
    private readonly keys: FarmKeys,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly redis: Redis,
    private readonly connections: Redis[],
  ) {}

  /** Connects to the queue's Redis and starts listening for the units' events; RenderQueueUnavailableError when Redis cannot be reached. */
  static async open(options: RenderFarmOptions): Promise<RenderFarmClient> {
    const url = renderRedisUrl(options.redisUrl);
    const queueName = options.queueName ?? DEFAULT_RENDER_QUEUE;
    const connections = await Promise.all([0, 1, 2].map((i) => connectRenderRedis(url, { forWorker: i === 1 })));
    const [queueConnection, eventsConnection, redis] = connections;
    const queue = new Queue(queueName, { connection: queueConnection });
    const events = new QueueEvents(queueName, { connection: eventsConnection });
    queue.on('error', () => undefined);
    events.on('error', () => undefined);
    const client = new RenderFarmClient(options, queueName, new FarmKeys(queueName), queue, events, redis, connections);
    await client.start();
    return client;
  }

  private async start(): Promise<void> {
    await this.events.waitUntilReady();
    this.events.on('completed', ({ jobId, returnvalue }) => this.settle(jobId, { result: parsed(returnvalue) as UnitJobResult }));
    this.events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, { failed: failedReason }));
    this.events.on('progress', ({ jobId, data }) => this.progress(jobId, data));
    await this.heartbeat();
    this.timers.push(setInterval(() => void this.heartbeat().catch(() => undefined), (CALLER_HEARTBEAT_SECONDS * 1000) / 3));
    this.timers.push(setInterval(() => void this.poll(), POLL_MS));
    this.options.signal?.addEventListener('abort', () => (this.withdrawing = this.withdraw({ running: true }).catch(() => undefined)), { once: true });
  }

  /**
   * Queues the unit (or joins the job of another caller rendering the same unit), relays its
   * events, and waits for a worker to finish it; its media are then copied into this machine's
   * store. A unit the worker failed rejects with RenderWorkerUnitError.
   */
  async render(spec: UnitSpec, ctx: ExecutorContext): Promise<ExecutedUnit> {
    if (this.options.signal?.aborted) throw new RenderAbortedError(`the ${spec.kind}`);
    const data: UnitJobData = { format: JOB_FORMAT, provider: this.options.provider, force: ctx.force, spec };
    const jobId = unitJobId(data);
    const done = new Promise<UnitJobResult>((resolve, reject) => this.waiting.set(jobId, { data, emit: ctx.emit, resolve, reject, settled: false }));
    try {
      await this.redis.multi().sadd(this.keys.waiters(jobId), this.callerId).expire(this.keys.waiters(jobId), 24 * 3600).exec();
      await this.enqueue(jobId, data);
      ctx.emit({ type: 'queued', message: 'waiting for a render worker' });
      const result = await done;
      const local = await receive(result, { redis: this.redis, keys: this.keys, remote: this.options.remoteCache, assets: ctx.assets!, ctx: { emit: ctx.emit, signal: ctx.signal } });
      return { result: local, cacheHit: result.cache_hit };
    } finally {
      this.waiting.delete(jobId);
      await this.redis.srem(this.keys.waiters(jobId), this.callerId).catch(() => undefined);
    }
  }

  /**
   * Puts the unit's job on the queue, or joins the one there. A job that failed earlier is
   * replaced (this is a new request to render it); one that completed is used as it is.
   */
  private async enqueue(jobId: string, data: UnitJobData): Promise<void> {
    const existing = (await this.queue.getJob(jobId)) as Job<UnitJobData, UnitJobResult> | undefined;
    const state = existing ? await existing.getState() : 'unknown';
    if (existing && state === 'completed' && existing.returnvalue) return this.settle(jobId, { result: existing.returnvalue });
    if (existing && (state === 'failed' || state === 'completed')) await existing.remove().catch(() => undefined);
    await this.queue.add(UNIT_JOB_NAME, data, {
      jobId,
      attempts: 1,
      // A finished unit stays readable for an hour (a caller joining late takes its result); failed ones too, for their reason.
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 3600 },
    });
  }

  /** Every unit this caller waits for, not yet taken by a worker, is withdrawn (after a failure, without --keep-going). */
  async stopNew(): Promise<void> {
    await this.withdraw({ running: false });
  }

  /**
   * Withdraws this caller's units. A unit no other live caller waits for is removed from the
   * queue while no worker has it; with `running`, one a worker is rendering is stopped as well
   * (Ctrl-C). Units another caller waits for go on for that caller.
   */
  private async withdraw(how: { running: boolean }): Promise<void> {
    const ids = [...this.waiting.entries()].filter(([, wait]) => !wait.settled).map(([id]) => id);
    await Promise.all(
      ids.map(async (jobId) => {
        const job = await this.queue.getJob(jobId).catch(() => undefined);
        const state = job ? await job.getState().catch(() => 'unknown') : 'unknown';
        if (state === 'active' && !how.running) return;
        await this.redis.srem(this.keys.waiters(jobId), this.callerId).catch(() => undefined);
        this.settle(jobId, { withdrawn: how.running ? 'aborted' : 'not started' });
        if (!job || (await liveWaiters(this.redis, this.keys, jobId).catch(() => 1)) > 0) return;
        const removed = state !== 'active' && (await job.remove().then(() => true, () => false));
        if (!removed && how.running) await this.redis.publish(this.keys.cancelChannel, jobId).catch(() => undefined);
      }),
    );
  }

  private settle(jobId: string, outcome: { result: UnitJobResult } | { failed: string } | { withdrawn: 'aborted' | 'not started' }): void {
    const wait = this.waiting.get(jobId);
    if (!wait || wait.settled) return;
    wait.settled = true;
    if ('result' in outcome) wait.resolve(outcome.result);
    else if ('failed' in outcome) wait.reject(this.options.signal?.aborted ? new RenderAbortedError(`the ${wait.data.spec.kind}`) : new RenderWorkerUnitError(outcome.failed));
    else wait.reject(outcome.withdrawn === 'aborted' ? new RenderAbortedError(`the ${wait.data.spec.kind}`) : new UnitNotStartedError());
  }

  private progress(jobId: string, data: unknown): void {
    const wait = this.waiting.get(jobId);
    if (!wait || wait.settled || !data || typeof data !== 'object') return;
    const { type, model_id, request_id, queue_position, message, elapsed_ms, whole_unit, tier } = data as RenderEvent;
    wait.emit({ type, model_id, request_id, queue_position, message, elapsed_ms, whole_unit, tier });
  }

  /** Reads the state of every unit still awaited: a finished one whose event was missed settles, a vanished one is put back. */
  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      for (const [jobId, wait] of this.waiting) {
        if (wait.settled || this.options.signal?.aborted) continue;
        const job = (await this.queue.getJob(jobId)) as Job<UnitJobData, UnitJobResult> | undefined;
        if (!job) {
          // Removed under us (another caller withdrew it an instant before this one joined): put it back.
          await this.queue.add(UNIT_JOB_NAME, wait.data, { jobId, attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } });
          continue;
        }
        const state = await job.getState();
        if (state === 'completed' && job.returnvalue) this.settle(jobId, { result: job.returnvalue });
        else if (state === 'failed') this.settle(jobId, { failed: job.failedReason });
      }
    } catch {
      // Redis hiccup: the next poll tries again.
    } finally {
      this.polling = false;
    }
  }

  private async heartbeat(): Promise<void> {
    await this.redis.set(this.keys.caller(this.callerId), '1', 'EX', CALLER_HEARTBEAT_SECONDS);
  }

  /** Stops polling, says this caller is gone, disconnects. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.withdrawing;
    for (const timer of this.timers) clearInterval(timer);
    await this.redis.del(this.keys.caller(this.callerId)).catch(() => undefined);
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    await Promise.all(this.connections.map(closeRedis));
  }
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
