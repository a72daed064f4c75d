import { AnnotError } from '../errors/annot-error.js';

/** An annotation names a tier the store has not registered (register tiers first, parents before children). */
export class UnknownTierError extends AnnotError {
  readonly code = 'ANNOT_UNKNOWN_TIER';
}

/** An annotation id that is already in the store. */
export class DuplicateAnnotationIdError extends AnnotError {
  readonly code = 'ANNOT_DUPLICATE_ID';
}

/** update/setAt of something the store does not hold, or a setAt value that does not sit at its key. */
export class AnnotationNotFoundError extends AnnotError {
  readonly code = 'ANNOT_ANNOTATION_NOT_FOUND';
}

/** A mapping-facade write whose annotations do not sit at the key they are written under. */
export class KeyMismatchError extends AnnotError {
  readonly code = 'ANNOT_KEY_MISMATCH';
}

/** A file or database that is not an annot store, or whose schema version this build cannot open. */
export class StoreFormatError extends AnnotError {
  readonly code = 'ANNOT_STORE_FORMAT';
}

/** A tier that still has child tiers or annotations and so cannot be removed. */
export class TierInUseError extends AnnotError {
  readonly code = 'ANNOT_TIER_IN_USE';
}
