import { InvalidInputError } from '../errors/annot-error.js';
import type { Annotation } from '../model/annotation.js';
import { annotationWireJson, type WireJsonOptions } from '../model/wire-json.js';
import type { AnnotationStore } from '../store/store.js';
import { windowWireJson } from '../store/wire-json-reads.js';
import { parseAllenRelation, type AllenRelation } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';
import { resolveInterval, type TimeInput } from '../time/time-input.js';

export interface QueryRequest {
  /**
   * Window, both or neither, in any form of the time vocabulary (src/time/time-input.ts): seconds
   * (`"12.345"`), a timecode (`"00:00:12.345"`), SMPTE (`"00:00:12:08"` with fps) or `{v, r}`.
   */
  readonly start?: TimeInput;
  readonly end?: TimeInput;
  /** Frames per second of SMPTE timecodes in the window. */
  readonly fps?: number | string;
  /** Rate for the window, which must hold it exactly; by default the rate the given times need. */
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
 * byte for byte, or of annotationToOutput with `seconds`), at most `limit` of them. A plain window (intersects) goes through the store's
 * read fast path when it has one (wire-json-reads.ts): rows to JSON with no annotation objects.
 */
export async function queryAnnotationsWireJson(
  store: AnnotationStore,
  request: QueryRequest,
  limit = Number.POSITIVE_INFINITY,
  options: WireJsonOptions = {},
): Promise<string[]> {
  const window = parseWindow(request);
  if (window !== null && isPlainWindow(request)) {
    const items = await windowWireJson(store, window, request.tier, options);
    return items.length > limit ? items.slice(0, limit) : items;
  }
  const items: string[] = [];
  for await (const annotation of queryAnnotations(store, request)) {
    if (items.length >= limit) break;
    items.push(annotationWireJson(annotation, options));
  }
  return items;
}

/** A window with the default relation (intersects): what the stores' read fast paths answer. */
export function isPlainWindow(request: QueryRequest): boolean {
  // In queryAnnotations' order, so a request wrong twice gets the same error on either path.
  return parseWindow(request) !== null && parseRelation(request.relation) === 'intersects';
}

export function parseWindow({ start, end, rate, fps }: QueryRequest): TimeInterval | null {
  if (start === undefined && end === undefined) return null;
  if (start === undefined || end === undefined) throw new InvalidInputError('--start and --end must be given together');
  return resolveInterval(start, end, { rate, fps });
}

function parseRelation(name: string | undefined): AllenRelation | 'intersects' {
  if (name === undefined || name === 'intersects') return 'intersects';
  return parseAllenRelation(name);
}
