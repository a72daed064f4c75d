import { createHash } from 'node:crypto';
import { annotationInterval, type Annotation } from '../model/annotation.js';
import { annotationWireJson } from '../model/wire-json.js';
import type { AllenRelation } from '../time/allen.js';
import type { RationalTime } from '../time/rational-time.js';
import type { TimeInterval } from '../time/time-interval.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { InvalidCursorError } from './errors.js';

/**
 * The one paged read of the store contract: `read(query, {after, limit, form})` answers a page
 * of at most `limit` annotations and where the next page starts. Pages are keyset pages: the
 * position is the key of the last annotation of the page, and the next page is "the first
 * `limit` after that key", which every backend answers from its index (a LIMIT in SQL, an
 * in-order walk in memory), so the last page of a large listing costs what the first does.
 *
 *   with a window   the interval annotations in `relation` to it (default intersects), ordered
 *                   by (start, end, id); the key is that triple, exact.
 *   without one     every annotation (interval-less ones included) in insertion order; the key
 *                   is the insertion rank (an update keeps it).
 *
 * A key survives changes between pages: what was deleted is not seen again, what was added
 * after the key is, and nothing is seen twice.
 */
export interface ReadQuery {
  /** The window to read; absent for a listing of every annotation in insertion order. */
  readonly window?: TimeInterval;
  /** How annotations relate to the window (the annotation is the left operand); only with a window. */
  readonly relation?: AllenRelation | 'intersects';
  /** Only this tier. */
  readonly tier?: string;
}

/**
 * `objects`: the annotations. `wire-json`: each annotation's wire JSON text in the output form
 * the surfaces send (each time with its exact seconds `s`), byte for byte
 * `annotationWireJson(annotation, {seconds: true})`, which a store may build from its rows
 * without annotation objects. `wire-bytes`: the same texts as UTF-8 bytes, which a store may
 * keep as bytes (the `.annot` file's warm index does), so a surface writes them without
 * encoding them again; the bytes are never changed once read, so they may be kept.
 */
export type ReadForm = 'objects' | 'wire-json' | 'wire-bytes';
/** What a read of a form gives for each annotation: an Annotation, a wire JSON string, or its UTF-8 bytes. */
export type ReadItem<F extends ReadForm> = F extends 'objects' ? Annotation : F extends 'wire-bytes' ? Uint8Array : string;

/** Options of AnnotationStore.read. */
export interface ReadOptions<F extends ReadForm = ReadForm> {
  /** Where the previous page ended (its `next`); absent or null for the first page. */
  readonly after?: ReadPosition | null;
  /** The most annotations in the page, at least 1. */
  readonly limit: number;
  /** The form of the items: `objects`, `wire-json` or `wire-bytes`. */
  readonly form: F;
}

/** One page of a read. */
export interface ReadPage<T> {
  /** The annotations of the page, in the read's order. */
  readonly items: T[];
  /** Where the next page starts; null on the last page. */
  readonly next: ReadPosition | null;
}

/** The key of an annotation in a window read: its interval and id, compared by rational value. */
export interface IntervalKey {
  /** The annotation's start. */
  readonly start: RationalTime;
  /** The annotation's end. */
  readonly end: RationalTime;
  /** The annotation's id, the last tie-breaker. */
  readonly id: string;
}

/**
 * Where a page ended, bound to its query by `query` (readQueryKey): a position is refused by a
 * read of another query (InvalidCursorError) rather than silently resuming somewhere else.
 */
export type ReadPosition =
  | {
      /** The query the position belongs to (readQueryKey). */
      readonly query: string;
      /** A position in a window read. */
      readonly kind: 'interval';
      /** The key of the last annotation of the page. */
      readonly key: IntervalKey;
    }
  | {
      /** The query the position belongs to (readQueryKey). */
      readonly query: string;
      /** A position in a listing. */
      readonly kind: 'insertion';
      /** The insertion rank of the last annotation of the page. */
      readonly rank: number;
    };

/**
 * What identifies a query for its positions: the window by rational value (so `10` and `10.0`
 * are one query), the relation and the tier. A short hash, so cursors stay short.
 */
export function readQueryKey(query: ReadQuery): string {
  const { window, tier } = query;
  const relation = window === undefined ? '' : query.relation ?? 'intersects';
  const canonical = JSON.stringify([window === undefined ? null : [fraction(window.start), fraction(window.end)], relation, tier ?? null]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

function fraction(time: RationalTime): string {
  const { num, den } = time.toFraction();
  return `${num}/${den}`;
}

/** Orders interval keys as window reads return them: start, end (rational values), then id. */
export function compareIntervalKeys(a: IntervalKey, b: IntervalKey): number {
  return a.start.compare(b.start) || a.end.compare(b.end) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The key to resume after, checked against the query it is used with: a position of another
 * query, or of the other kind (a listing's rank for a window read), is an InvalidCursorError.
 */
export function resumeKey(query: ReadQuery, after: ReadPosition | null | undefined): IntervalKey | number | null {
  if (after === undefined || after === null) return null;
  const windowed = query.window !== undefined;
  if (after.query !== readQueryKey(query) || (after.kind === 'interval') !== windowed) {
    throw new InvalidCursorError(
      'the position to resume after belongs to another query (other window, relation or tier); keep the filters of the first page, or start again without one',
    );
  }
  return after.kind === 'interval' ? after.key : after.rank;
}

/** The position after the last item of a page that has more after it. */
export function intervalPosition(query: ReadQuery, key: IntervalKey): ReadPosition {
  return { query: readQueryKey(query), kind: 'interval', key };
}

export function insertionPosition(query: ReadQuery, rank: number): ReadPosition {
  return { query: readQueryKey(query), kind: 'insertion', rank };
}

/** The page size of a read, checked: a whole number, at least 1. */
export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new InvalidInputError(`read: limit must be a whole number >= 1, got ${limit}`);
  return limit;
}

/** Annotations in the form a read asked for. */
export function inForm<F extends ReadForm>(annotations: readonly Annotation[], form: F): ReadItem<F>[] {
  if (form === 'objects') return annotations.slice() as ReadItem<F>[];
  const texts = annotations.map((annotation) => annotationWireJson(annotation, { seconds: true }));
  return (form === 'wire-bytes' ? texts.map((text) => Buffer.from(text, 'utf8')) : texts) as ReadItem<F>[];
}

/** The key of an interval annotation (window reads return only those). */
export function intervalKeyOf(annotation: Annotation): IntervalKey {
  const interval = annotationInterval(annotation) as TimeInterval;
  return { start: interval.start, end: interval.end, id: annotation.id };
}
