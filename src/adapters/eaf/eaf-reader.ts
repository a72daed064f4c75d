import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { newAnnotationId } from '../../model/ids.js';
import { validateTierConstraint } from '../../model/tier-constraint.js';
import { makeTier, type Tier, type TierStereotype } from '../../model/tier.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { parentsFirst } from '../load-into-store.js';
import {
  ANNOTATION_ATTRIBUTE_KEYS,
  DEFAULT_ASSET_ID,
  EAF_ANNOTATION_SCHEMA,
  EAF_DOCUMENT_META,
  STEREOTYPE_OF_CONSTRAINT,
  TIER_ATTRIBUTE_KEYS,
  toPlain,
  type DocumentParts,
} from './eaf-model.js';
import { resolveSlotTimes } from './slot-times.js';
import { lineAndColumn, type XmlElement } from './xml-scan.js';

export interface ReadEaf {
  tiers: Tier[];
  meta: Record<string, string>;
  annotations: Annotation[];
  clock: ImportClock;
}

interface LinguisticType {
  constraint: string | null;
  controlledVocabulary: string | null;
}

interface Slot {
  id: string;
  index: number;
  /** Milliseconds as written, or null for an unaligned slot. */
  value: number | null;
  written: string | null;
  uses: number;
}

interface RawAnnotation {
  element: XmlElement;
  path: string;
  eafId: string;
  kind: 'alignable' | 'ref';
  value: string;
  slot1?: Slot;
  slot2?: Slot;
  ref?: string;
  previous?: string;
}

/**
 * Turns a scanned EAF document into tiers, store meta and annotations. Time-aligned annotations
 * become MediaRefs at their slots' milliseconds (exact at rate 1000); REF_ANNOTATIONs become
 * AnnotationRefs to their parent annotation, in PREVIOUS_ANNOTATION order; unaligned slots get the
 * time ELAN shows for them and keep their unalignedness in the body so they are written back
 * unaligned. Everything else in the document is kept verbatim in store meta.
 */
