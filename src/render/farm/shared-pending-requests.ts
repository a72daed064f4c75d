import type { Redis } from 'ioredis';
import { sha256Hex } from '../hashing.js';
import type { PendingRequests } from '../pending-requests.js';
import type { RequestTicket } from '../providers/provider.js';
import type { FarmKeys } from './farm-keys.js';

/** fal keeps a request's result for days; a ticket older than this is not worth resuming. */
const PENDING_SECONDS = 2 * 24 * 3600;

/**
 * The pending model requests of every worker of one queue, in Redis: when a worker dies while
 * fal renders a call, the worker that takes the unit over finds the request here and collects it
 * instead of paying for it again. Keyed by the provider's origin as well as the call, so a
 * request made at one fal queue is never looked for at another. A ticket holds URLs, never a key.
 */
export function sharedPendingRequests(redis: Redis, keys: FarmKeys, origin: string): PendingRequests {
  const originDigest = sha256Hex(Buffer.from(origin, 'utf8')).slice(0, 16);
  const keyOf = (callKey: string) => keys.pending(originDigest, callKey);
  return {
    get: async (callKey) => {
      const text = await redis.get(keyOf(callKey));
      if (text === null) return undefined;
      try {
        const value = JSON.parse(text) as { ticket?: RequestTicket };
        return value.ticket && typeof value.ticket === 'object' ? value.ticket : undefined;
      } catch {
        return undefined;
      }
    },
    record: async (callKey, provider, modelId, ticket) => {
      await redis.set(keyOf(callKey), JSON.stringify({ provider, model_id: modelId, ticket, submitted_at: new Date().toISOString() }), 'EX', PENDING_SECONDS);
    },
    forget: async (callKey) => {
      await redis.del(keyOf(callKey));
    },
  };
}
