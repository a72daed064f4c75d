import type { Annotation } from '../../model/annotation.js';
import type { JsonValue } from '../../json/json-body.js';
import type { Tier, TierStereotype } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import type { RationalTime } from '../../time/rational-time.js';
import type { TimeInterval } from '../../time/time-interval.js';
import type { DumpReport } from '../adapter.js';
import { bodyText, bodyTextKey } from '../flat-cues.js';
import { parentsFirst } from '../load-into-store.js';
import {
  ANNOTATION_ATTRIBUTE_KEYS,
  CONSTRAINT_DESCRIPTIONS,
  CONSTRAINT_OF_STEREOTYPE,
  DEFAULT_ASSET_ID,
  EAF_DOCUMENT_META,
  TIER_ATTRIBUTE_KEYS,
  type DocumentParts,
  type PlainElement,
} from './eaf-model.js';
import { resolveSlotTimes, type SlotPosition } from './slot-times.js';
import { attributeList, ChunkedWriter, escapeAttribute, escapeText } from './xml-write.js';

/** Body keys the EAF format keeps; any other body field is reported as dropped. */
const KEPT_BODY_KEYS = new Set(['text', 'speaker', 'annotation_id', 'time_slots', 'unaligned', ...ANNOTATION_ATTRIBUTE_KEYS.map(([, key]) => key)]);

/** Where EAF's schema puts each top-level element; unknown elements go last, in their order. */
const ELEMENT_ORDER = ['LICENSE', 'HEADER', 'TIME_ORDER', 'TIER', 'LINGUISTIC_TYPE', 'LOCALE', 'LANGUAGE', 'CONSTRAINT', 'CONTROLLED_VOCABULARY', 'LEXICON_REF', 'REF_LINK_SET', 'EXTERNAL_REF'];

const SYMBOLIC = new Set<TierStereotype>(['SYMBOLIC_SUBDIVISION', 'SYMBOLIC_ASSOCIATION']);

interface SlotOut {
  name: string;
  ms: number;
  aligned: boolean;
  order: number;
}

interface Counter {
  [what: string]: number;
}

/**
 * Writes a store as an EAF 3.0 document. Document parts the import kept in store meta (header,
 * linguistic types, vocabularies, locales, languages, licences, external references) are written
 * back as they were; tiers without a matching linguistic type get one generated for their
 * stereotype. Time slots are generated: one per distinct slot a body names (shared slots stay
 * shared), fresh ones otherwise, unaligned ones without TIME_VALUE, ordered by time.
 */
