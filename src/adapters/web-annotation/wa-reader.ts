import { makeAnnotation, mediaRef, type Annotation } from '../../model/annotation.js';
import { isUuid, newAnnotationId, normalizeUuid } from '../../model/ids.js';
import { makeTier } from '../../model/tier.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { LoadedDocument, LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { placedInFile } from '../refusal-place.js';
import { decimalRateFor, ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { escapePointer, LazyJsonArray, MAX_JSON_DEPTH, parseJson, parseJsonText } from '../json-text.js';
import { decodeSource } from '../source-text.js';
import { MediaFragmentError, temporalFragment, type TemporalFragment } from './media-fragment.js';

import { WEB_ANNOTATION_SCHEMA } from './annotation-schema.js';

export { WEB_ANNOTATION_SCHEMA };
export const WEB_ANNOTATION_DEFAULT_ASSET = 'web-annotation:unspecified';
export const WEB_ANNOTATION_DEFAULT_TIER = 'annotations';
export const W3C_CONTEXT = 'http://www.w3.org/ns/anno.jsonld';

/** Store meta keys: the document around the annotations, and the annotations that have no time. */
export const WEB_ANNOTATION_META = { document: 'web_annotation.document', untimed: 'web_annotation.untimed' } as const;

/** How the annotations sat in the file, so the writer can put them back the same way. */
export type DocumentShape = 'annotation' | 'list' | 'page' | 'collection-items' | 'collection-first' | 'embedded';

export interface DocumentMeta {
  readonly shape: DocumentShape;
  /** The collection or page without its items (for collection-first: without first.items). */
  readonly wrapper?: Record<string, unknown>;
}

export interface FoundTime {
  /** JSON pointer within the target to the string holding the fragment. */
  readonly pointer: string;
  readonly fragment: string;
  readonly inIri: boolean;
  readonly temporal: TemporalFragment;
}

/** An item of the document's annotation list, and where it sits. */
interface Item {
  readonly value: unknown;
  readonly path: string;
}

/**
 * Reads W3C Web Annotations: one annotation, a list, an AnnotationPage, an AnnotationCollection
 * with `items` or an embedded `first` page, or annotations embedded in another JSON-LD document
 * (a IIIF manifest's canvases). An annotation whose target carries a media-fragment time becomes
 * an annotation on one tier (`--tier`, default "annotations"); its target's source is the asset.
 *
 * Annotations without a time (a whole video, an image region, a text selector) are not turned
 * into annotations: the model anchors every annotation in an interval of a medium or in another
 * annotation, and a point at 0 s would claim a time the source never gave. They are kept verbatim
 * in store meta `web_annotation.untimed`, with their position, and the writer gives them back.
 */
export function readWebAnnotation(bytes: Buffer, options: LoadOptions): LoadedDocument {
  return readWebAnnotationText(decodeSource(bytes, options), options);
}

/**
 * readWebAnnotation from the decoded text, for a caller that lets go of the file's bytes first:
 * they would otherwise stay in memory beside the text through both passes.
 */
export function readWebAnnotationText(text: string, options: LoadOptions): LoadedDocument {
  const file = options.sourceName;
  // The annotation lists (a million items in a big file) stay text until read, one annotation at
  // a time, on each of the two passes below; a document of any other shape is parsed plainly.
  let document = parseJson(text, file, 'refuse', MAX_JSON_DEPTH, isAnnotationList);
  if (!(document instanceof LazyJsonArray) && !(isObject(document) && typesOf(document).some((type) => type === 'AnnotationCollection' || type === 'AnnotationPage'))) {
    document = parseJsonText(text, file);
  }
  const { items, meta } = annotationsOf(document, file);
  const untimed: Array<{ index: number; annotation: unknown }> = [];
  let timedCount = 0;
  // First pass: checks every target's time, reports empty selectors, keeps the untimed items and
  // finds the rate the times need; the annotations are made on the second pass, in generate.
  function* allTimes(): Generator<string> {
    let index = -1;
    for (const { value, path } of items()) {
      index++;
      const time = isObject(value) ? findTime(value.target, '', `${path}.target`, file) : null;
      if (time === null && isObject(value)) reportEmptySelectors(value.target, `${pointerOf(path)}/target`, file, options);
      if (time === null || !isObject(value)) untimed.push({ index, annotation: value });
      else {
        timedCount++;
        yield time.temporal.start;
        yield time.temporal.end ?? '0';
      }
    }
  }
  const neededRate = decimalRateFor(allTimes());
  if (untimed.length > 0) {
    options.report({ code: 'untimed_items_kept', severity: 'warning', file, location: {}, message: `${untimed.length} annotations have no media-fragment time (t=); they are kept verbatim in store meta ${WEB_ANNOTATION_META.untimed} and written back, but are not annotations` });
  }

  const tier = options.tier ?? WEB_ANNOTATION_DEFAULT_TIER;
  const clock = new ImportClock(options.rate ?? neededRate, options.strictTime);
  const storeMeta: Record<string, string> = { [WEB_ANNOTATION_META.document]: JSON.stringify(meta) };
  if (untimed.length > 0) storeMeta[WEB_ANNOTATION_META.untimed] = JSON.stringify(untimed);
  const usedIds = new Set<string>();

  // The annotation being read: where a refusal of it is named.
  let placePath = '$';
  async function* generate(): AsyncGenerator<Annotation> {
    for (const { value: annotation, path } of items()) {
      placePath = path;
      const time = isObject(annotation) ? findTime(annotation.target, '', `${path}.target`, file) : null;
      if (time === null || !isObject(annotation)) continue;
      const asset = options.assetId ?? assetOf(annotation.target, time);
      const start = clock.seconds(time.temporal.start, `${path}.target${time.pointer}`);
      const end = time.temporal.end === null ? start : clock.seconds(time.temporal.end, `${path}.target${time.pointer}`);
      const { id: sourceId, target, ...rest } = annotation;
      let id = typeof sourceId === 'string' ? uuidOf(sourceId) : null;
      const body: Record<string, unknown> = {};
      if (id === null || usedIds.has(id)) {
        id = newAnnotationId();
        if (typeof sourceId === 'string') body.source_id = sourceId;
      }
      usedIds.add(id);
      body.annotation = sourceId === undefined || typeof sourceId === 'string' ? rest : { id: sourceId, ...rest };
      body.target = target;
      body.time = { pointer: time.pointer, fragment: time.fragment, ...(time.inIri ? { in_iri: true } : {}), ...(time.temporal.end === null ? { open_ended: true } : {}) };
      let built: Annotation;
      try {
        built = makeAnnotation({ id, tier, reference: mediaRef(asset, new TimeInterval(start, end)), body, body_schema_uri: WEB_ANNOTATION_SCHEMA, provenance: importProvenance('web_annotation', options, creatorOf(annotation.creator)) });
      } catch (error) {
        throw placedInFile(error, file, { path });
      }
      yield built;
    }
  }

  return {
    tiers: timedCount > 0 ? [makeTier({ name: tier })] : [],
    meta: storeMeta,
    annotations: generate(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ path: placePath }),
    placeOfMeta: () => ({ path: '$' }),
  };
}

