import type { Redis } from 'ioredis';

/** The queue render units go through when none is named; workers and callers must name the same. */
export const DEFAULT_RENDER_QUEUE = 'annot-render';
/** The BullMQ job name of every unit. */
export const UNIT_JOB_NAME = 'render_unit';

/**
 * The keys the render farm keeps beside BullMQ's own (`bull:<queue>:…`), all under
 * `annot-render:<queue>:`. None holds a key or a secret.
 * - `caller:<id>`: a caller's heartbeat, which expires when the caller is gone (killed, crashed).
 * - `waiters:<job id>`: the callers waiting for a unit: a unit nobody alive waits for is not rendered.
 * - `cancel` (a pub/sub channel): "stop this unit if nobody waits for it", to the workers.
 * - `pending:<origin digest>:<call key>`: model requests submitted and not yet collected.
 * - `blob:<sha256>`: media handed from a worker to its callers when there is no shared cache.
 */
export class FarmKeys {
  readonly base: string;

  constructor(readonly queueName: string) {
    this.base = `annot-render:${queueName}`;
  }

  caller(id: string): string {
    return `${this.base}:caller:${id}`;
  }

  waiters(jobId: string): string {
    return `${this.base}:waiters:${jobId}`;
  }

  get cancelChannel(): string {
    return `${this.base}:cancel`;
  }

  pending(originDigest: string, callKey: string): string {
    return `${this.base}:pending:${originDigest}:${callKey}`;
  }

  blob(sha256: string): string {
    return `${this.base}:blob:${sha256}`;
  }
}

/** Seconds a caller's heartbeat lives; it is refreshed at a third of that. */
export const CALLER_HEARTBEAT_SECONDS = 30;

/** How many callers still alive wait for a unit (a caller killed without a word stops counting when its heartbeat expires). */
export async function liveWaiters(redis: Redis, keys: FarmKeys, jobId: string): Promise<number> {
  const callers = await redis.smembers(keys.waiters(jobId));
  if (callers.length === 0) return 0;
  const alive = await redis.exists(...callers.map((id) => keys.caller(id)));
  return alive;
}