export async function writeEaf(store: AnnotationStore, path: string, now: Date = new Date()): Promise<DumpReport> {
  const dropped: Counter = {};
  const drop = (what: string, count = 1): void => {
    dropped[what] = (dropped[what] ?? 0) + count;
  };
  const tiers = await store.listTiers();
  const parts = readParts(await store.getMeta(EAF_DOCUMENT_META));
  const tierByName = new Map(tiers.map((tier) => [tier.name, tier]));
  const byTier = new Map<string, Annotation[]>(tiers.map((tier) => [tier.name, []]));
  const byId = new Map<string, Annotation>();
  const reservedIds = new Set<string>();
  const reservedSlots = new Set<string>();
  let total = 0;
  for await (const annotation of store.all()) {
    total++;
    byId.set(annotation.id, annotation);
    let list = byTier.get(annotation.tier);
    if (!list) byTier.set(annotation.tier, (list = []));
    list.push(annotation);
    const eafId = annotation.body.annotation_id;
    if (typeof eafId === 'string') reservedIds.add(eafId);
    const slots = annotation.body.time_slots;
    if (Array.isArray(slots)) for (const slot of slots) if (typeof slot === 'string') reservedSlots.add(slot);
    if (annotation.confidence !== null) drop('confidence');
    const textKey = bodyTextKey(annotation.body);
    if (Object.keys(annotation.body).some((key) => !KEPT_BODY_KEYS.has(key) && key !== textKey)) drop('body fields other than the text (text, label or value) and ELAN attributes');
  }
  if (total > 0) {
    drop('provenance', total);
    drop('annotation ids (UUIDs; ELAN ANNOTATION_IDs are kept)', total);
  }
  // Tiers named by annotations but never declared are written as independent tiers.
  for (const name of byTier.keys()) {
    if (!tierByName.has(name)) {
      const tier: Tier = { name, stereotype: 'NONE', parent: null, metadata: {} };
      tiers.push(tier);
      tierByName.set(name, tier);
    }
  }

  splitBySpeaker(tiers, tierByName, byTier);

  // ELAN ids: the body's annotation_id when it is free, else a fresh a<n>.
  const eafIdOf = new Map<string, string>();
  const taken = new Set<string>();
  let nextNumber = 0;
  for (const id of reservedIds) {
    const number = /^a(\d+)$/.exec(id);
    if (number) nextNumber = Math.max(nextNumber, Number(number[1]));
  }
  for (const list of byTier.values()) {
    for (const annotation of list) {
      const wanted = annotation.body.annotation_id;
      let eafId: string;
      if (typeof wanted === 'string' && wanted !== '' && !taken.has(wanted)) eafId = wanted;
      else {
        do eafId = `a${++nextNumber}`;
        while (reservedIds.has(eafId) || taken.has(eafId));
      }
      taken.add(eafId);
      eafIdOf.set(annotation.id, eafId);
    }
  }

  // Time-aligned annotations and their slots.
  const slots = new Map<string, SlotOut>();
  let freshSlot = 0;
  const slotFor = (wanted: JsonValue | undefined, ms: number, aligned: boolean): string => {
    if (typeof wanted === 'string' && wanted !== '') {
      const existing = slots.get(wanted);
      if (existing === undefined) {
        slots.set(wanted, { name: wanted, ms, aligned, order: slots.size });
        return wanted;
      }
      if (existing.ms === ms && existing.aligned === aligned) return wanted;
    }
    let name: string;
    do name = `ts${++freshSlot}`;
    while (reservedSlots.has(name) || slots.has(name));
    slots.set(name, { name, ms, aligned, order: slots.size });
    return name;
  };
  let subMillisecond = 0;
  const toMs = (time: RationalTime): number => {
    const scaled = time.v * 1000;
    if (Number.isSafeInteger(scaled) && scaled % time.r === 0) return scaled / time.r;
    subMillisecond++;
    return Math.round((time.v / time.r) * 1000);
  };
  const intervalOf = (annotation: Annotation, seen = new Set<string>()): TimeInterval | null => {
    if (annotation.reference.kind === 'media') return annotation.reference.interval;
    if (seen.has(annotation.id)) return null;
    seen.add(annotation.id);
    const target = byId.get(annotation.reference.target_id);
    return target ? intervalOf(target, seen) : null;
  };

  interface Written {
    annotation: Annotation;
    eafId: string;
    slot1?: string;
    slot2?: string;
    ref?: string;
    previous?: string;
  }
  const written = new Map<string, Written[]>();
  const assets = new Map<string, number>();
  for (const tier of tiers) {
    const out: Written[] = [];
    const symbolic = SYMBOLIC.has(tier.stereotype);
    const lastChildOf = new Map<string, string>();
    for (const annotation of byTier.get(tier.name) ?? []) {
      const eafId = eafIdOf.get(annotation.id) as string;
      if (symbolic) {
        if (annotation.reference.kind !== 'annotation') {
          drop('time-aligned annotations on symbolic tiers');
          continue;
        }
        const target = eafIdOf.get(annotation.reference.target_id);
        if (target === undefined) {
          drop('references to annotations not in the store');
          continue;
        }
        const previous = tier.stereotype === 'SYMBOLIC_SUBDIVISION' ? lastChildOf.get(target) : undefined;
        lastChildOf.set(target, eafId);
        out.push({ annotation, eafId, ref: target, previous });
        continue;
      }
      const interval = intervalOf(annotation);
      if (interval === null) {
        drop('references to annotations not in the store');
        continue;
      }
      if (annotation.reference.kind === 'annotation') drop('symbolic annotations on time-aligned tiers (written with their target\'s time)');
      else assets.set(annotation.reference.asset_id, (assets.get(annotation.reference.asset_id) ?? 0) + 1);
      const startMs = toMs(interval.start);
      const endMs = toMs(interval.end);
      const unaligned = annotation.body.unaligned;
      const isUnaligned = (side: 'start' | 'end', ms: number): boolean =>
        typeof unaligned === 'object' && unaligned !== null && !Array.isArray(unaligned) && (unaligned as Record<string, JsonValue>)[side] === ms;
      const names = Array.isArray(annotation.body.time_slots) ? annotation.body.time_slots : [];
      const slot1 = slotFor(names[0], startMs, !isUnaligned('start', startMs));
      const slot2 = slotFor(names[1], endMs, !isUnaligned('end', endMs));
      out.push({ annotation, eafId, slot1, slot2 });
    }
    written.set(tier.name, out);
  }
  if (subMillisecond > 0) drop('sub-millisecond times (rounded to the nearest millisecond)', subMillisecond);

  // The media: the header kept from the import, else the most used asset.
  const mainAsset = [...assets.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (mainAsset !== undefined) {
    const others = [...assets.entries()].filter(([asset]) => asset !== mainAsset).reduce((sum, [, count]) => sum + count, 0);
    if (others > 0) drop('asset ids other than the main media (EAF has one timeline)', others);
  }

  const elements = parts?.elements ?? [];
  const savedTypes = new Map(elements.filter((element) => element.name === 'LINGUISTIC_TYPE').map((element) => [element.attributes.LINGUISTIC_TYPE_ID, element]));
  const generatedTypes: PlainElement[] = [];
  const typeOf = new Map<string, string>();
  for (const tier of tiers) typeOf.set(tier.name, linguisticTypeFor(tier, savedTypes, generatedTypes));

  const writer = new ChunkedWriter(path);
  const rootAttributes = parts?.attributes ?? {
    AUTHOR: '',
    DATE: now.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    FORMAT: '3.0',
    VERSION: '3.0',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:noNamespaceSchemaLocation': 'http://www.mpi.nl/tools/elan/EAFv3.0.xsd',
  };
  await writer.write(`<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT${attributeList(Object.entries(rootAttributes))}>\n`);
  const grouped = groupByName(elements);
  for (const element of grouped.get('LICENSE') ?? []) await writer.write(plainXml(element, 1));
  const header = grouped.get('HEADER')?.[0] ?? defaultHeader(mainAsset);
  await writer.write(plainXml(withLastUsedId(header, nextNumber, taken), 1));

  await writer.write('    <TIME_ORDER>\n');
  const ordered = [...slots.values()].sort((a, b) => a.ms - b.ms || slotNumber(a) - slotNumber(b) || a.order - b.order);
  const realigned = alignWhereInterpolationDiffers(ordered, slots, parentsFirst(tiers).map((tier) => written.get(tier.name) ?? []));
  if (realigned > 0) drop('unaligned time slots whose time the neighbouring slots no longer give (written aligned)', realigned);
  for (const slot of ordered) {
    await writer.write(`        <TIME_SLOT TIME_SLOT_ID="${escapeAttribute(slot.name)}"${slot.aligned ? ` TIME_VALUE="${slot.ms}"` : ''}/>\n`);
  }
  await writer.write('    </TIME_ORDER>\n');

  for (const tier of tiers) {
    const metadata = tier.metadata;
    const text = (key: string): string | undefined => (typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
    const attributes: Array<[string, string | undefined]> = [['TIER_ID', tier.name]];
    for (const [attribute, key] of TIER_ATTRIBUTE_KEYS) attributes.push([attribute, attribute === 'LINGUISTIC_TYPE_REF' ? typeOf.get(tier.name) : text(key)]);
    attributes.push(['PARENT_REF', parentRefOf(tier, tierByName)]);
    const others = metadata.other_attributes;
    if (typeof others === 'object' && others !== null && !Array.isArray(others)) {
      for (const [key, value] of Object.entries(others)) if (typeof value === 'string') attributes.push([key, value]);
    }
    const list = written.get(tier.name) ?? [];
    if (list.length === 0) {
      await writer.write(`    <TIER${attributeList(attributes)}/>\n`);
      continue;
    }
    await writer.write(`    <TIER${attributeList(attributes)}>\n`);
    for (const item of list) {
      const body = item.annotation.body;
      const extra: Array<[string, string | undefined]> = ANNOTATION_ATTRIBUTE_KEYS.map(([attribute, key]) => [attribute, typeof body[key] === 'string' ? (body[key] as string) : undefined]);
      const value = escapeText(bodyTextKey(body) !== null ? (bodyText(body) as string) : textOf(body.text));
      if (item.ref !== undefined) {
        const refAttributes: Array<[string, string | undefined]> = [['ANNOTATION_ID', item.eafId], ['ANNOTATION_REF', item.ref], ['PREVIOUS_ANNOTATION', item.previous], ...extra];
        await writer.write(`        <ANNOTATION>\n            <REF_ANNOTATION${attributeList(refAttributes)}>\n                <ANNOTATION_VALUE>${value}</ANNOTATION_VALUE>\n            </REF_ANNOTATION>\n        </ANNOTATION>\n`);
      } else {
        const alignAttributes: Array<[string, string | undefined]> = [['ANNOTATION_ID', item.eafId], ['TIME_SLOT_REF1', item.slot1], ['TIME_SLOT_REF2', item.slot2], ...extra];
        await writer.write(`        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION${attributeList(alignAttributes)}>\n                <ANNOTATION_VALUE>${value}</ANNOTATION_VALUE>\n            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>\n`);
      }
    }
    await writer.write('    </TIER>\n');
  }

  for (const element of [...(grouped.get('LINGUISTIC_TYPE') ?? []), ...generatedTypes]) await writer.write(plainXml(element, 1));
  for (const name of ['LOCALE', 'LANGUAGE']) for (const element of grouped.get(name) ?? []) await writer.write(plainXml(element, 1));
  const constraints = grouped.get('CONSTRAINT') ?? [];
  const presentConstraints = new Set(constraints.map((element) => element.attributes.STEREOTYPE));
  const neededConstraints = CONSTRAINT_DESCRIPTIONS.filter(([stereotype]) => !presentConstraints.has(stereotype) && (parts === null || tiers.some((tier) => CONSTRAINT_OF_STEREOTYPE[tier.stereotype] === stereotype)));
  for (const element of constraints) await writer.write(plainXml(element, 1));
  for (const [stereotype, description] of neededConstraints) await writer.write(`    <CONSTRAINT${attributeList([['DESCRIPTION', description], ['STEREOTYPE', stereotype]])}/>\n`);
  for (const name of ELEMENT_ORDER.slice(ELEMENT_ORDER.indexOf('CONTROLLED_VOCABULARY'))) for (const element of grouped.get(name) ?? []) await writer.write(plainXml(element, 1));
  for (const [name, list] of grouped) if (!ELEMENT_ORDER.includes(name)) for (const element of list) await writer.write(plainXml(element, 1));
  await writer.write('</ANNOTATION_DOCUMENT>\n');
  await writer.close();
  return { dropped: Object.entries(dropped).map(([what, count]) => ({ what, count })) };
}

/**
 * PARENT_REF as the file had it: the tier's parent, except for a tier the reader hung under the
 * tier its references point into (see parentsFromReferences), which gets its PARENT_REF back
 * while it still hangs there and that tier still exists, and for a tier the reader made
 * independent, which gets back the PARENT_REF it had.
 */
function parentRefOf(tier: Tier, tierByName: ReadonlyMap<string, Tier>): string | undefined {
  const written = typeof tier.metadata.parent_ref === 'string' ? tier.metadata.parent_ref : undefined;
  if (tier.parent === null) return tier.metadata.stereotype_coerced === true ? written : undefined;
  if (written !== undefined && tier.metadata.parent_from_references === tier.parent && tierByName.has(written) && written !== tier.name) return written;
  return tier.parent;
}

function readParts(raw: string | null): DocumentParts | null {
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as DocumentParts;
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.attributes === 'object' && Array.isArray(parsed.elements)) return parsed;
  } catch {
    // A damaged entry is ignored: the document is written from the tiers alone.
  }
  return null;
}