/** `urn:uuid:<uuid>` (or a bare UUID) as an annotation id; null for any other id. */
export function uuidOf(id: string): string | null {
  const bare = id.toLowerCase().startsWith('urn:uuid:') ? id.slice(9) : id;
  return isUuid(bare) ? normalizeUuid(bare) : null;
}

/** Where the annotation lists of the list, page and collection shapes sit (see annotationsOf). */
function isAnnotationList(path: readonly (string | number)[]): boolean {
  return path.length === 0 || (path.length === 1 && path[0] === 'items') || (path.length === 2 && path[0] === 'first' && path[1] === 'items');
}

/** The annotation items of the document, as a function that reads them afresh on each call. */
function annotationsOf(document: unknown, file: string): { items: () => Iterable<Item>; meta: DocumentMeta } {
  const list = (values: unknown, path: string) =>
    function* items(): Generator<Item> {
      if (!Array.isArray(values) && !(values instanceof LazyJsonArray)) return;
      let index = 0;
      for (const value of values as Iterable<unknown>) yield { value, path: `${path}[${index++}]` };
    };
  const listed = (found: Item[]) => () => found;
  if (Array.isArray(document) || document instanceof LazyJsonArray) return { items: list(document, '$'), meta: { shape: 'list' } };
  if (!isObject(document)) throw new FormatParseError(file, { path: '$' }, 'expected a W3C Web Annotation, an AnnotationPage or an AnnotationCollection (a JSON object)');
  const types = typesOf(document);
  if (types.includes('Annotation') || (!types.length && 'target' in document)) return { items: listed([{ value: plainJson(document), path: '$' }]), meta: { shape: 'annotation' } };
  if (types.includes('AnnotationCollection')) {
    if (isObject(document.first)) {
      const { items, ...firstRest } = document.first;
      const { first: _first, ...rest } = document;
      return { items: list(items, '$.first.items'), meta: { shape: 'collection-first', wrapper: plainJson({ ...rest, first: firstRest }) as Record<string, unknown> } };
    }
    const { items, ...rest } = document;
    return { items: list(items, '$.items'), meta: { shape: 'collection-items', wrapper: plainJson(rest) as Record<string, unknown> } };
  }
  if (types.includes('AnnotationPage')) {
    const { items, ...rest } = document;
    return { items: list(items, '$.items'), meta: { shape: 'page', wrapper: plainJson(rest) as Record<string, unknown> } };
  }
  const found: Item[] = [];
  collectEmbedded(document, '$', found);
  if (found.length === 0) throw new FormatParseError(file, { path: '$.type' }, 'expected a W3C Web Annotation, an AnnotationPage or an AnnotationCollection (or a JSON-LD document that embeds annotations)');
  return { items: listed(found), meta: { shape: 'embedded' } };
}

