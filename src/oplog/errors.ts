import { AnnotError } from '../errors/annot-error.js';

/** A conditional write whose `If-Match` no longer matches: someone changed the annotation since it was read. */
export class PreconditionFailedError extends AnnotError {
  readonly code = 'ANNOT_PRECONDITION_FAILED';

  constructor(
    readonly id: string,
    readonly currentEtag: string,
    readonly requested: string,
  ) {
    super(`annotation ${id} changed since it was read: its ETag is ${currentEtag}, If-Match asked for ${requested}; read it again and retry`);
  }
}

/** A clock beyond the end of the log (state-at of the future). */
export class ClockOutOfRangeError extends AnnotError {
  readonly code = 'ANNOT_CLOCK_OUT_OF_RANGE';
}
