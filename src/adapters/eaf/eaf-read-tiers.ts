import { makeTier, type TierStereotype } from '../../model/tier.js';
import { parentsFirst } from '../load-into-store.js';
import { REFERENCE, type EafBulk } from './eaf-bulk.js';
import { STEREOTYPE_OF_CONSTRAINT, TIER_ATTRIBUTE_KEYS } from './eaf-model.js';
import { parentsFromReferences } from './eaf-reference-parents.js';
import type { EafReadState, LinguisticType, TierDraft } from './eaf-read-state.js';
import type { XmlElement } from './xml-scan.js';

/**
 * The third pass: the TIERs. Every TIER_ID is there and unique; then (the scan's annotations now
 * known whole) each tier gets its stereotype from its linguistic type's constraint, its parent
 * from PARENT_REF (or from where its references point, see parentsFromReferences), and its
 * attributes as metadata. Fills `tiers` (file order) and `ordered` (parents first).
 */
export function readTiers(state: EafReadState): void {
  const names = tierNames(state);
  // The annotations' first error, in file order: from here on the scan's columns are whole.
  state.failWith(state.bulk.annotationError);
  const drafts = state.tierElements.map((element, index) => tierDraft(state, element, index, names));
  parentsFromReferences(state, drafts);
  state.tiers = drafts.map((draft, index) => {
    try {
      return makeTier({ name: draft.name, stereotype: draft.stereotype, parent: draft.parent, metadata: draft.metadata });
    } catch (error) {
      throw state.refusalAt(error, draft.element, `TIER[${index + 1}]`);
    }
  });
  state.ordered = parentsFirst(state.tiers);
}

function tierNames(state: EafReadState): Set<string> {
  const names = new Set<string>();
  state.tierElements.forEach((element, index) => {
    const name = element.attributes.TIER_ID;
    if (!name) state.fail(element, `TIER[${index + 1}]`, 'a TIER_ID attribute');
    if (names.has(name)) state.fail(element, `TIER[${index + 1}]`, `a unique TIER_ID; "${name}" is used twice`);
    names.add(name);
  });
  return names;
}

function tierDraft(state: EafReadState, element: XmlElement, index: number, names: ReadonlySet<string>): TierDraft {
  const attributes = element.attributes;
  const name = attributes.TIER_ID;
  const type = attributes.LINGUISTIC_TYPE_REF !== undefined ? state.types.get(attributes.LINGUISTIC_TYPE_REF) : undefined;
  const draft: TierDraft = {
    name,
    stereotype: (type?.constraint && STEREOTYPE_OF_CONSTRAINT[type.constraint]) || 'NONE',
    parent: attributes.PARENT_REF ?? null,
    metadata: tierMetadata(attributes, type),
    element,
  };
  const parentExists = draft.parent !== null && draft.parent !== name && names.has(draft.parent);
  if (draft.stereotype === 'NONE' && parentExists) guessSymbolicStereotype(state, draft, index, type);
  // ELAN needs both a constraint and an existing parent; a file with one but not the other is
  // kept as an independent tier, with what it said remembered for the way back.
  if (draft.stereotype === 'NONE' || !parentExists) {
    if (draft.stereotype !== 'NONE' || draft.parent !== null) draft.metadata.stereotype_coerced = true;
    if (draft.parent !== null) draft.metadata.parent_ref = draft.parent;
    draft.stereotype = 'NONE';
    draft.parent = null;
  }
  return draft;
}

function tierMetadata(attributes: Readonly<Record<string, string>>, type: LinguisticType | undefined): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const [attribute, key] of TIER_ATTRIBUTE_KEYS) if (attributes[attribute] !== undefined) metadata[key] = attributes[attribute];
  const others = Object.entries(attributes).filter(([key]) => key !== 'TIER_ID' && key !== 'PARENT_REF' && !TIER_ATTRIBUTE_KEYS.some(([known]) => known === key));
  if (others.length > 0) metadata.other_attributes = Object.fromEntries(others);
  if (type?.controlledVocabulary) metadata.controlled_vocabulary = type.controlledVocabulary;
  return metadata;
}

/**
 * A dependent tier whose linguistic type is missing, or gives no constraint ELAN knows, but which
 * holds REF_ANNOTATIONs: those can only be symbolic, and association is ELAN's default for them
 * (a damaged or hand-edited file). A parent annotation with several of them makes it a
 * subdivision (an association allows one). A warning, since the stereotype is a guess.
 */
function guessSymbolicStereotype(state: EafReadState, draft: TierDraft, index: number, type: LinguisticType | undefined): void {
  const symbolic = guessSymbolic(draft.element, refParentsOf(state.bulk, index));
  if (symbolic === null) return;
  draft.stereotype = symbolic;
  const written = symbolic === 'SYMBOLIC_SUBDIVISION' ? 'Symbolic_Subdivision' : 'Symbolic_Association';
  const why = type === undefined ? 'names no existing LINGUISTIC_TYPE' : `has a LINGUISTIC_TYPE with ${type.constraint === null ? 'no constraint' : `the unknown constraint "${type.constraint}"`}`;
  state.report({
    code: 'stereotype_guessed',
    severity: 'warning',
    location: state.elementLocation(draft.element, `TIER[@TIER_ID="${draft.name}"]`),
    message: `tier "${draft.name}" ${why} but holds REF_ANNOTATIONs under "${draft.parent}": read as ${written}`,
  });
}

/** The parent references of a tier's REF_ANNOTATIONs, for guessing its symbolic stereotype. */
function refParentsOf(bulk: EafBulk, tierIndex: number): string[] {
  const records = bulk.annotations;
  const parents = [...bulk.otherRefParents[tierIndex]];
  for (let record = bulk.tierStart[tierIndex]; record < bulk.tierEnd[tierIndex]; record++) if (records.kind[record] === REFERENCE) parents.push(records.ref[record] as string);
  return parents;
}

/** The symbolic stereotype a tier's REF_ANNOTATIONs imply, or null when it holds none. */
export function guessSymbolic(tier: XmlElement, streamedRefParents: readonly string[]): TierStereotype | null {
  const perParent = new Map<string, number>();
  for (const parent of streamedRefParents) perParent.set(parent, (perParent.get(parent) ?? 0) + 1);
  // Elements other than ANNOTATION stay in the tree; a REF_ANNOTATION in one still counts.
  for (const annotation of tier.children) {
    for (const child of annotation.children) {
      if (child.name !== 'REF_ANNOTATION') continue;
      const parent = child.attributes.ANNOTATION_REF ?? '';
      perParent.set(parent, (perParent.get(parent) ?? 0) + 1);
    }
  }
  if (perParent.size === 0) return null;
  return [...perParent.values()].some((count) => count > 1) ? 'SYMBOLIC_SUBDIVISION' : 'SYMBOLIC_ASSOCIATION';
}
