import { writeFile } from 'node:fs/promises';
import type { Annotation, MediaRef } from '../../model/annotation.js';
import { generatedAtIsKnown } from '../../model/provenance.js';
import type { AnnotationStore } from '../../store/store.js';
import type { TimeInterval } from '../../time/time-interval.js';
import type { DumpOptions, DumpReport } from '../adapter.js';
import { ImportClock } from '../import-clock.js';
import { temporalFragment, withTemporal } from './media-fragment.js';
import { valueAt, W3C_CONTEXT, WEB_ANNOTATION_META, WEB_ANNOTATION_SCHEMA, type DocumentMeta } from './wa-reader.js';
import { plainCueText } from '../plain-cue-text.js';

type Json = Record<string, unknown>;

interface Counts {
  confidence: number;
  inexact: number;
  otherBodies: number;
  symbolic: number;
}

/**
 * Writes W3C Web Annotations in the shape they were read (one annotation, a list, a page, a
 * collection with items or with an embedded first page); stores from elsewhere become an
 * AnnotationCollection with an embedded first page. Each annotation's target is given back
 * verbatim while its interval is unchanged, else only its t= is rewritten. Ids are
 * `urn:uuid:<id>` unless the annotation came with an IRI of its own.
 */
export async function writeWebAnnotation(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const counts: Counts = { confidence: 0, inexact: 0, otherBodies: 0, symbolic: 0 };
  const items: unknown[] = [];
  const tiers = new Set<string>();
  let written = 0;
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') {
      counts.symbolic++;
      continue;
    }
    tiers.add(annotation.tier);
    if (annotation.confidence !== null) counts.confidence++;
    items.push(itemOf(annotation, counts));
    written++;
  }
  const untimed = await store.getMeta(WEB_ANNOTATION_META.untimed);
  if (untimed) {
    for (const { index, annotation } of JSON.parse(untimed) as Array<{ index: number; annotation: unknown }>) items.splice(Math.min(index, items.length), 0, annotation);
  }
  const kept = await store.getMeta(WEB_ANNOTATION_META.document);
  const meta: DocumentMeta = kept ? (JSON.parse(kept) as DocumentMeta) : { shape: 'embedded' };
  await writeFile(path, JSON.stringify(documentOf(meta, items), null, 2) + '\n');

  const dropped = [
    { what: 'provenance', count: written },
    { what: 'confidence', count: counts.confidence },
    { what: 'tiers', count: tiers.size > 1 ? written : 0 },
    { what: 'symbolic annotations', count: counts.symbolic },
    { what: 'body fields other than a text', count: counts.otherBodies },
    { what: 'exact times (written with 9 decimals)', count: counts.inexact },
  ];
  if (tiers.size > 1) options.warn(`web annotations have no tiers: the ${tiers.size} tiers were merged`);
  return { dropped: dropped.filter((entry) => entry.count > 0) };
}

function documentOf(meta: DocumentMeta, items: unknown[]): unknown {
  switch (meta.shape) {
    case 'annotation':
      if (items.length === 1) return withContext(items[0]);
      break;
    case 'list':
      return items.map(withContext);
    case 'page':
      return { ...meta.wrapper, items };
    case 'collection-items':
      return { ...meta.wrapper, ...(typeof meta.wrapper?.total === 'number' ? { total: items.length } : {}), items };
    case 'collection-first': {
      const { first, ...rest } = meta.wrapper as Json;
      return { ...rest, ...(typeof rest.total === 'number' ? { total: items.length } : {}), first: { ...(first as Json), items } };
    }
    case 'embedded':
      break;
  }
  return { '@context': W3C_CONTEXT, type: 'AnnotationCollection', total: items.length, first: { type: 'AnnotationPage', startIndex: 0, items } };
}

function withContext(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || Array.isArray(item) || '@context' in item) return item;
  return { '@context': W3C_CONTEXT, ...item };
}

function itemOf(annotation: Annotation, counts: Counts): Json {
  const reference = annotation.reference as MediaRef;
  const id = `urn:uuid:${annotation.id}`;
  if (annotation.body_schema_uri !== WEB_ANNOTATION_SCHEMA) return foreignItem(annotation, reference, id, counts);
  const body = annotation.body as Json;
  const { '@context': context, ...rest } = body.annotation as Json;
  const item: Json = context === undefined ? {} : { '@context': context };
  if (!('id' in rest)) item.id = typeof body.source_id === 'string' ? body.source_id : id;
  Object.assign(item, rest);
  item.target = targetFor(body, reference.interval, counts);
  return item;
}

/** The kept target, with the t= at the kept place rewritten when the interval changed. */
function targetFor(body: Json, interval: TimeInterval, counts: Counts): unknown {
  const time = body.time as { pointer: string; fragment: string; in_iri?: boolean; open_ended?: boolean };
  const written = temporalFragment(time.fragment);
  if (written !== null) {
    const clock = new ImportClock(Math.max(interval.start.r, interval.end.r));
    const start = clock.seconds(written.start);
    const end = written.end === null ? start : clock.seconds(written.end);
    if (start.equals(interval.start) && end.equals(interval.end)) return body.target;
  }
  const openEnded = time.open_ended === true && interval.start.equals(interval.end);
  const { fragment, exact } = withTemporal(time.fragment, interval.start, openEnded ? null : interval.end);
  if (!exact) counts.inexact++;
  const holder = valueAt(body.target, time.pointer);
  const replacement = time.in_iri && typeof holder === 'string' ? `${holder.slice(0, holder.indexOf('#'))}#${fragment}` : fragment;
  return setAt(body.target, time.pointer, replacement);
}

/** An annotation from another format: a TextualBody on a FragmentSelector of its asset. */
function foreignItem(annotation: Annotation, reference: MediaRef, id: string, counts: Counts): Json {
  const body = annotation.body as Json;
  const text = plainCueText(annotation);
  if (text === null || Object.keys(body).some((key) => !['text', 'source_id'].includes(key) && body[key] !== null)) counts.otherBodies++;
  const { fragment, exact } = withTemporal('', reference.interval.start, reference.interval.end);
  if (!exact) counts.inexact++;
  const item: Json = {
    id,
    type: 'Annotation',
    body: text !== null ? { type: 'TextualBody', value: text, format: 'text/plain' } : { type: 'TextualBody', value: JSON.stringify(body), format: 'application/json' },
    target: { source: reference.asset_id, selector: { type: 'FragmentSelector', conformsTo: 'http://www.w3.org/TR/media-frags/', value: fragment } },
    creator: annotation.provenance.was_attributed_to,
  };
  if (generatedAtIsKnown(annotation.provenance)) item.created = new Date(annotation.provenance.generated_at_time.toSeconds() * 1000).toISOString();
  return item;
}

function setAt(value: unknown, pointer: string, replacement: unknown): unknown {
  if (pointer === '') return replacement;
  const [head, ...rest] = pointer.slice(1).split('/');
  const key = head.replace(/~1/g, '/').replace(/~0/g, '~');
  const tail = rest.length === 0 ? '' : `/${rest.join('/')}`;
  if (Array.isArray(value)) return value.map((item, index) => (index === Number(key) ? setAt(item, tail, replacement) : item));
  if (typeof value === 'object' && value !== null) return { ...value, [key]: setAt((value as Json)[key], tail, replacement) };
  return value;
}
