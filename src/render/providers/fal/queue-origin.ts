import { InvalidInputError } from '../../../errors/annot-error.js';
import type { RequestTicket } from '../provider.js';
import { FalForeignUrlError, FalServerError } from './errors.js';

/** The URLs of a submitted request that annot calls with the key. */
export const TICKET_URLS = ['status_url', 'response_url', 'cancel_url'] as const;

/**
 * The one origin the fal key is sent to: the queue's (FAL_QUEUE_URL, or fal's own). A submit
 * reply names where the request's status, result and cancellation are; a URL on any other origin
 * is refused before anything is sent to it, so a compromised or misconfigured queue cannot
 * collect the key. (undici's request follows no redirect, so a reply cannot send it on either.)
 */
export class QueueOrigin {
  readonly origin: string;

  constructor(baseUrl: string) {
    try {
      this.origin = new URL(baseUrl).origin;
    } catch {
      throw new InvalidInputError(`the fal queue URL "${baseUrl}" (FAL_QUEUE_URL, else fal's own) is not a URL; expected e.g. https://queue.fal.run`);
    }
  }

  /** The Authorization header for a call to `url`, which must be on the queue's origin. */
  authorization(url: string, key: string, modelId: string, field: string): { authorization: string } {
    this.check(url, modelId, field);
    return { authorization: `Key ${key}` };
  }

  /** Refuses a ticket with a URL on another origin (one recorded before this check, too). */
  checkTicket(ticket: RequestTicket, modelId: string): void {
    for (const field of TICKET_URLS) if (ticket[field] !== undefined) this.check(ticket[field], modelId, field);
  }

  private check(url: string, modelId: string, field: string): void {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new FalServerError(modelId, undefined, `the queue named a ${field} that is not a URL`);
    }
    if (origin !== this.origin) throw new FalForeignUrlError(modelId, field, origin, this.origin);
  }
}
