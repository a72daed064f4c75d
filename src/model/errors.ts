import { InvalidInputError } from '../errors/annot-error.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** An annotation (or one of its parts) built with a value it cannot hold. */
export class InvalidAnnotationError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_ANNOTATION';

  constructor(
    /** The field path of the problem (`tier`, `body.text`, `reference.interval`). */
    readonly path: string,
    /** What was wrong, and what was expected. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** A tier built with a name, stereotype, parent or metadata it cannot hold. */
export class InvalidTierError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_TIER';

  constructor(
    /** The field path of the problem (`name`, `parent`, `stereotype`). */
    readonly path: string,
    /** What was wrong, and what was expected. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** A wire (JSON) annotation or tier that is malformed. `issues` lists every problem found, each with its field path. */
export class WireFormatError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_WIRE';

  constructor(
    /** The kind of wire value that was malformed. */
    readonly what: 'annotation' | 'tier' | 'patch',
    /** Every problem found, each with its field path. */
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}
