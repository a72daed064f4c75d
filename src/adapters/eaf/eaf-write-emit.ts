import type { JsonValue } from '../../json/json-body.js';
import type { Tier } from '../../model/tier.js';
import { plainCueText } from '../plain-cue-text.js';
import { ANNOTATION_ATTRIBUTE_KEYS, CONSTRAINT_DESCRIPTIONS, CONSTRAINT_OF_STEREOTYPE, DEFAULT_ASSET_ID, TIER_ATTRIBUTE_KEYS, type PlainElement } from './eaf-model.js';
import type { EafWriteState, WrittenAnnotation } from './eaf-write-state.js';
import { attributeList, escapeAttribute, escapeText, type ChunkedWriter } from './xml-write.js';

/** Where EAF's schema puts each top-level element; unknown elements go last, in their order. */
const ELEMENT_ORDER = ['LICENSE', 'HEADER', 'TIME_ORDER', 'TIER', 'LINGUISTIC_TYPE', 'LOCALE', 'LANGUAGE', 'CONSTRAINT', 'CONTROLLED_VOCABULARY', 'LEXICON_REF', 'REF_LINK_SET', 'EXTERNAL_REF'];

type Attributes = Array<[string, string | undefined]>;

/**
 * The last pass: the document, in the element order of EAF's schema, streamed. The parts the
 * import kept are written back as they were, with a header naming the media and ELAN's
 * lastUsedAnnotationId past every id written, and the constraints the tiers use.
 */
export async function emitDocument(state: EafWriteState, writer: ChunkedWriter, now: Date): Promise<void> {
  const grouped = groupByName(state.parts?.elements ?? []);
  const rootAttributes = state.parts?.attributes ?? {
    AUTHOR: '',
    DATE: now.toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    FORMAT: '3.0',
    VERSION: '3.0',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    'xsi:noNamespaceSchemaLocation': 'http://www.mpi.nl/tools/elan/EAFv3.0.xsd',
  };
  await writer.write(`<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT${attributeList(Object.entries(rootAttributes))}>\n`);
  for (const element of grouped.get('LICENSE') ?? []) await writer.write(plainXml(element, 1));
  const header = grouped.get('HEADER')?.[0] ?? defaultHeader(state.mainAsset);
  await writer.write(plainXml(withLastUsedId(header, state.lastNumber, state.takenIds), 1));
  await emitTimeOrder(state, writer);
  for (const tier of state.tiers) await emitTier(state, tier, writer);
  for (const element of [...(grouped.get('LINGUISTIC_TYPE') ?? []), ...state.generatedTypes]) await writer.write(plainXml(element, 1));
  for (const name of ['LOCALE', 'LANGUAGE']) for (const element of grouped.get(name) ?? []) await writer.write(plainXml(element, 1));
  await emitConstraints(state, grouped.get('CONSTRAINT') ?? [], writer);
  for (const name of ELEMENT_ORDER.slice(ELEMENT_ORDER.indexOf('CONTROLLED_VOCABULARY'))) for (const element of grouped.get(name) ?? []) await writer.write(plainXml(element, 1));
  for (const [name, list] of grouped) if (!ELEMENT_ORDER.includes(name)) for (const element of list) await writer.write(plainXml(element, 1));
  await writer.write('</ANNOTATION_DOCUMENT>\n');
}

async function emitTimeOrder(state: EafWriteState, writer: ChunkedWriter): Promise<void> {
  await writer.write('    <TIME_ORDER>\n');
  for (const slot of state.orderedSlots) {
    await writer.write(`        <TIME_SLOT TIME_SLOT_ID="${escapeAttribute(slot.name)}"${slot.aligned ? ` TIME_VALUE="${slot.ms}"` : ''}/>\n`);
  }
  await writer.write('    </TIME_ORDER>\n');
}

