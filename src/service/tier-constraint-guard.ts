import type { Annotation, MediaRef } from '../model/annotation.js';
import { validateTierConstraint, type TierViolation } from '../model/tier-constraint.js';
import type { Tier, TierStereotype } from '../model/tier.js';
import { annotationsReferringTo } from '../store/referring-reads.js';
import type { AnnotationStore } from '../store/store.js';
import { TimeInterval } from '../time/time-interval.js';
import { TierConstraintError } from './errors.js';

/** One annotation edit as the guard sees it: what the store holds now and what it would hold. */
export interface AnnotationEdit {
  /** The annotation as stored now; null for a creation. */
  readonly before: Annotation | null;
  /** The annotation as it would be stored; null for a deletion. */
  readonly after: Annotation | null;
}

type Timed = Annotation & { readonly reference: MediaRef };

const TIME_ALIGNED: readonly TierStereotype[] = ['INCLUDED_IN', 'TIME_SUBDIVISION'];

/** The rule each stereotype holds its children to, as the refusal states it. */
const RULES: Readonly<Record<TierStereotype, string>> = {
  NONE: '',
  INCLUDED_IN: 'INCLUDED_IN children stay inside their parent and do not overlap each other',
  TIME_SUBDIVISION: 'TIME_SUBDIVISION children stay inside their parent and tile it, with no gap and no overlap',
  SYMBOLIC_SUBDIVISION: 'SYMBOLIC_SUBDIVISION children refer to an existing annotation of their parent tier',
  SYMBOLIC_ASSOCIATION: 'SYMBOLIC_ASSOCIATION children refer to an existing annotation of their parent tier, one child per parent annotation',
};

/**
 * Refuses (TierConstraintError) an edit that would break a tier constraint (tier-constraint.ts)
 * that holds now. Only the edit's neighbourhood is read: on each constraint the edited annotation
 * takes part in, as a child or as a parent, the parent and child annotations around its old and
 * new place, found by window queries. A symbolic child has no time: the children referring to a
 * parent are found by their target (in SQL on an .annot file, by reading the tier elsewhere), and
 * only when a symbolic link is made or broken. That neighbourhood is checked before and after the
 * edit, and only violations the edit adds are refused, so a file that already breaks a constraint
 * still loads and can be edited, and repaired one edit at a time.
 */
export async function assertKeepsTierConstraints(store: AnnotationStore, edit: AnnotationEdit): Promise<void> {
  // A new annotation under an id in use is the store's to refuse (DuplicateAnnotationIdError), not a constraint's.
  if (!edit.before && edit.after && (await store.get(edit.after.id))) return;
  await assertBatchKeepsTierConstraints(store, [edit]);
}

/**
 * assertKeepsTierConstraints for several edits applied together (each of a different annotation):
 * the neighbourhood of all of them is judged as a whole, before and after, so two neighbours moved
 * together (a shared boundary of TIME_SUBDIVISION children) are accepted where either alone breaks
 * the tiling.
 */
export async function assertBatchKeepsTierConstraints(store: AnnotationStore, all: readonly AnnotationEdit[]): Promise<void> {
  // A change of body, schema or confidence cannot break a constraint.
  const edits = all.filter(({ before, after }) => !(before && after && before.tier === after.tier && sameReference(before, after)));
  if (edits.length === 0) return;
  const tiers = new Map((await store.listTiers()).map((tier) => [tier.name, tier]));
  const edited = new Set(edits.flatMap(({ before, after }) => [before?.tier, after?.tier]).filter((name): name is string => name !== undefined));
  // Each constraint the edits take part in, named by its child tier: the edited tiers' own, and their child tiers'.
  const constrained = [...tiers.values()].filter((tier) => tier.stereotype !== 'NONE' && (edited.has(tier.name) || edited.has(tier.parent!)));
  const broken: Broken[] = [];
  for (const child of constrained) {
    const parent = tiers.get(child.parent!);
    if (parent === undefined) continue;
    const scene = TIME_ALIGNED.includes(child.stereotype) ? await timeAlignedScene(store, child, parent, edits) : await symbolicScene(store, child, parent, edits);
    if (scene === null) continue;
    const added = newViolations(
      validateTierConstraint(child, scene.children.before, parent, scene.parents.before),
      validateTierConstraint(child, scene.children.after, parent, scene.parents.after),
    );
    for (const violation of added) broken.push({ violation, child, parent, scene });
  }
  if (broken.length > 0) throw refusal(edits, broken);
}

