import { AnnotError } from '../errors/annot-error.js';

/** A time that cannot be represented exactly at the requested rate. We never round silently. */
export class LossyTimeConversionError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_LOSSY_TIME';
}

/** A time or interval whose wire form or value is malformed (fractional ticks, `r <= 0`, `end < start`...). */
export class InvalidTimeError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_INVALID_TIME';
}

/** A relation name that is not one of Allen's thirteen (the message lists the valid names). */
export class UnknownAllenRelationError extends AnnotError {
  readonly code = 'ANNOT_UNKNOWN_RELATION';
}
