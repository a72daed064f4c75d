import { intersects, relate } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';
import type { Annotation, MediaRef } from './annotation.js';
import type { Tier } from './tier.js';

/** What a TierViolation is about. */
export type TierViolationCode =
  /** A stereotype other than NONE was validated without its parent tier. */
  | 'parent_tier_missing'
  /** The parent tier passed is not the one the tier declares. */
  | 'parent_tier_mismatch'
  /** An annotation passed as the tier's does not name the tier. */
  | 'wrong_tier'
  /** A time-aligned stereotype got an AnnotationRef child, or a symbolic one a MediaRef child. */
  | 'wrong_reference_kind'
  /** The child lies in no annotation of the parent tier (on its asset). */
  | 'outside_parent'
  /** Two children overlap where the stereotype forbids it. */
  | 'overlap'
  /** Children of a TIME_SUBDIVISION parent leave part of it uncovered. */
  | 'gap'
  /** A TIME_SUBDIVISION child is a point, which cannot tile anything. */
  | 'point_in_subdivision'
  /** A symbolic child refers to an annotation that is not on the parent tier. */
  | 'unknown_target'
  /** A second SYMBOLIC_ASSOCIATION child for one parent annotation. */
  | 'duplicate_association';

/** One violation: which annotation, what is wrong, and the intervals involved. */
export interface TierViolation {
  /** The tier the violation is on. */
  readonly tier: string;
  /** What is wrong, as a stable code. */
  readonly code: TierViolationCode;
  /** The offending annotation, or null for tier-level problems. */
  readonly annotation_id: string | null;
  /** Other annotations involved: the parent, the overlapping or neighbouring child, the first association. */
  readonly related_ids: readonly string[];
  /** The intervals involved, for messages and displays. */
  readonly intervals: readonly TimeInterval[];
  /** What is wrong, in a sentence. */
  readonly message: string;
}

type Timed = Annotation & { readonly reference: MediaRef };

/**
 * Checks a tier's annotations against its stereotype and reports every violation (not just the
 * first), in a stable order: tier-level problems, then per-annotation ones in input order, then
 * the tiling or overlap findings. Interval tests go through Allen's relations. Parent annotations
 * without an interval are ignored by the time-aligned stereotypes; annotations on different assets
 * never constrain each other.
 */
export function validateTierConstraint(
  tier: Tier,
  annotations: readonly Annotation[],
  parentTier?: Tier | null,
  parentAnnotations: readonly Annotation[] = [],
): TierViolation[] {
  const out: TierViolation[] = [];
  const report = (code: TierViolationCode, annotationId: string | null, message: string, intervals: TimeInterval[] = [], related: string[] = []): void => {
    out.push({ tier: tier.name, code, annotation_id: annotationId, related_ids: related, intervals, message: `tier "${tier.name}": ${message}` });
  };

  for (const annotation of annotations) {
    if (annotation.tier !== tier.name) {
      report('wrong_tier', annotation.id, `annotation ${annotation.id} belongs to tier "${annotation.tier}", not to this one`);
    }
  }
  if (tier.stereotype === 'NONE') return out;
  if (parentTier === undefined || parentTier === null) {
    report('parent_tier_missing', null, `stereotype ${tier.stereotype} needs its parent tier "${tier.parent}" to be checked, and none was given`);
    return out;
  }
  if (parentTier.name !== tier.parent) {
    report('parent_tier_mismatch', null, `declares parent "${tier.parent}" but was checked against "${parentTier.name}"`);
  }

  switch (tier.stereotype) {
    case 'TIME_SUBDIVISION':
    case 'INCLUDED_IN':
      checkTimeAligned(tier, annotations, parentTier, parentAnnotations, report);
      break;
    case 'SYMBOLIC_SUBDIVISION':
    case 'SYMBOLIC_ASSOCIATION':
      checkSymbolic(tier, annotations, parentTier, parentAnnotations, report);
      break;
  }
  return out;
}

type Report = (code: TierViolationCode, annotationId: string | null, message: string, intervals?: TimeInterval[], related?: string[]) => void;