/** A violation the edit would add, with the constraint and the annotations it was found among. */
interface Broken {
  readonly violation: TierViolation;
  readonly child: Tier;
  readonly parent: Tier;
  readonly scene: Scene;
}

/** The annotations one constraint check reads, as they are and as the edit would leave them. */
interface Scene {
  readonly children: { readonly before: Annotation[]; readonly after: Annotation[] };
  readonly parents: { readonly before: Annotation[]; readonly after: Annotation[] };
}

/**
 * An INCLUDED_IN or TIME_SUBDIVISION constraint around the edit: the parents meeting the edited
 * annotation's old and new interval, every child meeting those (so each such parent's tiling is
 * whole), and every parent meeting those children (so each child's containment is judged on all
 * parents that could hold it). Parents met only at the last step may see part of their children,
 * but identically before and after, so they add no violation.
 */
async function timeAlignedScene(store: AnnotationStore, child: Tier, parent: Tier, edits: readonly AnnotationEdit[]): Promise<Scene> {
  const anchors = edits.flatMap((edit) => [edit.before, edit.after]).filter((a): a is Timed => a !== null && isTimed(a) && (a.tier === child.name || a.tier === parent.name)).map(intervalOf);
  const parents = new Map<string, Annotation>();
  const children = new Map<string, Annotation>();
  for (const window of anchors) for (const found of await store.atTier(parent.name, window)) parents.set(found.id, found);
  for (const window of [...anchors, ...[...parents.values()].filter(isTimed).map(intervalOf)]) {
    const met = await store.atTier(child.name, window);
    for (const found of met) children.set(found.id, found);
    const reach = hull(met.filter(isTimed).map(intervalOf));
    if (reach) for (const found of await store.atTier(parent.name, reach)) parents.set(found.id, found);
  }
  return {
    children: { before: withEdits(children, child.name, edits, 'before'), after: withEdits(children, child.name, edits, 'after') },
    parents: { before: withEdits(parents, parent.name, edits, 'before'), after: withEdits(parents, parent.name, edits, 'after') },
  };
}

/**
 * A SYMBOLIC_SUBDIVISION or SYMBOLIC_ASSOCIATION constraint: a symbolic child edited (its target
 * and, for an association, the target's other children), or a parent removed from its tier (the
 * children referring to it). Null when the edit changes no symbolic link (a parent retimed).
 */
async function symbolicScene(store: AnnotationStore, child: Tier, parent: Tier, edits: readonly AnnotationEdit[]): Promise<Scene | null> {
  const asChild = edits.flatMap((edit) => [edit.before, edit.after]).filter((a): a is Annotation => a !== null && a.tier === child.name);
  const removed = edits.filter(({ before, after }) => before !== null && before.tier === parent.name && (after === null || after.tier !== parent.name)).map(({ before }) => before!);
  const parentRemoved = removed.length > 0;
  if (asChild.length === 0 && !parentRemoved) return null;
  const targets = new Set<string>(asChild.map(targetOf).filter((id): id is string => id !== null));
  for (const gone of removed) targets.add(gone.id);
  const children = new Map<string, Annotation>();
  // Only a removed parent or an association (one child per parent) needs the target's other children.
  if (parentRemoved || child.stereotype === 'SYMBOLIC_ASSOCIATION') {
    for (const found of await annotationsReferringTo(store, child.name, targets)) children.set(found.id, found);
  }
  const parents = new Map<string, Annotation>();
  for (const id of targets) {
    const found = await store.get(id);
    if (found && found.tier === parent.name) parents.set(found.id, found);
  }
  return {
    children: { before: withEdits(children, child.name, edits, 'before'), after: withEdits(children, child.name, edits, 'after') },
    parents: { before: withEdits(parents, parent.name, edits, 'before'), after: withEdits(parents, parent.name, edits, 'after') },
  };
}

