import { AnnotError } from '../errors/annot-error.js';
import type { TierViolation } from '../model/tier-constraint.js';

/** A conditional write sent without `If-Match`: annot refuses blind overwrites of annotations. */
export class PreconditionRequiredError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_PRECONDITION_REQUIRED';
}

/** `--strict` and the reader reported findings: the conversion is refused and nothing is written. */
export class StrictConversionError extends AnnotError {
  readonly code = 'ANNOT_STRICT_FINDINGS';
}

/** `annot serve FILE` could not write the edits back to FILE in its format (they are still in memory). */
export class SaveFailedError extends AnnotError {
  readonly code = 'ANNOT_SAVE_FAILED';
}

/**
 * An annotation edit (create, update, delete) that would break a constraint of a tier's
 * stereotype: a child outside its parent, overlapping INCLUDED_IN children, a TIME_SUBDIVISION
 * gap, a symbolic child left without its parent. Nothing is changed. `violations` are the
 * violations the edit would add, as `annot validate` reports them.
 */
export class TierConstraintError extends AnnotError {
  readonly code = 'ANNOT_TIER_CONSTRAINT';

  constructor(message: string, readonly violations: readonly TierViolation[]) {
    super(message);
  }
}

/**
 * `annot serve FILE`: FILE changed on disk (another program wrote it) since annot serve loaded or
 * last saved it, so the edits are not saved over it. They stay in memory; at shutdown they are
 * written to a new file beside it instead.
 */
export class FileChangedOnDiskError extends AnnotError {
  readonly code = 'ANNOT_FILE_CHANGED_ON_DISK';
}

/** Two inputs of a batch conversion would write one output file, or an output is one of the inputs: nothing is written. */
export class ConvertOutputClashError extends AnnotError {
  readonly code = 'ANNOT_CONVERT_OUTPUT_CLASH';
}

/** Some inputs of a batch conversion failed (each was named with its error); the others were written. */
export class ConvertBatchFailedError extends AnnotError {
  readonly code = 'ANNOT_CONVERT_BATCH_FAILED';
}
