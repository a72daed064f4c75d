import { InvalidTierError } from './errors.js';
import { copyJsonValue, type JsonValue } from '../json/json-body.js';
import { checkTierName } from './limits.js';

/**
 * ELAN's tier stereotypes: how a tier's annotations relate to its parent tier's.
 *
 * - NONE: an independent tier, no constraint, no parent.
 * - TIME_SUBDIVISION: the children of each parent annotation tile it: no gap, no overlap,
 *   from its start to its end.
 * - INCLUDED_IN: each child lies inside one parent annotation; gaps allowed, overlaps not.
 * - SYMBOLIC_SUBDIVISION: children refer to a parent annotation (AnnotationRef), any number each,
 *   in order; they have no time of their own.
 * - SYMBOLIC_ASSOCIATION: like SYMBOLIC_SUBDIVISION with at most one child per parent annotation
 *   (a translation, a gloss).
 */
export const TierStereotype = {
  /** A top-level tier: its annotations stand on their own. */
  NONE: 'NONE',
  /** Its annotations tile their parent annotation's time without gaps. */
  TIME_SUBDIVISION: 'TIME_SUBDIVISION',
  /** Its annotations lie inside a parent annotation's time, gaps allowed. */
  INCLUDED_IN: 'INCLUDED_IN',
  /** Its annotations divide a parent annotation in order, without times of their own. */
  SYMBOLIC_SUBDIVISION: 'SYMBOLIC_SUBDIVISION',
  /** Its annotations each associate with one parent annotation, without a time of their own. */
  SYMBOLIC_ASSOCIATION: 'SYMBOLIC_ASSOCIATION',
} as const;

/** How a tier's annotations relate to its parent's (ELAN's stereotypes). */
export type TierStereotype = (typeof TierStereotype)[keyof typeof TierStereotype];

/** Every stereotype. */
export const TIER_STEREOTYPES: readonly TierStereotype[] = Object.freeze(Object.values(TierStereotype));

/** A frozen tier record. `parent` is null for NONE and set for every other stereotype. */
export interface Tier {
  /** The tier's name, unique in its store. */
  readonly name: string;
  /** How its annotations relate to its parent's. */
  readonly stereotype: TierStereotype;
  /** The name of its parent tier; null for NONE. */
  readonly parent: string | null;
  /** Free metadata carried by formats that have it (ELAN participant, annotator, language...). */
  readonly metadata: Readonly<Record<string, JsonValue>>;
}

/** What makeTier takes: a name, the rest defaulted. */
export interface TierInit {
  /** The tier's name. */
  readonly name: string;
  /** How its annotations relate to its parent's; default NONE. */
  readonly stereotype?: TierStereotype;
  /** The name of its parent tier; required for every stereotype but NONE. */
  readonly parent?: string | null;
  /** Free metadata; copied as JSON. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Builds a tier, checking its name, stereotype, parent and metadata (InvalidTierError); the result is frozen. */
export function makeTier(init: TierInit): Tier {
  if (typeof init !== 'object' || init === null) throw new InvalidTierError('tier', 'expected an object {name, stereotype?, parent?, metadata?}');
  const { name, stereotype = 'NONE', parent = null, metadata = {} } = init;
  if (typeof name !== 'string' || name.length === 0) throw new InvalidTierError('name', 'expected a non-empty tier name');
  checkTierName(name, 'name');
  if (!TIER_STEREOTYPES.includes(stereotype)) {
    throw new InvalidTierError('stereotype', `expected one of ${TIER_STEREOTYPES.join(', ')}, got ${JSON.stringify(stereotype)}`);
  }
  if (parent !== null && (typeof parent !== 'string' || parent.length === 0)) {
    throw new InvalidTierError('parent', 'expected a non-empty tier name or null');
  }
  if (parent !== null) checkTierName(parent, 'parent');
  if (stereotype !== 'NONE' && parent === null) {
    throw new InvalidTierError('parent', `stereotype ${stereotype} constrains a tier by its parent tier, so it needs one; name it in parent`);
  }
  if (stereotype === 'NONE' && parent !== null) {
    throw new InvalidTierError('parent', `a NONE tier is independent and cannot have a parent (got ${JSON.stringify(parent)}); pick the stereotype that says how it depends on ${JSON.stringify(parent)}`);
  }
  if (parent === name) throw new InvalidTierError('parent', `tier ${JSON.stringify(name)} cannot be its own parent`);
  const copied = copyJsonValue(metadata, 'metadata');
  if (typeof copied !== 'object' || copied === null || Array.isArray(copied)) {
    throw new InvalidTierError('metadata', 'expected an object of JSON values');
  }
  return Object.freeze({ name, stereotype, parent, metadata: copied as Readonly<Record<string, JsonValue>> });
}