function checkTimeAligned(tier: Tier, annotations: readonly Annotation[], parentTier: Tier, parentAnnotations: readonly Annotation[], report: Report): void {
  const parents = new ParentIndex(parentAnnotations.filter(isTimed));
  const subdivision = tier.stereotype === 'TIME_SUBDIVISION';
  const childrenOf = new Map<Timed, Timed[]>();
  const placed: Timed[] = [];

  for (const child of annotations) {
    if (!isTimed(child)) {
      report('wrong_reference_kind', child.id, `annotation ${child.id} refers to another annotation, but ${tier.stereotype} children are time-aligned media references`);
      continue;
    }
    const interval = child.reference.interval;
    if (subdivision && interval.isPoint) {
      report('point_in_subdivision', child.id, `annotation ${child.id} is a point at ${interval.start.toSecondsString()} s on "${child.reference.asset_id}"; TIME_SUBDIVISION children must have a duration`, [interval]);
      continue;
    }
    const containing = parents.containing(child);
    if (containing.length === 0) {
      report('outside_parent', child.id, `annotation ${child.id} ${show(child)} is not inside any annotation of parent tier "${parentTier.name}"`, [interval]);
      continue;
    }
    placed.push(child);
    if (subdivision) for (const parent of containing) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), child]);
  }

  if (subdivision) {
    for (const parent of parents.all) checkTiling(parent, sortByStart(childrenOf.get(parent) ?? []), report);
  } else {
    checkNoOverlaps(placed, report);
  }
}

/** The children of one parent must cover it from start to end with no gap and no overlap. */
function checkTiling(parent: Timed, children: Timed[], report: Report): void {
  const whole = parent.reference.interval;
  // A parent not yet subdivided is normal (ELAN creates the first child spanning the parent);
  // once it has children, they must tile it.
  if (children.length === 0) return;
  const first = children[0];
  const startRelation = relate(first.reference.interval, whole);
  if (startRelation !== 'starts' && startRelation !== 'equals') {
    report('gap', first.id, `gap from ${whole.start.toSecondsString()} s to ${first.reference.interval.start.toSecondsString()} s at the start of parent annotation ${parent.id} ${show(parent)}; its first child ${first.id} starts late`, [whole, first.reference.interval], [parent.id]);
  }
  // `reach` is the child reaching furthest so far; each next child must start exactly where it ends.
  let reach = first;
  for (const child of children.slice(1)) {
    const relation = relate(reach.reference.interval, child.reference.interval);
    if (relation === 'before') {
      report('gap', child.id, `gap from ${reach.reference.interval.end.toSecondsString()} s to ${child.reference.interval.start.toSecondsString()} s between ${reach.id} and ${child.id} inside parent annotation ${parent.id}`, [reach.reference.interval, child.reference.interval], [reach.id, parent.id]);
    } else if (relation !== 'meets' && intersects(reach.reference.interval, child.reference.interval)) {
      report('overlap', child.id, `annotation ${child.id} ${show(child)} overlaps ${reach.id} ${show(reach)} (${relation}) inside parent annotation ${parent.id}`, [reach.reference.interval, child.reference.interval], [reach.id, parent.id]);
    }
    if (child.reference.interval.end.gt(reach.reference.interval.end)) reach = child;
  }
  const endRelation = relate(reach.reference.interval, whole);
  if (endRelation !== 'finishes' && endRelation !== 'equals') {
    report('gap', reach.id, `gap from ${reach.reference.interval.end.toSecondsString()} s to ${whole.end.toSecondsString()} s at the end of parent annotation ${parent.id} ${show(parent)}; its last child ${reach.id} ends early`, [whole, reach.reference.interval], [parent.id]);
  }
}

/** Every intersecting pair of children on one asset, found by a sweep over start times. */
function checkNoOverlaps(children: Timed[], report: Report): void {
  for (const group of groupByAsset(children).values()) {
    let active: Timed[] = [];
    for (const child of sortByStart(group)) {
      const interval = child.reference.interval;
      // Only children ending before this start can be dropped: no later child can reach them.
      active = active.filter((other) => !other.reference.interval.end.lt(interval.start));
      for (const other of active) {
        if (intersects(other.reference.interval, interval)) {
          report('overlap', child.id, `annotation ${child.id} ${show(child)} overlaps ${other.id} ${show(other)} (${relate(child.reference.interval, other.reference.interval)}); INCLUDED_IN children may not overlap`, [other.reference.interval, interval], [other.id]);
        }
      }
      active.push(child);
    }
  }
}

