import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { EafAnnotationBuilder } from './eaf-annotation-builder.js';
import { ALIGNABLE, REFERENCE, type AnnotationColumns } from './eaf-bulk.js';
import { giftsFor } from './eaf-read-alignable.js';
import type { EafReadState } from './eaf-read-state.js';

/**
 * The fifth pass: the REF_ANNOTATIONs, and the order every annotation goes to the store in. Tier
 * by tier, parents first: the tier's time-aligned annotations, then its references in the order
 * ELAN shows them (see symbolicOrder), each once the annotation it refers to is placed. A
 * reference whose target comes later (a tier whose PARENT_REF disagrees with its references)
 * waits, and is placed once its target is.
 *
 * What ELAN reads, this reads: a reference is found by its ANNOTATION_REF on whatever tier (see
 * parentsFromReferences). A reference into a tier other than its tier's parent is kept, with an
 * error (the store's tier constraints refuse it). Left out, with an error: a REF_ANNOTATION on a
 * tier without a parent tier, and one whose ANNOTATION_REF names no annotation of the document
 * (or one that was left out itself).
 */
export function readReferences(state: EafReadState): void {
  const { records } = state;
  state.emitted = new Uint8Array(records.count);
  state.order = new Int32Array(records.count);
  const tierByName = new Map(state.tiers.map((tier) => [tier.name, tier]));
  const tierIndexOf = new Map(state.tiers.map((tier, index) => [tier.name, index]));
  const waiting: number[] = [];
  for (const tier of state.ordered) {
    const index = tierIndexOf.get(tier.name) as number;
    const first = state.bulk.tierStart[index];
    const end = state.bulk.tierEnd[index];
    for (let record = first; record < end; record++) if (records.kind[record] === ALIGNABLE) place(state, record);
    for (const record of symbolicOrder(records, first, end)) {
      if (targetPlaced(state, record)) placeReference(state, tier, record);
      else waiting.push(record);
    }
  }
  placeWaiting(state, waiting, (record) => tierByName.get(state.tierNameOf(record)) as Tier);
  // The ids are not needed any more; the annotations built later need only the columns.
  state.bulk.idIndex = null;
}

function place(state: EafReadState, record: number): void {
  state.emitted[record] = 1;
  state.order[state.emittedCount++] = record;
}

function targetPlaced(state: EafReadState, record: number): boolean {
  const target = state.recordOfId(state.records.ref[record] as string);
  return target !== undefined && state.emitted[target] === 1;
}

/** References whose targets came later, in rounds until none can be placed; what is left refers to nothing placed. */
function placeWaiting(state: EafReadState, waiting: number[], tierOf: (record: number) => Tier): void {
  let pending = waiting;
  while (pending.length > 0) {
    const still: number[] = [];
    for (const record of pending) {
      if (targetPlaced(state, record)) placeReference(state, tierOf(record), record);
      else still.push(record);
    }
    if (still.length === pending.length) break;
    pending = still;
  }
  const unplaced = new Set(pending);
  for (const record of pending) {
    const { eafId, ref } = state.records;
    const target = state.recordOfId(ref[record] as string);
    state.report({
      code: 'missing_reference',
      severity: 'error',
      location: state.locationOf(record),
      message:
        target === undefined ? `REF_ANNOTATION ${eafId[record]} refers to ANNOTATION_REF="${ref[record]}", which no annotation of the document has; left out`
        : target === record ? `REF_ANNOTATION ${eafId[record]} refers to itself; left out`
        : unplaced.has(target) ? `REF_ANNOTATION ${eafId[record]} refers to ${ref[record]}, which cannot be placed either (its own reference is missing or circular); left out`
        : `REF_ANNOTATION ${eafId[record]} refers to ${ref[record]}, which was left out (see its finding); left out too`,
    });
  }
}

function placeReference(state: EafReadState, tier: Tier, record: number): void {
  const { records } = state;
  const eafId = records.eafId[record];
  if (tier.parent === null) {
    state.report({
      code: 'unknown_target',
      severity: 'error',
      location: state.locationOf(record),
      message: `REF_ANNOTATION ${eafId} is on tier "${tier.name}", which has no parent tier (PARENT_REF) for it to refer into; left out`,
    });
    return;
  }
  const ref = records.ref[record] as string;
  const target = state.recordOfId(ref) as number;
  let annotation: Annotation;
  try {
    annotation = (state.builder as EafAnnotationBuilder).reference(record, tier.name, giftsFor(state, tier), (state.prebuilt.get(target) as Annotation).id);
  } catch (error) {
    throw state.refusalOf(error, record);
  }
  state.prebuilt.set(record, annotation);
  state.recordOfUuid.set(annotation.id, record);
  place(state, record);
  const targetTier = state.tierNameOf(target);
  if (targetTier === tier.parent) return;
  state.reportedViolations.add(`${annotation.id}\u0000unknown_target`);
  state.report({
    code: 'unknown_target',
    severity: 'error',
    location: state.locationOf(record),
    annotation_id: annotation.id,
    message:
      `REF_ANNOTATION ${eafId} on tier "${tier.name}" refers to ANNOTATION_REF="${ref}", an annotation of tier "${targetTier}", not of its parent tier "${tier.parent}"; ` +
      `kept as ELAN reads it (it finds an ANNOTATION_REF on any tier), but a reference must point into its tier's parent tier`,
  });
}

/**
 * REF_ANNOTATIONs in the order ELAN shows them: annotations of one parent follow their
 * PREVIOUS_ANNOTATION chain; chains start where the file first mentions the parent.
 */
export function symbolicOrder(records: AnnotationColumns, first: number, end: number): number[] {
  const refs: number[] = [];
  let chained = false;
  for (let record = first; record < end; record++) {
    if (records.kind[record] !== REFERENCE) continue;
    refs.push(record);
    if (records.previous[record] !== undefined) chained = true;
  }
  if (!chained) return refs;
  const byId = new Map(refs.map((record) => [records.eafId[record], record]));
  const next = new Map<string, number>();
  for (const record of refs) {
    const previous = records.previous[record];
    if (previous !== undefined && byId.has(previous) && !next.has(previous)) next.set(previous, record);
  }
  const out: number[] = [];
  const placed = new Set<number>();
  const follow = (start: number): void => {
    for (let record: number | undefined = start; record !== undefined && !placed.has(record); record = next.get(records.eafId[record])) {
      placed.add(record);
      out.push(record);
    }
  };
  for (const record of refs) {
    const previous = records.previous[record];
    const head = previous === undefined || !byId.has(previous) || next.get(previous) !== record;
    if (head) follow(record);
  }
  for (const record of refs) if (!placed.has(record)) follow(record); // cycles: file order
  return out;
}