/** The annotations read (the store as it is), with each edited annotation in one of its versions: absent when that version is not on `tier`. */
function withEdits(read: Map<string, Annotation>, tier: string, edits: readonly AnnotationEdit[], version: 'before' | 'after'): Annotation[] {
  const out = new Map(read);
  for (const edit of edits) out.delete((edit.before ?? edit.after)!.id);
  for (const edit of edits) {
    const chosen = edit[version];
    if (chosen && chosen.tier === tier) out.set(chosen.id, chosen);
  }
  return [...out.values()];
}

/** Violations after the edit that were not there before: same kind about the same annotations. */
function newViolations(before: TierViolation[], after: TierViolation[]): TierViolation[] {
  const known = new Set(before.map(identity));
  return after.filter((violation) => !known.has(identity(violation)));
}

function identity(violation: TierViolation): string {
  const ids = [violation.annotation_id ?? '', ...violation.related_ids].sort();
  return `${violation.code}:${ids.join(',')}`;
}

// ---- the refusal ---------------------------------------------------------------------------------

function refusal(edits: readonly AnnotationEdit[], broken: Broken[]): TierConstraintError {
  const [first, ...rest] = broken;
  // Told in the words of the edit the first violation is about (the only one, for a single edit).
  const about = new Set([first.violation.annotation_id, ...first.violation.related_ids]);
  const edit = edits.find(({ before, after }) => about.has((before ?? after)!.id)) ?? edits[0];
  const more = rest.length > 0 ? ` (and ${rest.length} more: ${rest.map(({ violation }) => violation.message).join('; ')})` : '';
  return new TierConstraintError(`${describe(edit, first.child, first.parent, first.violation, first.scene)}${more}`, broken.map(({ violation }) => violation));
}

/** The first violation in the words of the edit: who moves where, past which parent or child, and the rule. */
function describe(edit: AnnotationEdit, child: Tier, parent: Tier, violation: TierViolation, scene: Scene): string {
  const rule = RULES[child.stereotype];
  const { before, after } = edit;
  const byId = new Map([...scene.children.before, ...scene.children.after, ...scene.parents.before].map((a) => [a.id, a]));
  const subject = violation.annotation_id === null ? undefined : byId.get(violation.annotation_id);

  if (violation.code === 'outside_parent' && subject && isTimed(subject)) {
    if (after && after.id === subject.id && isTimed(after)) {
      // The edited child leaves its parent.
      const home = before && isTimed(before) ? scene.parents.before.filter(isTimed).find((p) => holds(p, before)) : undefined;
      if (home) return leaving(after, child, home, parent, rule);
      return `annotation ${after.id} on tier "${child.name}" (${intervalOf(after).toString()} s) would lie inside no annotation of its parent tier "${parent.name}": ${rule}`;
    }
    if (before && before.tier === parent.name) {
      // The edited parent leaves its child.
      if (!after || after.tier !== parent.name || !isTimed(after)) {
        return `${after ? `moving annotation ${before.id} to tier "${after.tier}"` : `deleting annotation ${before.id}`} on tier "${parent.name}" would leave its child ${subject.id} on "${child.name}" (${intervalOf(subject).toString()} s) without a parent: ${rule}; delete or move the child first`;
      }
      return shrinking(after, parent, subject, child, rule);
    }
  }
  if (violation.code === 'overlap' && child.stereotype === 'INCLUDED_IN' && after && isTimed(after)) {
    const otherId = [violation.annotation_id, ...violation.related_ids].find((id) => id !== null && id !== after.id);
    const other = otherId ? byId.get(otherId) : undefined;
    if (other && isTimed(other) && after.tier === child.name) {
      return `annotation ${after.id} on tier "${child.name}" (${intervalOf(after).toString()} s) would overlap ${other.id} (${intervalOf(other).toString()} s) on the same tier: ${rule}`;
    }
  }
  if (violation.code === 'unknown_target' && before && before.tier === parent.name && (!after || after.tier !== parent.name)) {
    return `${after ? `moving annotation ${before.id} to tier "${after.tier}"` : `deleting annotation ${before.id}`} on tier "${parent.name}" would leave ${violation.annotation_id} on "${child.name}" referring to nothing: ${rule}; delete the child first`;
  }
  const action = !before ? `adding annotation ${after!.id} to tier "${after!.tier}"` : !after ? `deleting annotation ${before.id} on tier "${before.tier}"` : `changing annotation ${after.id} on tier "${after.tier}"`;
  return `${action} would break the constraint of tier "${child.name}" on "${parent.name}": ${violation.message.replace(/^tier "[^"]*": /, '')}: ${rule}`;
}