export function readEaf(root: XmlElement, text: string, options: LoadOptions): ReadEaf {
  const file = options.sourceName;
  const fail = (element: XmlElement, path: string, expected: string): never => {
    throw new FormatParseError(file, { ...lineAndColumn(text, element.offset), path }, expected);
  };
  if (root.name !== 'ANNOTATION_DOCUMENT') fail(root, root.name, 'an ELAN document: root element <ANNOTATION_DOCUMENT>');

  const rate = options.rate ?? 1000;
  const clock = new ImportClock(rate, options.strictTime);
  const parts: DocumentParts = { attributes: { ...root.attributes }, elements: [] };
  const types = new Map<string, LinguisticType>();
  const slots = new Map<string, Slot>();
  const slotList: Slot[] = [];
  const tierElements: XmlElement[] = [];
  let assetId = options.assetId;

  for (const element of root.children) {
    switch (element.name) {
      case 'TIME_ORDER':
        for (const slotElement of element.children) {
          if (slotElement.name !== 'TIME_SLOT') continue;
          const path = `TIME_ORDER/TIME_SLOT[${slotList.length + 1}]`;
          const id = slotElement.attributes.TIME_SLOT_ID;
          if (!id) fail(slotElement, path, 'a TIME_SLOT_ID attribute');
          if (slots.has(id)) fail(slotElement, path, `a unique TIME_SLOT_ID; "${id}" is used twice`);
          const written = slotElement.attributes.TIME_VALUE ?? null;
          let value: number | null = null;
          if (written !== null) {
            value = Number(written);
            if (written.trim() === '' || !Number.isFinite(value) || value < 0) fail(slotElement, path, `TIME_VALUE in milliseconds (a number >= 0), got "${written}"`);
          }
          const slot: Slot = { id, index: slotList.length, value, written, uses: 0 };
          slots.set(id, slot);
          slotList.push(slot);
        }
        break;
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
  const tiers: Tier[] = [];
  tierElements.forEach((element) => {
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
    const symbolic = stereotype === 'NONE' && parent !== null && parent !== name && tierNames.has(parent) ? guessSymbolic(element) : null;
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

  // Annotations, per tier, in file order.
  const rawByTier = new Map<string, RawAnnotation[]>();
  const rawById = new Map<string, RawAnnotation>();
  const tierOfId = new Map<string, string>();
  tierElements.forEach((tierElement, tierIndex) => {
    const list: RawAnnotation[] = [];
    let position = 0;
    for (const wrapper of tierElement.children) {
      if (wrapper.name !== 'ANNOTATION') continue;
      position++;
      const element = wrapper.children[0];
      const path = `TIER[${tierIndex + 1}]/ANNOTATION[${position}]`;
      if (!element || (element.name !== 'ALIGNABLE_ANNOTATION' && element.name !== 'REF_ANNOTATION')) {
        fail(element ?? wrapper, path, 'an <ALIGNABLE_ANNOTATION> or <REF_ANNOTATION> inside <ANNOTATION>');
      }
      const attributes = element.attributes;
      const where = `${path}/${element.name}`;
      const eafId = attributes.ANNOTATION_ID;
      if (!eafId) fail(element, where, 'an ANNOTATION_ID attribute');
      if (rawById.has(eafId)) fail(element, where, `a unique ANNOTATION_ID; "${eafId}" is used twice`);
      const valueElement = element.children.find((child) => child.name === 'ANNOTATION_VALUE');
      const raw: RawAnnotation = { element, path: where, eafId, kind: element.name === 'REF_ANNOTATION' ? 'ref' : 'alignable', value: valueElement ? valueElement.text : '' };
      if (raw.kind === 'alignable') {
        raw.slot1 = slotFor(attributes.TIME_SLOT_REF1, 'TIME_SLOT_REF1');
        raw.slot2 = slotFor(attributes.TIME_SLOT_REF2, 'TIME_SLOT_REF2');
        raw.slot1.uses++;
        raw.slot2.uses++;
      } else {
        raw.ref = attributes.ANNOTATION_REF;
        if (!raw.ref) fail(element, where, 'an ANNOTATION_REF attribute naming the parent annotation');
        raw.previous = attributes.PREVIOUS_ANNOTATION;
      }
      list.push(raw);
      rawById.set(eafId, raw);
      tierOfId.set(eafId, tierElement.attributes.TIER_ID);

      function slotFor(id: string | undefined, attribute: string): Slot {
        const slot = id === undefined ? undefined : slots.get(id);
        if (!slot) return fail(element, where, `${attribute} naming a TIME_SLOT of the TIME_ORDER${id === undefined ? '' : `; "${id}" is not one`}`);
        return slot;
      }
    }
    rawByTier.set(tierElement.attributes.TIER_ID, list);
  });

  const milliseconds = (ms: number): RationalTime => (Number.isInteger(ms) && rate === 1000 ? new RationalTime(ms, 1000) : clock.seconds(`${ms}e-3`));
  const uuidOf = new Map<string, string>();
  const rawOfUuid = new Map<string, RawAnnotation>();
  const annotations: Annotation[] = [];
  const deferred: RawAnnotation[] = [];
  const annotatorOf = new Map(tiers.map((tier) => [tier.name, typeof tier.metadata.annotator === 'string' ? tier.metadata.annotator : undefined]));
  // ELAN's PARTICIPANT says who speaks on a tier: each of its annotations carries it as body.speaker.
  const speakerOf = new Map(tiers.flatMap((tier) => (typeof tier.metadata.participant === 'string' && tier.metadata.participant.trim() !== '' ? [[tier.name, tier.metadata.participant] as const] : [])));
  const provenanceOf = new Map<string, ReturnType<typeof importProvenance>>();
  const provenanceFor = (tier: string): ReturnType<typeof importProvenance> => {
    let provenance = provenanceOf.get(tier);
    if (!provenance) provenanceOf.set(tier, (provenance = importProvenance('eaf', options, annotatorOf.get(tier))));
    return provenance;
  };

  const emit = (tier: string, raw: RawAnnotation, interval?: TimeInterval, timeFields?: Record<string, unknown>): void => {
    const body: Record<string, unknown> = { text: raw.value, annotation_id: raw.eafId };
    const speaker = speakerOf.get(tier);
    if (speaker !== undefined) body.speaker = speaker;
    for (const [attribute, key] of ANNOTATION_ATTRIBUTE_KEYS) if (raw.element.attributes[attribute] !== undefined) body[key] = raw.element.attributes[attribute];
    if (timeFields) Object.assign(body, timeFields);
    const id = newAnnotationId();
    let reference;
    if (interval) reference = mediaRef(asset, interval);
    else reference = annotationRef(uuidOf.get(raw.ref as string) as string);
    annotations.push(makeAnnotation({ id, tier, reference, body, body_schema_uri: EAF_ANNOTATION_SCHEMA, provenance: provenanceFor(tier) }));
    uuidOf.set(raw.eafId, id);
    rawOfUuid.set(id, raw);
  };

  const tierByName = new Map(tiers.map((tier) => [tier.name, tier]));
  /**
   * A REF_ANNOTATION on a dependent tier must refer to an annotation of the parent tier (ELAN
   * allows nothing else); one that does not is an error finding and is left out, with whatever
   * refers to it in turn, like a reference to a missing annotation.
   */
  const emitReference = (tier: Tier, raw: RawAnnotation): void => {
    const targetTier = tierOfId.get(raw.ref as string);
    if (tier.parent === null) {
      options.report({
        code: 'unknown_target',
        severity: 'error',
        file,
        location: { ...lineAndColumn(text, raw.element.offset), path: raw.path },
        message: `REF_ANNOTATION ${raw.eafId} is on tier "${tier.name}", which has no parent tier (PARENT_REF) for it to refer into; left out`,
      });
      return;
    }
    if (targetTier !== tier.parent) {
      options.report({
        code: 'unknown_target',
        severity: 'error',
        file,
        location: { ...lineAndColumn(text, raw.element.offset), path: raw.path },
        message: `REF_ANNOTATION ${raw.eafId} on tier "${tier.name}" refers to ANNOTATION_REF="${raw.ref}", an annotation of tier "${targetTier}", not of its parent tier "${tier.parent}"; left out`,
      });
      return;
    }
    emit(tier.name, raw);
  };

  // Times given to unaligned slots, parents' tiers first (see resolveSlotTimes).
  const interpolated = new Map<Slot, number>();
  for (const tier of ordered) {
    const list = rawByTier.get(tier.name) ?? [];
    const times = resolveSlotTimes(list.flatMap((raw) => (raw.kind === 'alignable' ? [[raw.slot1 as Slot, raw.slot2 as Slot] as const] : [])), slotList, interpolated);
    for (const [slot, ms] of times) interpolated.set(slot, ms);
    for (const raw of list) {
      if (raw.kind !== 'alignable') continue;
      const slot1 = raw.slot1 as Slot;
      const slot2 = raw.slot2 as Slot;
      const startMs = slot1.value ?? (interpolated.get(slot1) as number);
      let endMs = slot2.value ?? (interpolated.get(slot2) as number);
      if (endMs < startMs) {
        if (slot1.value !== null && slot2.value !== null) fail(raw.element, raw.path, `an end (TIME_SLOT_REF2 "${slot2.id}" = ${slot2.value} ms) not before the start (TIME_SLOT_REF1 "${slot1.id}" = ${slot1.value} ms)`);
        endMs = startMs; // interpolation of unsorted slots; the slots stay unaligned on the way back
      }
      const timeFields: Record<string, unknown> = {};
      if (slot1.uses > 1 || slot2.uses > 1) timeFields.time_slots = [slot1.id, slot2.id];
      if (slot1.value === null || slot2.value === null) {
        const unaligned: Record<string, number> = {};
        if (slot1.value === null) unaligned.start = startMs;
        if (slot2.value === null) unaligned.end = endMs;
        timeFields.unaligned = unaligned;
      }
      const start = milliseconds(startMs);
      const interval = new TimeInterval(start, endMs === startMs ? start : milliseconds(endMs));
      emit(tier.name, raw, interval, timeFields);
    }
    for (const raw of symbolicOrder(list)) {
      if (uuidOf.has(raw.ref as string)) emitReference(tier, raw);
      else deferred.push(raw);
    }
  }
  // References to annotations on later tiers (only in files whose PARENT_REFs are inconsistent).
  // A reference to an annotation the document does not have is an error finding; the annotation
  // (and whatever refers to it in turn) is left out, the rest of the file is read.
  let pending = deferred;
  while (pending.length > 0) {
    const still = pending.filter((raw) => !uuidOf.has(raw.ref as string));
    if (still.length === pending.length) {
      for (const raw of still) {
        const missing = !still.some((other) => other.eafId === raw.ref);
        options.report({
          code: 'missing_reference',
          severity: 'error',
          file,
          location: { ...lineAndColumn(text, raw.element.offset), path: raw.path },
          message: missing
            ? `REF_ANNOTATION ${raw.eafId} refers to ANNOTATION_REF="${raw.ref}", which no annotation of the document has; left out`
            : `REF_ANNOTATION ${raw.eafId} refers to ${raw.ref}, which was left out (its own reference is missing); left out too`,
        });
      }
      break;
    }
    for (const raw of pending) if (uuidOf.has(raw.ref as string)) emitReference(tierByName.get(tierOfId.get(raw.eafId) as string) as Tier, raw);
    pending = still;
  }

  reportTierViolations(ordered, annotations, (id) => rawOfUuid.get(id), (raw, id, code, message) =>
    options.report({ code, severity: 'error', file, location: { ...lineAndColumn(text, raw.element.offset), path: raw.path }, message, annotation_id: id }),
  );
  const meta: Record<string, string> = { [EAF_DOCUMENT_META]: JSON.stringify(parts) };
  return { tiers: ordered, meta, annotations, clock };
}

/**
 * REF_ANNOTATIONs in the order ELAN shows them: annotations of one parent follow their
 * PREVIOUS_ANNOTATION chain; chains start where the file first mentions the parent.
 */
function symbolicOrder(list: readonly RawAnnotation[]): RawAnnotation[] {
  const refs = list.filter((raw) => raw.kind === 'ref');
  if (!refs.some((raw) => raw.previous !== undefined)) return refs;
  const byId = new Map(refs.map((raw) => [raw.eafId, raw]));
  const next = new Map<string, RawAnnotation>();
  for (const raw of refs) if (raw.previous !== undefined && byId.has(raw.previous) && !next.has(raw.previous)) next.set(raw.previous, raw);
  const out: RawAnnotation[] = [];
  const placed = new Set<RawAnnotation>();
  const follow = (first: RawAnnotation): void => {
    for (let raw: RawAnnotation | undefined = first; raw && !placed.has(raw); raw = next.get(raw.eafId)) {
      placed.add(raw);
      out.push(raw);
    }
  };
  for (const raw of refs) {
    const head = raw.previous === undefined || !byId.has(raw.previous) || next.get(raw.previous) !== raw;
    if (head) follow(raw);
  }
  for (const raw of refs) if (!placed.has(raw)) follow(raw); // cycles: file order
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
  rawOf: (id: string) => RawAnnotation | undefined,
  report: (raw: RawAnnotation, id: string, code: string, message: string) => void,
): void {
  if (!tiers.some((tier) => tier.parent !== null)) return;
  const byTier = new Map<string, Annotation[]>(tiers.map((tier) => [tier.name, []]));
  for (const annotation of annotations) byTier.get(annotation.tier)?.push(annotation);
  const tierByName = new Map(tiers.map((tier) => [tier.name, tier]));
  for (const tier of tiers) {
    if (tier.parent === null) continue;
    const parent = tierByName.get(tier.parent) ?? null;
    for (const violation of validateTierConstraint(tier, byTier.get(tier.name) ?? [], parent, parent ? byTier.get(parent.name) ?? [] : [])) {
      const raw = violation.annotation_id === null ? undefined : rawOf(violation.annotation_id);
      // The message names annotations by ELAN's ANNOTATION_ID, not the UUIDs the file never had.
      if (raw) report(raw, violation.annotation_id as string, violation.code, violation.message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => rawOf(id)?.eafId ?? id));
    }
  }
}

/** The symbolic stereotype a tier's REF_ANNOTATIONs imply, or null when it holds none. */
function guessSymbolic(tier: XmlElement): TierStereotype | null {
  const perParent = new Map<string, number>();
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
