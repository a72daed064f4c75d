import { AnnotError } from '../../../errors/annot-error.js';

/*
 * What the fal provider throws. Each says what to do next. fal's own words (`detail`) are quoted,
 * after the provider has taken every credential out of them (see redaction.ts): a message never
 * contains the API key.
 */

/** Common shape of everything the fal provider throws. */
export abstract class FalError extends AnnotError {
  constructor(
    message: string,
    /** The model the call was to. */
    readonly modelId: string,
    /** The HTTP status fal answered with, when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 401/403, or no key at all. */
export class FalUnauthorized extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_UNAUTHORIZED';

  constructor(modelId: string, status: number | undefined, detail: string) {
    super(
      `fal refused the credentials for ${modelId}${status ? ` (HTTP ${status})` : ''}: ${detail}. ` +
        'Set the FAL_KEY environment variable to a valid fal API key (keys are made at https://fal.ai/dashboard/keys).',
      modelId,
      status,
    );
  }
}

/** 429 after every retry was used. */
export class FalRateLimited extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_RATE_LIMITED';

  constructor(
    modelId: string,
    /** Seconds fal asked to wait (its Retry-After), or null when it named none. */
    readonly retryAfterS: number | null,
    detail: string,
  ) {
    super(
      `fal rate-limited the calls to ${modelId} (HTTP 429) and the retries ran out: ${detail}. ` +
        'Lower --concurrency or wait a moment, then run again (finished units are cached).',
      modelId,
      429,
    );
  }
}

/** A 4xx other than 401/403/429, or a request that fal reports failed for its input. */
export class FalBadRequest extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_BAD_REQUEST';

  constructor(
    modelId: string,
    status: number | undefined,
    /** fal's own account of what was wrong with the request (its JSON answer, keys taken out). */
    readonly detail: unknown,
  ) {
    super(
      `fal rejected the request to ${modelId}${status ? ` (HTTP ${status})` : ''}: ${describeDetail(detail)}. ` +
        'Check the arguments for this model (or pick another model); retrying the same input will fail again.',
      modelId,
      status,
    );
  }
}

/** 5xx after every retry, a failed runner, or a response that is not what the protocol says. */
export class FalServerError extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_SERVER_ERROR';

  constructor(modelId: string, status: number | undefined, detail: string, options?: { cause?: unknown }) {
    super(
      `fal failed to run ${modelId}${status ? ` (HTTP ${status})` : ''}: ${detail}. ` +
        'This is on fal\'s side or the network; run again later (finished units are cached).',
      modelId,
      status,
      options,
    );
  }
}

/** The per-call time limit passed; the request was cancelled. */
export class FalTimeout extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_TIMEOUT';

  constructor(
    modelId: string,
    /** How long the request ran before it was given up, in milliseconds. */
    readonly elapsedMs: number,
  ) {
    super(
      `the call to ${modelId} did not finish within ${(elapsedMs / 1000).toFixed(1)} s and was cancelled. ` +
        'The model may be overloaded or hung: run again, raise the timeout, or choose another model.',
      modelId,
    );
  }
}

/** Turns fal's `detail` (a string, or a list of {loc, msg, type}) into one readable line. */
export function describeDetail(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => {
      if (d && typeof d === 'object') {
        const item = d as { loc?: unknown; msg?: unknown; type?: unknown };
        const loc = Array.isArray(item.loc) ? item.loc.filter((x) => x !== 'body').join('.') : '';
        const msg = typeof item.msg === 'string' ? item.msg : JSON.stringify(d);
        return `${loc ? `${loc}: ` : ''}${msg}${typeof item.type === 'string' ? ` [${item.type}]` : ''}`;
      }
      return String(d);
    });
    return parts.join('; ') || 'no detail given';
  }
  if (detail === undefined || detail === null) return 'no detail given';
  return JSON.stringify(detail);
}

/**
 * A queue reply that names a status, response or cancel URL on another origin than the queue's.
 * The key goes to the queue's origin only, so the call is refused before anything is sent there.
 */
export class FalForeignUrlError extends FalError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FAL_FOREIGN_URL';

  constructor(
    modelId: string,
    /** The field of fal's answer that held the URL. */
    readonly field: string,
    /** The origin the URL pointed to. */
    readonly origin: string,
    /** The queue's own origin, the only one the key may be sent to. */
    readonly queueOrigin: string,
  ) {
    super(
      `fal's queue answered the request to ${modelId} with a ${field} on ${origin}, not on the queue's origin ${queueOrigin}; ` +
        'annot sends the fal key to the queue only, so the call was refused. Check FAL_QUEUE_URL, or report the reply to fal.',
      modelId,
    );
  }
}