function checkSymbolic(tier: Tier, annotations: readonly Annotation[], parentTier: Tier, parentAnnotations: readonly Annotation[], report: Report): void {
  const parentsById = new Map(parentAnnotations.map((parent) => [parent.id, parent]));
  const firstChild = new Map<string, string>();
  for (const child of annotations) {
    if (child.reference.kind !== 'annotation') {
      report('wrong_reference_kind', child.id, `annotation ${child.id} ${show(child as Timed)} is time-aligned, but ${tier.stereotype} children refer to a parent annotation (AnnotationRef)`, [child.reference.interval]);
      continue;
    }
    const targetId = child.reference.target_id;
    const parent = parentsById.get(targetId);
    if (parent === undefined) {
      report('unknown_target', child.id, `annotation ${child.id} refers to ${targetId}, which is not an annotation of parent tier "${parentTier.name}"`);
      continue;
    }
    const intervals = isTimed(parent) ? [parent.reference.interval] : [];
    const earlier = firstChild.get(targetId);
    if (tier.stereotype === 'SYMBOLIC_ASSOCIATION' && earlier !== undefined) {
      report('duplicate_association', child.id, `annotation ${child.id} is a second association of parent annotation ${targetId} (the first is ${earlier}); SYMBOLIC_ASSOCIATION allows one per parent`, intervals, [earlier, targetId]);
      continue;
    }
    if (earlier === undefined) firstChild.set(targetId, child.id);
  }
}

/** Parents per asset sorted by start, with the running maximum end so a lookup can stop early. */
class ParentIndex {
  readonly all: Timed[];
  private readonly byAsset = new Map<string, { sorted: Timed[]; maxEnd: TimeInterval['end'][] }>();

  constructor(parents: Timed[]) {
    this.all = parents;
    for (const [asset, group] of groupByAsset(parents)) {
      const sorted = sortByStart(group);
      const maxEnd: TimeInterval['end'][] = [];
      sorted.forEach((parent, index) => {
        const end = parent.reference.interval.end;
        maxEnd.push(index === 0 || end.gt(maxEnd[index - 1]) ? end : maxEnd[index - 1]);
      });
      this.byAsset.set(asset, { sorted, maxEnd });
    }
  }

  /** Parents (same asset) whose interval holds the child's. */
  containing(child: Timed): Timed[] {
    const entry = this.byAsset.get(child.reference.asset_id);
    if (entry === undefined) return [];
    const interval = child.reference.interval;
    // Last parent starting at or before the child; parents after it start too late to hold it.
    let lo = 0;
    let hi = entry.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entry.sorted[mid].reference.interval.start.le(interval.start)) lo = mid + 1;
      else hi = mid;
    }
    const found: Timed[] = [];
    for (let index = lo - 1; index >= 0 && !entry.maxEnd[index].lt(interval.end); index--) {
      const parent = entry.sorted[index];
      if (holdsInterval(parent.reference.interval, interval)) found.push(parent);
    }
    return found.reverse();
  }
}

/** The parent holds the child: a proper child starts, lies during, finishes or equals it; a point lies in it (half-open). */
function holdsInterval(parent: TimeInterval, child: TimeInterval): boolean {
  if (child.isPoint) return intersects(child, parent);
  const relation = relate(child, parent);
  return relation === 'starts' || relation === 'during' || relation === 'finishes' || relation === 'equals';
}

function isTimed(annotation: Annotation): annotation is Timed {
  return annotation.reference.kind === 'media';
}

function groupByAsset(annotations: Timed[]): Map<string, Timed[]> {
  const groups = new Map<string, Timed[]>();
  for (const annotation of annotations) {
    const group = groups.get(annotation.reference.asset_id);
    if (group === undefined) groups.set(annotation.reference.asset_id, [annotation]);
    else group.push(annotation);
  }
  return groups;
}

function sortByStart(annotations: Timed[]): Timed[] {
  return [...annotations].sort(
    (a, b) => a.reference.interval.start.compare(b.reference.interval.start) || a.reference.interval.end.compare(b.reference.interval.end),
  );
}

function show(annotation: Timed): string {
  return `${annotation.reference.interval.toString()} on "${annotation.reference.asset_id}"`;
}