/**
 * The linguistic type a tier is written with: the one it came with when that one still says the
 * tier's constraint (or the import had to relax the tier), else one generated per stereotype and
 * controlled vocabulary.
 */
function linguisticTypeFor(tier: Tier, saved: Map<string, PlainElement>, generated: PlainElement[]): string {
  const constraint = CONSTRAINT_OF_STEREOTYPE[tier.stereotype];
  const wanted = typeof tier.metadata.linguistic_type === 'string' ? tier.metadata.linguistic_type : undefined;
  const vocabulary = typeof tier.metadata.controlled_vocabulary === 'string' ? tier.metadata.controlled_vocabulary : undefined;
  if (wanted !== undefined) {
    const type = saved.get(wanted);
    if (type && ((type.attributes.CONSTRAINTS ?? null) === constraint || tier.metadata.stereotype_coerced === true)) return wanted;
  }
  const matches = (element: PlainElement): boolean => (element.attributes.CONSTRAINTS ?? null) === constraint && element.attributes.CONTROLLED_VOCABULARY_REF === vocabulary;
  const existing = generated.find(matches);
  if (existing) return existing.attributes.LINGUISTIC_TYPE_ID;
  const base = wanted !== undefined && !saved.has(wanted) && !generated.some((element) => element.attributes.LINGUISTIC_TYPE_ID === wanted) ? wanted : `lt_${tier.stereotype.toLowerCase()}${vocabulary ? `_${vocabulary}` : ''}`;
  let id = base;
  for (let n = 2; saved.has(id) || generated.some((element) => element.attributes.LINGUISTIC_TYPE_ID === id); n++) id = `${base}_${n}`;
  const attributes: Record<string, string> = {};
  if (constraint) attributes.CONSTRAINTS = constraint;
  if (vocabulary) attributes.CONTROLLED_VOCABULARY_REF = vocabulary;
  attributes.GRAPHIC_REFERENCES = 'false';
  attributes.LINGUISTIC_TYPE_ID = id;
  attributes.TIME_ALIGNABLE = SYMBOLIC.has(tier.stereotype) ? 'false' : 'true';
  generated.push({ name: 'LINGUISTIC_TYPE', attributes });
  return id;
}

