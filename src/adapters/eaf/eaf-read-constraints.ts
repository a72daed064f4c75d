import type { Annotation } from '../../model/annotation.js';
import { validateTierConstraint } from '../../model/tier-constraint.js';
import type { EafReadState } from './eaf-read-state.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The last pass: a file whose annotations break their tiers' constraints (a child outside its
 * parent, a gap in a time subdivision: a damaged slot, a hand edit) is still read, but each
 * break is an error finding at the annotation's element, so `annot validate` refuses the file
 * and says where. Annotations are named by ELAN's ANNOTATION_ID, not the UUIDs the file never had.
 */
export function reportTierViolations(state: EafReadState): void {
  const { ordered } = state;
  if (!ordered.some((tier) => tier.parent !== null)) return;
  const byTier = new Map<string, Annotation[]>(ordered.map((tier) => [tier.name, []]));
  for (let index = 0; index < state.emittedCount; index++) {
    const annotation = state.prebuilt.get(state.order[index]);
    if (annotation !== undefined && state.related.has(annotation.tier)) byTier.get(annotation.tier)?.push(annotation);
  }
  const tierByName = new Map(ordered.map((tier) => [tier.name, tier]));
  const eafIdOf = (id: string): string => {
    const record = state.recordOfUuid.get(id);
    return record === undefined ? id : state.records.eafId[record];
  };
  for (const tier of ordered) {
    if (tier.parent === null) continue;
    const parent = tierByName.get(tier.parent) ?? null;
    for (const violation of validateTierConstraint(tier, byTier.get(tier.name) ?? [], parent, parent ? byTier.get(parent.name) ?? [] : [])) {
      const id = violation.annotation_id;
      const record = id === null ? undefined : state.recordOfUuid.get(id);
      if (record === undefined || state.reportedViolations.has(`${id}\u0000${violation.code}`)) continue;
      state.report({ code: violation.code, severity: 'error', location: state.locationOf(record), message: violation.message.replace(UUID, eafIdOf), annotation_id: id as string });
    }
  }
}
