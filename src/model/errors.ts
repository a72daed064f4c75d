import { InvalidInputError } from '../errors/annot-error.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** An annotation (or one of its parts) built with a value it cannot hold. */
export class InvalidAnnotationError extends InvalidInputError {
  override readonly code = 'ANNOT_INVALID_ANNOTATION';

  constructor(readonly path: string, readonly reason: string) {
    super(`${path}: ${reason}`);
  }
}

/** A tier built with a name, stereotype, parent or metadata it cannot hold. */
export class InvalidTierError extends InvalidInputError {
  override readonly code = 'ANNOT_INVALID_TIER';

  constructor(readonly path: string, readonly reason: string) {
    super(`${path}: ${reason}`);
  }
}

/** A wire (JSON) annotation or tier that is malformed. `issues` lists every problem found, each with its field path. */
export class WireFormatError extends InvalidInputError {
  override readonly code = 'ANNOT_INVALID_WIRE';

  constructor(readonly what: 'annotation' | 'tier' | 'patch', readonly issues: readonly ValidationIssue[]) {
    super(`invalid ${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}