const MIME_TYPES: Readonly<Record<string, string>> = { wav: 'audio/x-wav', mp3: 'audio/mpeg', mp4: 'video/mp4', mpg: 'video/mpeg', mpeg: 'video/mpeg', mov: 'video/quicktime', ogg: 'audio/ogg', webm: 'video/webm' };

function defaultHeader(asset: string | undefined): PlainElement {
  const children: PlainElement[] = [];
  if (asset !== undefined && asset !== DEFAULT_ASSET_ID) {
    const extension = /\.([A-Za-z0-9]+)$/.exec(asset)?.[1]?.toLowerCase() ?? '';
    children.push({ name: 'MEDIA_DESCRIPTOR', attributes: { MEDIA_URL: asset, MIME_TYPE: MIME_TYPES[extension] ?? 'unknown' } });
  }
  children.push({ name: 'PROPERTY', attributes: { NAME: 'lastUsedAnnotationId' }, text: '0' });
  return { name: 'HEADER', attributes: { MEDIA_FILE: '', TIME_UNITS: 'milliseconds' }, children };
}

/** ELAN numbers new annotations from lastUsedAnnotationId: keep it past every a<n> id written. */
function withLastUsedId(header: PlainElement, highest: number, taken: Set<string>): PlainElement {
  const children = header.children ?? [];
  let max = highest;
  for (const id of taken) {
    const number = /^a(\d+)$/.exec(id);
    if (number) max = Math.max(max, Number(number[1]));
  }
  const updated = children.map((child) => {
    if (child.name !== 'PROPERTY' || child.attributes.NAME !== 'lastUsedAnnotationId') return child;
    const current = Number(child.text ?? '0');
    return Number.isFinite(current) && current >= max ? child : { ...child, text: String(max) };
  });
  return { ...header, children: updated };
}