/**
 * The value with any lazy list in it read into an array: a page's `first.items` or a
 * collection's own `items` beside its `first` page are kept in the wrapper, not read as annotations.
 */
function plainJson(value: unknown): unknown {
  if (value instanceof LazyJsonArray) return [...value];
  if (!isObject(value)) return value;
  const lists = Object.entries(value).filter(([, item]) => item instanceof LazyJsonArray || (isObject(item) && Object.values(item).some((inner) => inner instanceof LazyJsonArray)));
  if (lists.length === 0) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [key, item] of lists) copy[key] = plainJson(item);
  return copy;
}

/** Annotations embedded anywhere in another document (IIIF canvases hold pages of them). */
function collectEmbedded(value: unknown, path: string, found: Array<{ value: unknown; path: string }>): void {
  if (Array.isArray(value)) value.forEach((item, index) => collectEmbedded(item, `${path}[${index}]`, found));
  else if (isObject(value)) {
    if (typesOf(value).includes('Annotation')) found.push({ value, path });
    else for (const [key, item] of Object.entries(value)) collectEmbedded(item, `${path}.${key}`, found);
  }
}

/**
 * A FragmentSelector without a value selects nothing: the annotation it belongs to yields no
 * annotation, which is an error in the file (W3C's own invalid example), not a mere untimed item.
 */
function reportEmptySelectors(target: unknown, pointer: string, file: string, options: LoadOptions): void {
  if (Array.isArray(target)) {
    target.forEach((item, index) => reportEmptySelectors(item, `${pointer}/${index}`, file, options));
    return;
  }
  if (!isObject(target)) return;
  const selectors = Array.isArray(target.selector) ? target.selector.map((s, i) => ({ s, at: `/selector/${i}` })) : [{ s: target.selector, at: '/selector' }];
  for (const { s, at } of selectors) {
    if (!isObject(s) || !typesOf(s).some((type) => type === 'FragmentSelector' || type === 'MediaFragmentSelector')) continue;
    if (typeof s.value === 'string' && s.value.trim() !== '') continue;
    options.report({
      code: 'empty_selector',
      severity: 'error',
      file,
      location: { path: `${pointer}${at}` },
      message: `the FragmentSelector has ${s.value === undefined ? 'no value' : 'an empty value'}: it selects nothing, so this annotation yields no annotation (expected a media fragment such as "t=1,2")`,
    });
  }
}

