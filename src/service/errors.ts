import { AnnotError } from '../errors/annot-error.js';

/** A conditional write sent without `If-Match`: annot refuses blind overwrites of annotations. */
export class PreconditionRequiredError extends AnnotError {
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