/** The child's new interval against the parent that held it. */
function leaving(moved: Timed, tier: Tier, home: Timed, parentTier: Tier, rule: string): string {
  const at = intervalOf(moved);
  const bounds = intervalOf(home);
  const who = `annotation ${moved.id} on tier "${tier.name}"`;
  const parent = `its parent ${home.id} on "${parentTier.name}"`;
  if (moved.reference.asset_id !== home.reference.asset_id) return `${who} would move to "${moved.reference.asset_id}", away from ${parent} on "${home.reference.asset_id}": ${rule}`;
  if (at.end.gt(bounds.end)) return `${who} would end at ${at.end.toSecondsString()} s, after ${parent} (ends ${bounds.end.toSecondsString()} s): ${rule}`;
  if (at.start.lt(bounds.start)) return `${who} would start at ${at.start.toSecondsString()} s, before ${parent} (starts ${bounds.start.toSecondsString()} s): ${rule}`;
  return `${who} (${at.toString()} s) would no longer lie inside ${parent} (${bounds.toString()} s): ${rule}`;
}

/** The parent's new interval against a child it held. */
function shrinking(moved: Timed, parentTier: Tier, child: Timed, tier: Tier, rule: string): string {
  const at = intervalOf(moved);
  const inner = intervalOf(child);
  const who = `annotation ${moved.id} on tier "${parentTier.name}"`;
  const kid = `its child ${child.id} on "${tier.name}"`;
  if (moved.reference.asset_id !== child.reference.asset_id) return `${who} would move to "${moved.reference.asset_id}", away from ${kid} on "${child.reference.asset_id}": ${rule}`;
  if (at.end.lt(inner.end)) return `${who} would end at ${at.end.toSecondsString()} s, before the end of ${kid} (ends ${inner.end.toSecondsString()} s): ${rule}`;
  if (at.start.gt(inner.start)) return `${who} would start at ${at.start.toSecondsString()} s, after the start of ${kid} (starts ${inner.start.toSecondsString()} s): ${rule}`;
  return `${who} (${at.toString()} s) would no longer hold ${kid} (${inner.toString()} s): ${rule}`;
}

// ---- small helpers -------------------------------------------------------------------------------

function isTimed(annotation: Annotation): annotation is Timed {
  return annotation.reference.kind === 'media';
}

function intervalOf(annotation: Timed): TimeInterval {
  return annotation.reference.interval;
}

function targetOf(annotation: Annotation): string | null {
  return annotation.reference.kind === 'annotation' ? annotation.reference.target_id : null;
}

function holds(parent: Timed, child: Timed): boolean {
  const outer = intervalOf(parent);
  const inner = intervalOf(child);
  return parent.reference.asset_id === child.reference.asset_id && outer.start.le(inner.start) && inner.end.le(outer.end);
}

function sameReference(a: Annotation, b: Annotation): boolean {
  if (a.reference.kind === 'media' && b.reference.kind === 'media') {
    return a.reference.asset_id === b.reference.asset_id && a.reference.interval.equals(b.reference.interval);
  }
  return a.reference.kind === 'annotation' && b.reference.kind === 'annotation' && a.reference.target_id === b.reference.target_id;
}

/** The smallest interval holding all of them, or null for none. */
function hull(intervals: TimeInterval[]): TimeInterval | null {
  if (intervals.length === 0) return null;
  let start = intervals[0].start;
  let end = intervals[0].end;
  for (const interval of intervals) {
    if (interval.start.lt(start)) start = interval.start;
    if (interval.end.gt(end)) end = interval.end;
  }
  return new TimeInterval(start, end);
}
