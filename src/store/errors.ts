import { AnnotError, InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import { LossyTimeConversionError } from '../time/errors.js';

/** An annotation names a tier the store has not registered (register tiers first, parents before children). */
export class UnknownTierError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_UNKNOWN_TIER';
}

/** An annotation id that is already in the store. */
export class DuplicateAnnotationIdError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_DUPLICATE_ID';
}

/** update/setAt of something the store does not hold, or a setAt value that does not sit at its key. */
export class AnnotationNotFoundError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_ANNOTATION_NOT_FOUND';
}

/** A tier looked up by name that the store has not registered. */
export class TierNotFoundError extends NotFoundError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_TIER_NOT_FOUND';
}

/** A mapping-facade write whose annotations do not sit at the key they are written under. */
export class KeyMismatchError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_KEY_MISMATCH';
}

/**
 * A paged read resumed from a position that is not one of its own: the position of another query
 * (other window, relation or tier) or one that cannot be read (an old or damaged cursor).
 */
export class InvalidCursorError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_CURSOR';

  constructor(
    message: string,
    /** The request parameter that held the cursor (`after`), when a surface named it. */
    readonly parameter?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A file or database that is not an annot store, or whose schema version this build cannot open. */
export class StoreFormatError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_STORE_FORMAT';
}

/** A tier that still has child tiers or annotations and so cannot be removed. */
export class TierInUseError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_TIER_IN_USE';
}

/**
 * An annotation refused because it would overlap another one in a tier registered with
 * `enforceNoOverlap` (PostgreSQL enforces it with a per-tier exclusion constraint). Touching
 * intervals do not overlap; a point overlaps the intervals that hold it.
 */
export class TierOverlapError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_TIER_OVERLAP';

  constructor(
    /** The tier whose annotations may not overlap. */
    readonly tier: string,
    /** The annotation being written (or, when the rule is being turned on, one of the two already stored). */
    readonly id: string | null,
    /** The annotation it overlaps. */
    readonly otherId: string | null,
    options?: { cause?: unknown; enabling?: boolean },
  ) {
    super(
      options?.enabling
        ? `cannot forbid overlaps in tier "${tier}": annotations ${id ?? '(unknown)'} and ${otherId ?? '(unknown)'} already overlap there; ` +
            'move or shorten one of them first'
        : `annotation ${id ?? '(unknown)'} overlaps annotation ${otherId ?? '(unknown)'} in tier "${tier}", which forbids overlaps; ` +
            'move or shorten one of them (touching is allowed), or add the tier again without enforceNoOverlap',
      options,
    );
  }
}

/** A project reopened with a time rate other than the one it was created with (the rate is fixed at creation). */
export class ProjectRateMismatchError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_PROJECT_RATE_MISMATCH';
}

/**
 * A time that the PostgreSQL store cannot hold exactly at its project's rate (every interval is
 * normalised to that one rate for its range index). It is refused, never rounded; the code stays
 * ANNOT_LOSSY_TIME, as for every lossy conversion.
 */
export class ProjectRateLossError extends LossyTimeConversionError {
  constructor(
    /** The time that does not fit, in exact seconds. */
    readonly time: string,
    /** The project's rate, in ticks a second. */
    readonly rate: number,
    /** The project whose rate it is. */
    readonly project: string,
  ) {
    super(
      `time ${time} s is not a whole number of ticks at rate ${rate}, the rate of project "${project}"; ` +
        'snap it to that rate first, or keep this data in a project created with a rate that can hold it',
    );
  }
}

/**
 * The PostgreSQL server named by a store URL cannot be reached: nothing listens at host:port, the
 * host name does not resolve, no answer came within the connect timeout, or the connection was
 * lost. The message names the address, never the URL's credentials.
 */
export class StoreUnreachableError extends AnnotError {
  readonly code = 'ANNOT_STORE_UNREACHABLE';
}

/** The database a store URL names does not exist on its server. */
export class StoreDatabaseNotFoundError extends AnnotError {
  readonly code = 'ANNOT_STORE_DATABASE_NOT_FOUND';
}

/** The role a store URL logs in as does not exist on its server. */
export class StoreRoleNotFoundError extends AnnotError {
  readonly code = 'ANNOT_STORE_ROLE_NOT_FOUND';
}

/** The server refused the store URL's credentials: a wrong password, or none where one is asked for. */
export class StoreAuthenticationError extends AnnotError {
  readonly code = 'ANNOT_STORE_AUTH_FAILED';
}

/** The role may log in but not do what annot needs there (create its schema, read or write its tables). */
export class StorePermissionError extends AnnotError {
  readonly code = 'ANNOT_STORE_PERMISSION_DENIED';
}

/**
 * A project that a read names and the database does not hold. Reading never creates a project;
 * the message lists the nearest existing name when one is a likely typo.
 */
export class ProjectNotFoundError extends NotFoundError {
  override readonly code = 'ANNOT_PROJECT_NOT_FOUND';
}
