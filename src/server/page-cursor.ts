import { createHash } from 'node:crypto';
import type { PagePosition } from '../service/query-page.js';
import { InvalidQueryError } from './errors.js';

/**
 * The `?after=` cursor of a listing: opaque to clients (base64url of where the page ended and of
 * the query it belongs to), so a cursor is never reused with other filters by mistake.
 */
export function encodeCursor(position: PagePosition, queryKey: string): string {
  return Buffer.from(JSON.stringify({ o: position.offset, id: position.lastId, q: queryKey })).toString('base64url');
}

export function decodeCursor(cursor: string, queryKey: string): PagePosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { o, id, q } = (parsed ?? {}) as { o?: unknown; id?: unknown; q?: unknown };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0 || typeof id !== 'string' || typeof q !== 'string') {
    throw new InvalidQueryError('after', 'query parameter "after" is not a cursor this server gave out; follow the Link: rel="next" header of the previous page');
  }
  if (q !== queryKey) {
    throw new InvalidQueryError('after', 'query parameter "after" belongs to a listing with other filters; keep tier, start, end, relation, rate and fps as they were on the first page');
  }
  return { offset: o, lastId: id };
}

/** What identifies a listing, for its cursors: the filters, not the page size. */
export function listingKey(filters: Readonly<Record<string, string | undefined>>): string {
  const canonical = JSON.stringify(Object.keys(filters).sort().map((name) => [name, filters[name] ?? null]));
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}