async function emitTier(state: EafWriteState, tier: Tier, writer: ChunkedWriter): Promise<void> {
  const attributes = tierAttributes(state, tier);
  const list = state.written.get(tier.name) ?? [];
  if (list.length === 0) {
    await writer.write(`    <TIER${attributeList(attributes)}/>\n`);
    return;
  }
  await writer.write(`    <TIER${attributeList(attributes)}>\n`);
  for (const item of list) await writer.write(annotationXml(item));
  await writer.write('    </TIER>\n');
}

function tierAttributes(state: EafWriteState, tier: Tier): Attributes {
  const { metadata } = tier;
  const text = (key: string): string | undefined => (typeof metadata[key] === 'string' ? (metadata[key] as string) : undefined);
  const attributes: Attributes = [['TIER_ID', tier.name]];
  for (const [attribute, key] of TIER_ATTRIBUTE_KEYS) attributes.push([attribute, attribute === 'LINGUISTIC_TYPE_REF' ? state.typeOf.get(tier.name) : text(key)]);
  attributes.push(['PARENT_REF', parentRefOf(tier, state.tierByName)]);
  const others = metadata.other_attributes;
  if (typeof others === 'object' && others !== null && !Array.isArray(others)) {
    for (const [key, value] of Object.entries(others)) if (typeof value === 'string') attributes.push([key, value]);
  }
  return attributes;
}

/**
 * PARENT_REF as the file had it: the tier's parent, except for a tier the reader hung under the
 * tier its references point into (see parentsFromReferences), which gets its PARENT_REF back
 * while it still hangs there and that tier still exists, and for a tier the reader made
 * independent, which gets back the PARENT_REF it had.
 */
export function parentRefOf(tier: Tier, tierByName: ReadonlyMap<string, Tier>): string | undefined {
  const written = typeof tier.metadata.parent_ref === 'string' ? tier.metadata.parent_ref : undefined;
  if (tier.parent === null) return tier.metadata.stereotype_coerced === true ? written : undefined;
  if (written !== undefined && tier.metadata.parent_from_references === tier.parent && tierByName.has(written) && written !== tier.name) return written;
  return tier.parent;
}

function annotationXml(item: WrittenAnnotation): string {
  const { body } = item.annotation;
  const extra: Attributes = ANNOTATION_ATTRIBUTE_KEYS.map(([attribute, key]) => [attribute, typeof body[key] === 'string' ? (body[key] as string) : undefined]);
  const value = escapeText(plainCueText(item.annotation) ?? textOf(body.text));
  const [element, attributes]: [string, Attributes] =
    item.ref !== undefined
      ? ['REF_ANNOTATION', [['ANNOTATION_ID', item.eafId], ['ANNOTATION_REF', item.ref], ['PREVIOUS_ANNOTATION', item.previous], ...extra]]
      : ['ALIGNABLE_ANNOTATION', [['ANNOTATION_ID', item.eafId], ['TIME_SLOT_REF1', item.slot1], ['TIME_SLOT_REF2', item.slot2], ...extra]];
  return `        <ANNOTATION>\n            <${element}${attributeList(attributes)}>\n                <ANNOTATION_VALUE>${value}</ANNOTATION_VALUE>\n            </${element}>\n        </ANNOTATION>\n`;
}

/** The CONSTRAINTs kept, then ELAN's own for those the tiers use that the document lacks (all four for a new document). */
async function emitConstraints(state: EafWriteState, constraints: readonly PlainElement[], writer: ChunkedWriter): Promise<void> {
  const present = new Set(constraints.map((element) => element.attributes.STEREOTYPE));
  const needed = CONSTRAINT_DESCRIPTIONS.filter(([stereotype]) => !present.has(stereotype) && (state.parts === null || state.tiers.some((tier) => CONSTRAINT_OF_STEREOTYPE[tier.stereotype] === stereotype)));
  for (const element of constraints) await writer.write(plainXml(element, 1));
  for (const [stereotype, description] of needed) await writer.write(`    <CONSTRAINT${attributeList([['DESCRIPTION', description], ['STEREOTYPE', stereotype]])}/>\n`);
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
function withLastUsedId(header: PlainElement, highest: number, taken: ReadonlySet<string>): PlainElement {
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

function textOf(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
