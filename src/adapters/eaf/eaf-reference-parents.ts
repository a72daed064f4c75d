import type { TierStereotype } from '../../model/tier.js';
import { REFERENCE } from './eaf-bulk.js';
import type { EafReadState, TierDraft } from './eaf-read-state.js';

const SYMBOLIC = new Set<TierStereotype>(['SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']);

/** How many of its REF_ANNOTATIONs a finding names. */
const EXAMPLES = 3;

/** Where one tier's REF_ANNOTATIONs point: per tier pointed into, how many, and the first few records. */
type PointsInto = Map<number, { count: number; examples: number[] }>;

/**
 * ELAN resolves an ANNOTATION_REF by id, whatever tier the annotation it names is on (its reader
 * realises every reference from one map of all the document's annotations), so a file whose
 * PARENT_REFs disagree with its references still opens in ELAN with every reference in place.
 * SLEXIL's inferno-threeLines.eaf is one: the morpheme-gloss REF_ANNOTATIONs refer to the
 * annotations of tier morphemes, while the tier's PARENT_REF says italianSpeech.
 *
 * A symbolic tier whose REF_ANNOTATIONs all point into one tier other than its PARENT_REF is read
 * with that tier as its parent: the references are kept and the tiers agree with them, so the
 * store is consistent (a warning, which --strict refuses, names the tier, its references and the
 * tier they point into). The tier keeps PARENT_REF as written in `parent_ref`, and the tier it
 * was read under in `parent_from_references`: the writer gives PARENT_REF back as it was for as
 * long as the tier still hangs there. A tier whose references point into several tiers, or into
 * itself or a tier below it, keeps its PARENT_REF; the references pass reports each reference
 * that points elsewhere. Notes every tier referred into (its annotations are built during the read).
 */
export function parentsFromReferences(state: EafReadState, drafts: TierDraft[]): void {
  const byName = new Map(drafts.map((draft) => [draft.name, draft]));
  drafts.forEach((draft, index) => {
    if (draft.parent === null) return; // its references are left out (see the references pass)
    const targets = pointsInto(state, index);
    for (const target of targets.keys()) state.referredTiers.add(target);
    if (targets.size !== 1 || !SYMBOLIC.has(draft.stereotype)) return;
    const [[targetIndex, { count, examples }]] = targets;
    const target = drafts[targetIndex];
    if (target.name === draft.parent || hangsUnder(target, draft.name, byName)) return;
    const shown = examples.map((record) => `${state.records.eafId[record]} → ${state.records.ref[record]}`).join(', ') + (count > examples.length ? ` and ${count - examples.length} more` : '');
    state.report({
      code: 'parent_ref_mismatch',
      severity: 'warning',
      location: state.elementLocation(draft.element, `TIER[@TIER_ID="${draft.name}"]`),
      message:
        `tier "${draft.name}" has PARENT_REF="${draft.parent}", but its REF_ANNOTATIONs refer to annotations of tier "${target.name}" (${shown}); ` +
        `read with "${target.name}" as its parent tier, as ELAN finds an ANNOTATION_REF on any tier; PARENT_REF="${draft.parent}" is written back as it was`,
    });
    draft.metadata.parent_ref = draft.parent;
    draft.metadata.parent_from_references = target.name;
    draft.parent = target.name;
  });
}

/** The tiers a tier's REF_ANNOTATIONs point into (references to no annotation are the references pass's to report). */
function pointsInto(state: EafReadState, tierIndex: number): PointsInto {
  const { records, bulk } = state;
  const targets: PointsInto = new Map();
  for (let record = bulk.tierStart[tierIndex]; record < bulk.tierEnd[tierIndex]; record++) {
    if (records.kind[record] !== REFERENCE) continue;
    const target = state.recordOfId(records.ref[record] as string);
    if (target === undefined) continue;
    const tier = records.tier[target];
    const entry = targets.get(tier) ?? { count: 0, examples: [] };
    entry.count++;
    if (entry.examples.length < EXAMPLES) entry.examples.push(record);
    targets.set(tier, entry);
  }
  return targets;
}

/** Whether `tier` is the tier named `name` or hangs below it (taking it as a parent would make a cycle). */
function hangsUnder(tier: TierDraft, name: string, byName: ReadonlyMap<string, TierDraft>): boolean {
  const seen = new Set<string>();
  for (let at: TierDraft | undefined = tier; at !== undefined && !seen.has(at.name); at = at.parent === null ? undefined : byName.get(at.parent)) {
    if (at.name === name) return true;
    seen.add(at.name);
  }
  return false;
}
