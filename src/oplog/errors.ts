import { AnnotError } from '../errors/annot-error.js';

/** A conditional write whose `If-Match` no longer matches: someone changed the annotation since it was read. */
export class PreconditionFailedError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_PRECONDITION_FAILED';

  constructor(
    /** The annotation's id. */
    readonly id: string,
    /** The annotation's current ETag. */
    readonly currentEtag: string,
    /** The ETag the request's If-Match named. */
    readonly requested: string,
  ) {
    super(`annotation ${id} changed since it was read: its ETag is ${currentEtag}, If-Match asked for ${requested}; read it again and retry`);
  }
}

/** A clock beyond the end of the log (state-at of the future). */
export class ClockOutOfRangeError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_CLOCK_OUT_OF_RANGE';
}
