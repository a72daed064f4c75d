import { decimalRateFor } from '../adapters/import-clock.js';
import { InvalidInputError } from '../errors/annot-error.js';
import type { Annotation } from '../model/annotation.js';
import { annotationWireJson } from '../model/wire-json.js';
import type { AnnotationStore } from '../store/store.js';
import { windowWireJson } from '../store/wire-json-reads.js';
import { parseAllenRelation, type AllenRelation } from '../time/allen.js';
import { TimeInterval } from '../time/time-interval.js';

export interface QueryRequest {
  /** Window in seconds as decimal strings, parsed exactly; both or neither. */
  readonly start?: string;
  readonly end?: string;
  /** Rate for the window; by default the finest decimal rate the given seconds need (always exact). */
  readonly rate?: number;
  readonly tier?: string;
  /** One of the 13 Allen relation names, or `intersects` (the default). */
  readonly relation?: string;
}

/**
 * The annotations a query asks for. Without a window: every annotation (symbolic ones included)
 * or every annotation of the tier, streamed. With a window: the interval annotations whose
 * relation to the window is the one asked for (the annotation is the left operand: `during`
 * means inside the window).
 */
export async function* queryAnnotations(store: AnnotationStore, request: QueryRequest): AsyncGenerator<Annotation> {
  const window = parseWindow(request);
  const relation = parseRelation(request.relation);
  if (!window) {
    if (relation !== 'intersects') throw new InvalidInputError(`--relation ${request.relation} needs a window: give --start and --end`);
    if (request.tier !== undefined) yield* await store.byTier(request.tier);
    else yield* store.all();
    return;
  }
  let found: Annotation[];
  if (relation === 'intersects') {
    found = request.tier !== undefined ? await store.atTier(request.tier, window) : await store.intersects(window);
  } else {
    found = await store.relate(window, [relation]);
    if (request.tier !== undefined) found = found.filter((annotation) => annotation.tier === request.tier);
  }
  yield* found;
}

/**
 * The same answer as queryAnnotations, as wire JSON texts (`JSON.stringify(annotationToWire(a))`
 * byte for byte), at most `limit` of them. A plain window (intersects) goes through the store's
 * read fast path when it has one (wire-json-reads.ts): rows to JSON with no annotation objects.
 */
export async function queryAnnotationsWireJson(store: AnnotationStore, request: QueryRequest, limit = Number.POSITIVE_INFINITY): Promise<string[]> {
  const window = parseWindow(request);
  if (window !== null && parseRelation(request.relation) === 'intersects') {
    const items = await windowWireJson(store, window, request.tier);
    return items.length > limit ? items.slice(0, limit) : items;
  }
  const items: string[] = [];
  for await (const annotation of queryAnnotations(store, request)) {
    if (items.length >= limit) break;
    items.push(annotationWireJson(annotation));
  }
  return items;
}

export function parseWindow({ start, end, rate }: QueryRequest): TimeInterval | null {
  if (start === undefined && end === undefined) return null;
  if (start === undefined || end === undefined) throw new InvalidInputError('--start and --end must be given together');
  const windowRate = rate ?? decimalRateFor([start, end]);
  const window = TimeInterval.fromSeconds(start, end, windowRate);
  return window;
}

function parseRelation(name: string | undefined): AllenRelation | 'intersects' {
  if (name === undefined || name === 'intersects') return 'intersects';
  return parseAllenRelation(name);
}
