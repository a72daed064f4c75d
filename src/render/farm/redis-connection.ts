import type { Redis } from 'ioredis';
import { AnnotError } from '../../errors/annot-error.js';
import { redactUrlCredentials } from '../../text/secret-redaction.js';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Redis could not be reached, so the render queue cannot be used. */
export class RenderQueueUnavailableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_QUEUE_UNAVAILABLE';
}

/** The Redis of the render queue: the one given, else ANNOT_REDIS_URL (as `annot worker` reads it), else the local default. */
export function renderRedisUrl(explicit?: string): string {
  return explicit || process.env.ANNOT_REDIS_URL || DEFAULT_REDIS_URL;
}

/**
 * A Redis connection known to work: one attempt, then a RenderQueueUnavailableError saying where
 * and what to do, so a command never hangs on a Redis that is not there. A worker's connection
 * (`forWorker`) then retries forever, as BullMQ's blocking reads require. ioredis is loaded here,
 * on first use: a render without --queue never loads it.
 */
export async function connectRenderRedis(url: string, options: { forWorker?: boolean } = {}): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: options.forWorker ? null : 1,
    retryStrategy: (times) => (options.forWorker || times <= 1 ? Math.min(times * 200, 2000) : null),
  });
  // An 'error' event without a listener would crash; the socket's own error says why connect() failed.
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
    throw new RenderQueueUnavailableError(
      `cannot reach the Redis of the render queue at ${redactUrlCredentials(url)} (${why instanceof Error ? why.message : String(why)}); ` +
        'start redis-server, or point --redis / ANNOT_REDIS_URL at a running one',
      { cause: error },
    );
  }
  return redis;
}

/** Closes a connection politely, or at once when Redis is gone. */
export async function closeRedis(redis: Redis): Promise<void> {
  await redis.quit().catch(() => redis.disconnect());
}
