import { AnnotError } from '../errors/annot-error.js';

/** A conditional write sent without `If-Match`: annot refuses blind overwrites of annotations. */
export class PreconditionRequiredError extends AnnotError {
  readonly code = 'ANNOT_PRECONDITION_REQUIRED';
}