/** `$.items[3].target` as a JSON pointer (RFC 6901): `/items/3/target`. */
function pointerOf(path: string): string {
  return path.replace(/^\$/, '').replace(/\[(\d+)\]/g, '/$1').replace(/\.([^.[\]]+)/g, (_match, key: string) => `/${escapePointer(key)}`);
}

/**
 * The first media-fragment time of a target: a `#…t=` in an IRI (the target itself, its source
 * or id), or the value of a FragmentSelector. A list of targets or selectors is searched in order.
 */
export function findTime(target: unknown, pointer: string, path: string, file: string): FoundTime | null {
  if (typeof target === 'string') return timeInIri(target, pointer, path, file);
  if (Array.isArray(target)) {
    for (const [index, item] of target.entries()) {
      const found = findTime(item, `${pointer}/${index}`, `${path}[${index}]`, file);
      if (found) return found;
    }
    return null;
  }
  if (!isObject(target)) return null;
  const selectors = Array.isArray(target.selector) ? target.selector.map((s, i) => ({ s, at: `/selector/${i}` })) : [{ s: target.selector, at: '/selector' }];
  for (const { s, at } of selectors) {
    if (!isObject(s) || typeof s.value !== 'string') continue;
    if (!typesOf(s).some((type) => type === 'FragmentSelector' || type === 'MediaFragmentSelector')) continue;
    const temporal = parseTemporal(s.value, `${path}${at.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}.value`, file);
    if (temporal) return { pointer: `${pointer}${at}/value`, fragment: s.value, inIri: false, temporal };
  }
  for (const key of ['source', 'id']) {
    const iri = target[key];
    if (typeof iri === 'string') {
      const found = timeInIri(iri, `${pointer}/${escapePointer(key)}`, `${path}.${key}`, file);
      if (found) return found;
    } else if (key === 'source' && isObject(iri) && typeof iri.id === 'string') {
      const found = timeInIri(iri.id, `${pointer}/source/id`, `${path}.source.id`, file);
      if (found) return found;
    }
  }
  return null;
}

function timeInIri(iri: string, pointer: string, path: string, file: string): FoundTime | null {
  const hash = iri.indexOf('#');
  if (hash < 0) return null;
  const fragment = iri.slice(hash + 1);
  const temporal = parseTemporal(fragment, path, file);
  return temporal ? { pointer, fragment, inIri: true, temporal } : null;
}

function parseTemporal(fragment: string, path: string, file: string): TemporalFragment | null {
  try {
    return temporalFragment(fragment);
  } catch (error) {
    if (error instanceof MediaFragmentError) throw new FormatParseError(file, { path }, error.message);
    throw error;
  }
}

/** The medium a time is about: the IRI holding the fragment without it, else the target's source or id. */
function assetOf(target: unknown, time: FoundTime): string {
  const holder = valueAt(target, time.pointer);
  if (time.inIri && typeof holder === 'string') return holder.slice(0, holder.indexOf('#')) || WEB_ANNOTATION_DEFAULT_ASSET;
  const owner = valueAt(target, time.pointer.replace(/\/selector(?:\/\d+)?\/value$/, ''));
  if (isObject(owner)) {
    if (typeof owner.source === 'string') return owner.source;
    if (isObject(owner.source) && typeof owner.source.id === 'string') return owner.source.id;
    if (typeof owner.id === 'string') return owner.id;
  }
  return WEB_ANNOTATION_DEFAULT_ASSET;
}

export function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let current = value;
  for (const key of pointer.slice(1).split('/').map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

function creatorOf(creator: unknown): string | undefined {
  if (typeof creator === 'string' && creator !== '') return creator;
  if (Array.isArray(creator)) return creatorOf(creator[0]);
  if (isObject(creator)) {
    for (const key of ['id', 'name', 'nickname', 'email']) if (typeof creator[key] === 'string' && creator[key] !== '') return creator[key] as string;
  }
  return undefined;
}

function typesOf(value: Record<string, unknown>): string[] {
  const type = value.type ?? value['@type'];
  return typeof type === 'string' ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof LazyJsonArray);
}
