import type { Annotation } from '../../model/annotation.js';
import { validateTierConstraint } from '../../model/tier-constraint.js';
import { makeTier, type Tier, type TierStereotype } from '../../model/tier.js';
import type { LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { parentsFirst } from '../load-into-store.js';
import { EafAnnotationBuilder, type TierGifts } from './eaf-annotation-builder.js';
import { ALIGNABLE, EafBulk, REFERENCE, type AnnotationColumns, type DeferredError } from './eaf-bulk.js';
import { DEFAULT_ASSET_ID, EAF_DOCUMENT_META, STEREOTYPE_OF_CONSTRAINT, TIER_ATTRIBUTE_KEYS, toPlain, type DocumentParts } from './eaf-model.js';
import { resolveSlotTimes, type SlotPosition } from './slot-times.js';
import { lineAndColumn, scanXml, type XmlElement } from './xml-scan.js';

export interface ReadEaf {
  tiers: Tier[];
  meta: Record<string, string>;
  /** Built as they are consumed (once), in the order a store needs them: parents first. */
  annotations: Iterable<Annotation>;
  clock: ImportClock;
}

interface LinguisticType {
  constraint: string | null;
  controlledVocabulary: string | null;
}

/**
 * Reads an EAF document into tiers, store meta and annotations. Time-aligned annotations become
 * MediaRefs at their slots' milliseconds (exact at rate 1000); REF_ANNOTATIONs become
 * AnnotationRefs to their parent annotation, in PREVIOUS_ANNOTATION order; unaligned slots get the
 * time ELAN shows for them and keep their unalignedness in the body so they are written back
 * unaligned. Everything else in the document is kept verbatim in store meta.
 *
 * Memory: the scan hands over time slots and annotations one by one (EafBulk), so they are
 * columns, never an element tree. Everything that can fail or be reported (errors, findings,
 * per-record time checks) is done before this returns, while the text is there to give lines
 * and columns; then the annotations are built as they are consumed, from columns that hold no
 * reference to the text, which can go as soon as the caller drops it.
 */
export function readEaf(text: string, options: LoadOptions): ReadEaf {
  const file = options.sourceName;
  const bulk = new EafBulk();
  const root = scanXml(text, file, bulk);
  const failAt = (offset: number, path: string, expected: string): never => {
    throw new FormatParseError(file, { ...lineAndColumn(text, offset), path }, expected);
  };
  const failWith = (error: DeferredError | null): void => {
    if (error) failAt(error.offset, error.path, error.expected);
  };
  const fail = (element: XmlElement, path: string, expected: string): never => failAt(element.offset, path, expected);
  if (root.name !== 'ANNOTATION_DOCUMENT') fail(root, root.name, 'an ELAN document: root element <ANNOTATION_DOCUMENT>');
  failWith(bulk.slotError);

  const rate = options.rate ?? 1000;
  const clock = new ImportClock(rate, options.strictTime);
  const parts: DocumentParts = { attributes: { ...root.attributes }, elements: [] };
  const types = new Map<string, LinguisticType>();
  const tierElements: XmlElement[] = [];
  let assetId = options.assetId;

  for (const element of root.children) {
    switch (element.name) {
      case 'TIME_ORDER':
        break; // its slots went to the bulk
      case 'TIER':
        tierElements.push(element);
        break;
      case 'LINGUISTIC_TYPE': {
        const id = element.attributes.LINGUISTIC_TYPE_ID;
        if (id !== undefined) types.set(id, { constraint: element.attributes.CONSTRAINTS ?? null, controlledVocabulary: element.attributes.CONTROLLED_VOCABULARY_REF ?? null });
        parts.elements.push(toPlain(element));
        break;
      }
      case 'HEADER':
        if (assetId === undefined) {
          const media = element.children.find((child) => child.name === 'MEDIA_DESCRIPTOR');
          const url = media?.attributes.MEDIA_URL || media?.attributes.RELATIVE_MEDIA_URL;
          if (url) assetId = url;
        }
        parts.elements.push(toPlain(element));
        break;
      default:
        parts.elements.push(toPlain(element));
    }
  }
  const asset = assetId ?? DEFAULT_ASSET_ID;

  // Tiers: stereotype from the linguistic type's constraint, parent from PARENT_REF.
  const tierNames = new Set<string>();
  tierElements.forEach((element, index) => {
    const name = element.attributes.TIER_ID;
    if (!name) fail(element, `TIER[${index + 1}]`, 'a TIER_ID attribute');
    if (tierNames.has(name)) fail(element, `TIER[${index + 1}]`, `a unique TIER_ID; "${name}" is used twice`);
    tierNames.add(name);
  });
  const records = bulk.annotations;
  const tiers: Tier[] = [];
  tierElements.forEach((element, tierIndex) => {
    const attributes = element.attributes;
    const name = attributes.TIER_ID;
    const type = attributes.LINGUISTIC_TYPE_REF !== undefined ? types.get(attributes.LINGUISTIC_TYPE_REF) : undefined;
    let stereotype: TierStereotype = (type?.constraint && STEREOTYPE_OF_CONSTRAINT[type.constraint]) || 'NONE';
    const parentRef = attributes.PARENT_REF;
    const metadata: Record<string, unknown> = {};
    for (const [attribute, key] of TIER_ATTRIBUTE_KEYS) if (attributes[attribute] !== undefined) metadata[key] = attributes[attribute];
    const others = Object.entries(attributes).filter(([key]) => key !== 'TIER_ID' && key !== 'PARENT_REF' && !TIER_ATTRIBUTE_KEYS.some(([known]) => known === key));
    if (others.length > 0) metadata.other_attributes = Object.fromEntries(others);
    if (type?.controlledVocabulary) metadata.controlled_vocabulary = type.controlledVocabulary;
    let parent: string | null = parentRef ?? null;
    // A dependent tier whose linguistic type is missing, or gives no constraint ELAN knows, but
    // which holds REF_ANNOTATIONs: those can only be symbolic, and association is ELAN's default
    // for them (a damaged or hand-edited file). A parent annotation with several of them makes it
    // a subdivision (an association allows one).
    const symbolic = stereotype === 'NONE' && parent !== null && parent !== name && tierNames.has(parent) ? guessSymbolic(element, refParentsOf(bulk, tierIndex)) : null;
    if (symbolic !== null) {
      stereotype = symbolic;
      const written = symbolic === 'SYMBOLIC_SUBDIVISION' ? 'Symbolic_Subdivision' : 'Symbolic_Association';
      const why = type === undefined ? 'names no existing LINGUISTIC_TYPE' : `has a LINGUISTIC_TYPE with ${type.constraint === null ? 'no constraint' : `the unknown constraint "${type.constraint}"`}`;
      options.report({
        code: 'stereotype_guessed',
        severity: 'warning',
        file,
        location: { ...lineAndColumn(text, element.offset), path: `TIER[@TIER_ID="${name}"]` },
        message: `tier "${name}" ${why} but holds REF_ANNOTATIONs under "${parent}": read as ${written}`,
      });
    }
    // ELAN needs both a constraint and an existing parent; a file with one but not the other
    // is kept as an independent tier, with what it said remembered for the way back.
    if (stereotype === 'NONE' || parent === null || !tierNames.has(parent) || parent === name) {
      if (stereotype !== 'NONE' || parent !== null) metadata.stereotype_coerced = true;
      if (parent !== null) metadata.parent_ref = parent;
      stereotype = 'NONE';
      parent = null;
    }
    tiers.push(makeTier({ name, stereotype, parent, metadata }));
  });
  const ordered = parentsFirst(tiers);

  // Annotations: the first error met in file order, as a walk of every tier would have found it.
  bulk.finish();
  failWith(bulk.annotationError);
  const slots = bulk.slots;
  const idIndex = bulk.idIndex as Map<string, number>;
  bulk.idIndex = null;
  const tierIndexOf = new Map(tierElements.map((element, index) => [element.attributes.TIER_ID, index]));
  const recordPath = (record: number): string => {
    const tier = records.tier[record];
    return `TIER[${tier + 1}]/ANNOTATION[${record - bulk.tierStart[tier] + 1}]/${records.kind[record] === REFERENCE ? 'REF_ANNOTATION' : 'ALIGNABLE_ANNOTATION'}`;
  };
  const locationOf = (record: number) => ({ ...lineAndColumn(text, records.offset[record]), path: recordPath(record) });
  const tierNameOf = (record: number): string => tierElements[records.tier[record]].attributes.TIER_ID;

  // Built now: the annotations of tiers in a parent-child relation (references need their
  // parents' ids, the constraint check needs them all) and the first of every other tier (which
  // checks what the tier gives all of them). The rest are built as they are consumed.
  const related = new Set<string>();
  for (const tier of tiers) {
    if (tier.parent === null) continue;
    related.add(tier.name);
    related.add(tier.parent);
  }
  const prebuilt = new Map<number, Annotation>();
  const recordOfUuid = new Map<string, number>();
  const emitted = new Uint8Array(records.count);
  const order = new Int32Array(records.count);
  let emittedCount = 0;
  const interpolated = new Map<number, number>();
  const builder = new EafAnnotationBuilder(records, slots, interpolated, asset, rate);
  // Checks the times of annotations built later with a clock of its own, so the import clock
  // counts each rounding once, when the annotation is built.
  const probe = new ImportClock(rate, options.strictTime);

  const annotatorOf = new Map(tiers.map((tier) => [tier.name, typeof tier.metadata.annotator === 'string' ? tier.metadata.annotator : undefined]));
  // ELAN's PARTICIPANT says who speaks on a tier: each of its annotations carries it as body.speaker.
  const speakerOf = new Map(tiers.flatMap((tier) => (typeof tier.metadata.participant === 'string' && tier.metadata.participant.trim() !== '' ? [[tier.name, tier.metadata.participant] as const] : [])));
  const giftsOf = new Map<string, TierGifts>();
  const giftsFor = (tier: string): TierGifts => {
    let gifts = giftsOf.get(tier);
    if (!gifts) giftsOf.set(tier, (gifts = { speaker: speakerOf.get(tier), provenance: importProvenance('eaf', options, annotatorOf.get(tier)) }));
    return gifts;
  };
  const builtFirst = new Set<string>();

  const emit = (tier: string, record: number, target?: string): void => {
    if (related.has(tier) || !builtFirst.has(tier)) {
      builtFirst.add(tier);
      const annotation = target === undefined ? builder.alignable(record, tier, giftsFor(tier), clock) : builder.reference(record, tier, giftsFor(tier), target);
      prebuilt.set(record, annotation);
      recordOfUuid.set(annotation.id, record);
    } else {
      builder.interval(record, probe);
    }
    emitted[record] = 1;
    order[emittedCount++] = record;
  };

  const tierByName = new Map(tiers.map((tier) => [tier.name, tier]));
  /**
   * A REF_ANNOTATION on a dependent tier must refer to an annotation of the parent tier (ELAN
   * allows nothing else); one that does not is an error finding and is left out, with whatever
   * refers to it in turn, like a reference to a missing annotation.
   */
  const emitReference = (tier: Tier, record: number): void => {
    const ref = records.ref[record] as string;
    const target = idIndex.get(ref) as number;
    const targetTier = tierNameOf(target);
    const eafId = records.eafId[record];
    if (tier.parent === null) {
      options.report({
        code: 'unknown_target',
        severity: 'error',
        file,
        location: locationOf(record),
        message: `REF_ANNOTATION ${eafId} is on tier "${tier.name}", which has no parent tier (PARENT_REF) for it to refer into; left out`,
      });
      return;
    }
    if (targetTier !== tier.parent) {
      options.report({
        code: 'unknown_target',
        severity: 'error',
        file,
        location: locationOf(record),
        message: `REF_ANNOTATION ${eafId} on tier "${tier.name}" refers to ANNOTATION_REF="${ref}", an annotation of tier "${targetTier}", not of its parent tier "${tier.parent}"; left out`,
      });
      return;
    }
    emit(tier.name, record, (prebuilt.get(target) as Annotation).id);
  };
  const targetEmitted = (record: number): boolean => {
    const target = idIndex.get(records.ref[record] as string);
    return target !== undefined && emitted[target] === 1;
  };

  // Times given to unaligned slots, parents' tiers first (see resolveSlotTimes).
  let positions: SlotPosition[] | null = null;
  const deferred: number[] = [];
  for (const tier of ordered) {
    const tierIndex = tierIndexOf.get(tier.name) as number;
    const first = bulk.tierStart[tierIndex];
    const end = bulk.tierEnd[tierIndex];
    let unaligned = false;
    for (let record = first; record < end && !unaligned; record++) {
      if (records.kind[record] !== ALIGNABLE) continue;
      if (Number.isNaN(slots.values[records.slot1[record]]) || Number.isNaN(slots.values[records.slot2[record]])) unaligned = true;
    }
    if (unaligned) {
      // Slots as positions only for a file that has unaligned ones, and only once.
      const all = (positions ??= Array.from({ length: slots.count }, (_, index) => ({ index, value: Number.isNaN(slots.values[index]) ? null : slots.values[index] })));
      const known = new Map<SlotPosition, number>();
      for (const [index, ms] of interpolated) known.set(all[index], ms);
      const pairs: Array<readonly [SlotPosition, SlotPosition]> = [];
      for (let record = first; record < end; record++) if (records.kind[record] === ALIGNABLE) pairs.push([all[records.slot1[record]], all[records.slot2[record]]]);
      for (const [slot, ms] of resolveSlotTimes(pairs, all, known)) interpolated.set(slot.index, ms);
    }
    for (let record = first; record < end; record++) {
      if (records.kind[record] !== ALIGNABLE) continue;
      const startMs = builder.startMs(record);
      const endMs = builder.rawEndMs(record);
      if (endMs < startMs) {
        const slot1 = records.slot1[record];
        const slot2 = records.slot2[record];
        if (!Number.isNaN(slots.values[slot1]) && !Number.isNaN(slots.values[slot2])) {
          failAt(records.offset[record], recordPath(record), `an end (TIME_SLOT_REF2 "${slots.ids[slot2]}" = ${slots.values[slot2]} ms) not before the start (TIME_SLOT_REF1 "${slots.ids[slot1]}" = ${slots.values[slot1]} ms)`);
        }
        // interpolation of unsorted slots: the end moves to the start; the slots stay unaligned on the way back
      }
      emit(tier.name, record);
    }
    for (const record of symbolicOrder(records, first, end)) {
      if (targetEmitted(record)) emitReference(tier, record);
      else deferred.push(record);
    }
  }
  // References to annotations on later tiers (only in files whose PARENT_REFs are inconsistent).
  // A reference to an annotation the document does not have is an error finding; the annotation
  // (and whatever refers to it in turn) is left out, the rest of the file is read.
  let pending = deferred;
  while (pending.length > 0) {
    const still = pending.filter((record) => !targetEmitted(record));
    if (still.length === pending.length) {
      const stillIds = new Set(still.map((record) => records.eafId[record]));
      for (const record of still) {
        const ref = records.ref[record] as string;
        options.report({
          code: 'missing_reference',
          severity: 'error',
          file,
          location: locationOf(record),
          message: !stillIds.has(ref)
            ? `REF_ANNOTATION ${records.eafId[record]} refers to ANNOTATION_REF="${ref}", which no annotation of the document has; left out`
            : `REF_ANNOTATION ${records.eafId[record]} refers to ${ref}, which was left out (its own reference is missing); left out too`,
        });
      }
      break;
    }
    for (const record of pending) if (targetEmitted(record)) emitReference(tierByName.get(tierNameOf(record)) as Tier, record);
    pending = still;
  }

  const relatedAnnotations: Annotation[] = [];
  for (let index = 0; index < emittedCount; index++) {
    const record = order[index];
    if (related.has(tierNameOf(record))) relatedAnnotations.push(prebuilt.get(record) as Annotation);
  }
  reportTierViolations(ordered, relatedAnnotations, (id) => recordOfUuid.get(id), records, (record, id, code, message) =>
    options.report({ code, severity: 'error', file, location: locationOf(record), message, annotation_id: id }),
  );
  const meta: Record<string, string> = { [EAF_DOCUMENT_META]: JSON.stringify(parts) };
  // Every tier with an annotation built later had its first built above, so its gifts are known.
  const tierNameByIndex = tierElements.map((element) => element.attributes.TIER_ID);
  return { tiers: ordered, meta, annotations: built({ order: order.subarray(0, emittedCount), prebuilt, builder, records, tierNameByIndex, giftsOf, clock }), clock };
}

/**
 * The annotations in emission order: those built during the read, then each of the others built
 * as it is asked for. A module-level function, so that what it keeps alive is what it is given,
 * not the text a closure inside readEaf would share.
 */
function* built(plan: {
  order: Int32Array;
  prebuilt: Map<number, Annotation>;
  builder: EafAnnotationBuilder;
  records: AnnotationColumns;
  tierNameByIndex: readonly string[];
  giftsOf: ReadonlyMap<string, TierGifts>;
  clock: ImportClock;
}): Generator<Annotation> {
  const { order, prebuilt, builder, records, tierNameByIndex, giftsOf, clock } = plan;
  for (let index = 0; index < order.length; index++) {
    const record = order[index];
    const ready = prebuilt.get(record);
    if (ready !== undefined) {
      prebuilt.delete(record);
      yield ready;
    } else {
      const tier = tierNameByIndex[records.tier[record]];
      yield builder.alignable(record, tier, giftsOf.get(tier) as TierGifts, clock);
    }
  }
}

/** The parent references of a tier's REF_ANNOTATIONs, for guessing its symbolic stereotype. */
function refParentsOf(bulk: EafBulk, tierIndex: number): string[] {
  const records = bulk.annotations;
  const parents = [...bulk.otherRefParents[tierIndex]];
  for (let record = bulk.tierStart[tierIndex]; record < bulk.tierEnd[tierIndex]; record++) if (records.kind[record] === REFERENCE) parents.push(records.ref[record] as string);
  return parents;
}

/**
 * REF_ANNOTATIONs in the order ELAN shows them: annotations of one parent follow their
 * PREVIOUS_ANNOTATION chain; chains start where the file first mentions the parent.
 */
function symbolicOrder(records: AnnotationColumns, first: number, end: number): number[] {
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

/**
 * A file whose annotations break their tiers' constraints (a child outside its parent, a gap in a
 * time subdivision: a damaged slot, a hand edit) is still read, but each break is an error finding
 * at the annotation's element, so `annot validate` refuses the file and says where.
 */
function reportTierViolations(
  tiers: readonly Tier[],
  annotations: readonly Annotation[],
  recordOf: (id: string) => number | undefined,
  records: AnnotationColumns,
  report: (record: number, id: string, code: string, message: string) => void,
): void {
  if (!tiers.some((tier) => tier.parent !== null)) return;
  const byTier = new Map<string, Annotation[]>(tiers.map((tier) => [tier.name, []]));
  for (const annotation of annotations) byTier.get(annotation.tier)?.push(annotation);
  const tierByName = new Map(tiers.map((tier) => [tier.name, tier]));
  const eafIdOf = (id: string): string | undefined => {
    const record = recordOf(id);
    return record === undefined ? undefined : records.eafId[record];
  };
  for (const tier of tiers) {
    if (tier.parent === null) continue;
    const parent = tierByName.get(tier.parent) ?? null;
    for (const violation of validateTierConstraint(tier, byTier.get(tier.name) ?? [], parent, parent ? byTier.get(parent.name) ?? [] : [])) {
      const record = violation.annotation_id === null ? undefined : recordOf(violation.annotation_id);
      // The message names annotations by ELAN's ANNOTATION_ID, not the UUIDs the file never had.
      if (record !== undefined) report(record, violation.annotation_id as string, violation.code, violation.message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => eafIdOf(id) ?? id));
    }
  }
}

/** The symbolic stereotype a tier's REF_ANNOTATIONs imply, or null when it holds none. */
function guessSymbolic(tier: XmlElement, streamedRefParents: readonly string[]): TierStereotype | null {
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