function groupByName(elements: readonly PlainElement[]): Map<string, PlainElement[]> {
  const grouped = new Map<string, PlainElement[]>();
  for (const element of elements) {
    let list = grouped.get(element.name);
    if (!list) grouped.set(element.name, (list = []));
    list.push(element);
  }
  return grouped;
}

function plainXml(element: PlainElement, depth: number): string {
  const indent = '    '.repeat(depth);
  const open = `${indent}<${element.name}${attributeList(Object.entries(element.attributes))}`;
  if (element.children && element.children.length > 0) {
    return `${open}>\n${element.children.map((child) => plainXml(child, depth + 1)).join('')}${indent}</${element.name}>\n`;
  }
  if (element.text !== undefined && element.text !== '') return `${open}>${escapeText(element.text)}</${element.name}>\n`;
  return `${open}/>\n`;
}

/**
 * An unaligned slot is read back at the time interpolated from its neighbours in the TIME_ORDER
 * (see resolveSlotTimes); one whose own time that would not give (an edit, or a damaged file whose
 * slots were out of order) is written aligned instead. Aligning one slot changes what its unaligned
 * neighbours get, so this repeats until nothing changes. Returns how many were aligned.
 */
function alignWhereInterpolationDiffers(ordered: readonly SlotOut[], slots: ReadonlyMap<string, SlotOut>, tiersInReadOrder: ReadonlyArray<ReadonlyArray<{ slot1?: string; slot2?: string }>>): number {
  let aligned = 0;
  const indexOf = new Map(ordered.map((slot, index) => [slot, index]));
  while (ordered.some((slot) => !slot.aligned)) {
    const all = ordered.map((slot, index) => ({ index, value: slot.aligned ? slot.ms : null }));
    const positionOf = (name: string | undefined): SlotPosition => all[indexOf.get(slots.get(name as string) as SlotOut) as number];
    let changed = false;
    const known = new Map<SlotPosition, number>();
    for (const list of tiersInReadOrder) {
      const pairs = list.filter((item) => item.slot1 !== undefined).map((item) => [positionOf(item.slot1), positionOf(item.slot2)] as const);
      for (const [position, ms] of resolveSlotTimes(pairs, all, known)) {
        known.set(position, ms);
        const slot = ordered[position.index];
        if (!slot.aligned && slot.ms !== ms) {
          slot.aligned = true;
          aligned++;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return aligned;
}

function slotNumber(slot: SlotOut): number {
  const number = /^ts(\d+)$/.exec(slot.name);
  return number ? Number(number[1]) : Number.MAX_SAFE_INTEGER;
}

/**
 * ELAN keeps who speaks on the tier (PARTICIPANT), not on the annotation: annotations whose
 * body.speaker differs from their tier's participant move to one tier per speaker, named
 * `tier (speaker)`, with PARTICIPANT set (a tier all of one speaker and without a participant just
 * takes it). Only independent tiers that no tier depends on are split, so no reference breaks.
 * The reader gives each annotation its tier's participant back as body.speaker.
 */
function splitBySpeaker(tiers: Tier[], tierByName: Map<string, Tier>, byTier: Map<string, Annotation[]>): void {
  const parents = new Set(tiers.map((tier) => tier.parent).filter((parent): parent is string => parent !== null));
  for (let index = 0; index < tiers.length; index++) {
    const tier = tiers[index];
    if (tier.stereotype !== 'NONE' || parents.has(tier.name)) continue;
    const own = typeof tier.metadata.participant === 'string' && tier.metadata.participant !== '' ? tier.metadata.participant : undefined;
    const stay: Annotation[] = [];
    const bySpeaker = new Map<string, Annotation[]>();
    for (const annotation of byTier.get(tier.name) ?? []) {
      const speaker = annotation.body.speaker;
      if (typeof speaker !== 'string' || speaker === '' || speaker === own) stay.push(annotation);
      else bySpeaker.set(speaker, [...(bySpeaker.get(speaker) ?? []), annotation]);
    }
    if (bySpeaker.size === 0) continue;
    if (stay.length === 0 && bySpeaker.size === 1 && own === undefined) {
      const withParticipant: Tier = { ...tier, metadata: { ...tier.metadata, participant: [...bySpeaker.keys()][0] } };
      tiers[index] = withParticipant;
      tierByName.set(tier.name, withParticipant);
      continue;
    }
    byTier.set(tier.name, stay);
    for (const [speaker, list] of bySpeaker) {
      let name = `${tier.name} (${speaker})`;
      for (let n = 2; tierByName.has(name); n++) name = `${tier.name} (${speaker}) ${n}`;
      const speakerTier: Tier = { name, stereotype: 'NONE', parent: null, metadata: { ...tier.metadata, participant: speaker } };
      tiers.splice(++index, 0, speakerTier);
      tierByName.set(name, speakerTier);
      byTier.set(name, list);
    }
  }
}

function textOf(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
