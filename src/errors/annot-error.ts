import type { ErrorCode } from './error-table.js';

/**
 * The root of every error annot throws on purpose. `code` is stable across releases so that
 * scripts, the CLI exit-code mapping and the HTTP status mapping can key on it instead of on
 * message text, which is free to improve. Every code is a key of the registry in error-table.ts,
 * which gives its HTTP and exit statuses and its meaning.
 */
export abstract class AnnotError extends Error {
  /**
   * The stable `ANNOT_*` code of this error, a key of {@link ERROR_TABLE}: it gives the HTTP status, the exit status and the meaning (docs/errors.md).
   */
  abstract readonly code: ErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Input that does not have the shape or the values the caller promised. */
export class InvalidInputError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code: ErrorCode = 'ANNOT_INVALID_INPUT';
}

/** A lookup of something (annotation, tier, schema, format, unit) that does not exist. */
export class NotFoundError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code: ErrorCode = 'ANNOT_NOT_FOUND';
}

/** A command line that cannot mean anything: flags that go only with others, a folder without --recursive. */
export class UsageError extends AnnotError {
  /** The stable code of this error (see docs/errors.md): exit status 2, as for a command line that cannot mean anything. */
  readonly code = 'ANNOT_USAGE';
}
