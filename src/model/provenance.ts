import { RationalTime, UNKNOWN_GENERATED_AT, isUnknownGeneratedAt } from '../time/rational-time.js';
import { InvalidAnnotationError } from './errors.js';
import { LIMITS, tooLong } from './limits.js';

export { UNKNOWN_GENERATED_AT, isUnknownGeneratedAt };

/**
 * Where an annotation came from: the PROV-O subset annot keeps inline on every annotation.
 *
 * - `was_generated_by`: the activity or agent that produced it, by convention `user:<handle>`,
 *   `agent:<model>`, `adapter:<format>`, `processor:<name>`, `server:annot`.
 * - `was_attributed_to`: who answers for it (the reviewer of a review, the user of an edit).
 * - `was_derived_from`: ids it was derived from: annotation UUIDs or asset ids (`sha256:...`).
 *   Always a list, empty when derived from nothing: one spelling for "nothing", so it never
 *   splits into `null` vs `[]` in stores and digests.
 * - `generated_at_time`: wall-clock time of generation; tick 0 (UNKNOWN_GENERATED_AT, any rate)
 *   means unknown, not the epoch.
 */
export interface Provenance {
  /** The agent that made the annotation (`user:<name>`, `model:<id>`, `processor:<name>`). */
  readonly was_generated_by: string;
  /** The agent responsible for it. */
  readonly was_attributed_to: string;
  /** The ids of the annotations it was derived from. */
  readonly was_derived_from: readonly string[];
  /** When it was made; UNKNOWN_GENERATED_AT when that is not known. */
  readonly generated_at_time: RationalTime;
}

/** What makeProvenance takes: the agent and the time, the rest defaulted. */
export interface ProvenanceInit {
  /** The agent that made the annotation. */
  readonly was_generated_by: string;
  /** Defaults to `was_generated_by`. */
  readonly was_attributed_to?: string;
  /** The ids of the annotations it was derived from; default none. */
  readonly was_derived_from?: readonly string[];
  /** Required: pass RationalTime.now(1000) for "now" or UNKNOWN_GENERATED_AT when it is not known. */
  readonly generated_at_time: RationalTime;
}

/** Builds a provenance record, checking every field (InvalidAnnotationError names it); the result is frozen. */
export function makeProvenance(init: ProvenanceInit, path = 'provenance'): Provenance {
  if (typeof init !== 'object' || init === null) throw new InvalidAnnotationError(path, 'expected a provenance object');
  const generatedBy = nonEmpty(init.was_generated_by, `${path}.was_generated_by`);
  const attributedTo = init.was_attributed_to === undefined ? generatedBy : nonEmpty(init.was_attributed_to, `${path}.was_attributed_to`);
  const derivedFrom = init.was_derived_from ?? [];
  if (!Array.isArray(derivedFrom)) throw new InvalidAnnotationError(`${path}.was_derived_from`, 'expected a list of ids');
  const ids = derivedFrom.map((id, index) => nonEmpty(id, `${path}.was_derived_from[${index}]`));
  if (!(init.generated_at_time instanceof RationalTime)) {
    throw new InvalidAnnotationError(`${path}.generated_at_time`, 'expected a RationalTime (RationalTime.now(1000), or UNKNOWN_GENERATED_AT)');
  }
  return Object.freeze({
    was_generated_by: generatedBy,
    was_attributed_to: attributedTo,
    was_derived_from: Object.freeze(ids),
    generated_at_time: init.generated_at_time,
  });
}

/** False when the generation time is the UNKNOWN_GENERATED_AT sentinel (tick 0 at any rate). */
export function generatedAtIsKnown(provenance: Provenance): boolean {
  return !isUnknownGeneratedAt(provenance.generated_at_time);
}

function nonEmpty(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new InvalidAnnotationError(path, 'expected a non-empty string');
  const reason = tooLong(value, LIMITS.idChars);
  if (reason !== null) throw new InvalidAnnotationError(path, reason);
  return value;
}
