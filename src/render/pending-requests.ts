import type { RenderCache } from './cache.js';
import type { RequestTicket } from './providers/provider.js';

/**
 * Where a model request submitted but not yet collected is recorded, by its call key, so that a
 * render that stops while waiting (Ctrl-C, a crash, a worker killed) is resumed by collecting the
 * request rather than paying for it again. A lone machine keeps them in its cache file; render
 * workers keep them in Redis, where the worker that takes a unit over finds them
 * (farm/shared-pending-requests.ts). A ticket holds the request's URLs, never a key.
 */
export interface PendingRequests {
  /** The ticket of a request submitted for this call key and not collected yet: collecting it costs nothing new. */
  get(key: string): Promise<RequestTicket | undefined>;
  /** Remembers a request as soon as the provider accepted it, before waiting for its result, so a render that stops now can collect it later. */
  record(key: string, provider: string, modelId: string, ticket: RequestTicket): Promise<void>;
  /** Drops the ticket once its result is in the cache (or the request failed, was cancelled or expired, so the next render submits the call afresh). */
  forget(key: string): Promise<void>;
}

/** The pending requests of one machine: the cache file's table. */
export function localPendingRequests(cache: RenderCache): PendingRequests {
  return {
    get: async (key) => cache.pendingRequest(key),
    record: async (key, provider, modelId, ticket) => cache.recordRequest(key, provider, modelId, ticket),
    forget: async (key) => cache.forgetRequest(key),
  };
}
