import { isUuid } from '../model/ids.js';
import { InvalidCursorError } from '../store/errors.js';
import { readQueryKey, type ReadPosition, type ReadQuery } from '../store/read-page.js';
import { RationalTime } from '../time/rational-time.js';
import type { ReadWording } from './read-wording.js';

/**
 * A page's position as the surfaces hand it out (`?after=`, the `after` argument): opaque
 * base64url of the key the page ended at and of the query it belongs to. Version 2 is the
 * keyset form; version 1 (an offset and an id) is refused with a message saying so.
 */
const VERSION = 2;

interface CursorJson {
  v?: unknown;
  q?: unknown;
  /** A listing's insertion rank. */
  n?: unknown;
  /** A window read's key: start and end as [v, r], and the id. */
  s?: unknown;
  e?: unknown;
  id?: unknown;
  /** Version 1's offset. */
  o?: unknown;
}

/** The cursor text of a read position (what `after` takes on every surface). */
export function encodeCursor(position: ReadPosition): string {
  const json: CursorJson = position.kind === 'insertion'
    ? { v: VERSION, q: position.query, n: position.rank }
    : { v: VERSION, q: position.query, s: [position.key.start.v, position.key.start.r], e: [position.key.end.v, position.key.end.r], id: position.key.id };
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

/** The position a cursor text names, checked to belong to `query`; InvalidCursorError in the surface's words otherwise. */
export function decodeCursor(text: string, query: ReadQuery, wording: ReadWording): ReadPosition {
  const field = wording.name('after');
  const refuse = (why: string) => new InvalidCursorError(`${field} ${why}; ${wording.resumeHint}`, field);
  let json: CursorJson | undefined;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorJson;
  } catch {
    json = undefined;
  }
  if (typeof json !== 'object' || json === null) throw refuse('is not a cursor annot gave out');
  if (json.v === undefined && json.o !== undefined) throw refuse('is a cursor of an earlier annot, whose cursors have changed; start again from the first page');
  const position = positionOf(json);
  if (position === null) throw refuse('is not a cursor annot gave out');
  if (position.query !== readQueryKey(query)) {
    throw refuse(`belongs to a listing with other filters; keep ${wording.name('start')}, ${wording.name('end')}, ${wording.name('relation')} and the tier as they were on the first page`);
  }
  return position;
}

function positionOf(json: CursorJson): ReadPosition | null {
  if (json.v !== VERSION || typeof json.q !== 'string') return null;
  if (json.n !== undefined) return Number.isSafeInteger(json.n) && (json.n as number) >= 0 ? { query: json.q, kind: 'insertion', rank: json.n as number } : null;
  const start = timeOf(json.s);
  const end = timeOf(json.e);
  if (start === null || end === null || typeof json.id !== 'string' || !isUuid(json.id)) return null;
  return { query: json.q, kind: 'interval', key: { start, end, id: json.id } };
}

function timeOf(pair: unknown): RationalTime | null {
  if (!Array.isArray(pair) || pair.length !== 2 || !Number.isSafeInteger(pair[0]) || !Number.isSafeInteger(pair[1]) || pair[1] <= 0) return null;
  return new RationalTime(pair[0] as number, pair[1] as number);
}
