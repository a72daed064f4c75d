import type { ReadPosition, ReadQuery } from '../store/read-page.js';
import { parseAllenRelation, type AllenRelation } from '../time/allen.js';
import { resolveInterval, type TimeInput } from '../time/time-input.js';
import { decodeCursor } from './read-cursor.js';
import type { ReadWording } from './read-wording.js';

/**
 * A read as a surface receives it: CLI flags, HTTP query parameters or MCP arguments, before
 * anything is checked.
 */
export interface ReadInput {
  /**
   * Window, both or neither, in any form of the time vocabulary (src/time/time-input.ts): seconds
   * (`"12.345"`), a timecode (`"00:00:12.345"`), SMPTE (`"00:00:12:08"` with fps) or `{v, r}`.
   */
  readonly start?: TimeInput;
  /** See `start`. */
  readonly end?: TimeInput;
  /** Frames per second of SMPTE timecodes in the window. */
  readonly fps?: number | string;
  /** Rate the window must hold exactly; by default the rate its times need. */
  readonly rate?: number;
  /** Only this tier. */
  readonly tier?: string;
  /** One of the 13 Allen relation names or symbols, or `intersects` (the default). */
  readonly relation?: string;
  /** The cursor text of a previous page's next (read-cursor.ts). */
  readonly after?: string;
  /** The page size. */
  readonly limit: number;
}

/** A read, parsed: the query the store answers, where to resume, how many. */
export interface ReadRequest {
  /** The query the store answers. */
  readonly query: ReadQuery;
  /** Where to resume, or null for the first page. */
  readonly after: ReadPosition | null;
  /** The page size. */
  readonly limit: number;
}

/**
 * The one parser of a read, for every surface: the window (both ends or neither, exact at the
 * rate its times need or at `rate`), the relation (only with a window), the tier and the cursor,
 * which must belong to this very query. The surface says how to word what is wrong.
 */
export function parseReadRequest(input: ReadInput, wording: ReadWording): ReadRequest {
  const { name } = wording;
  const { start, end } = input;
  let query: ReadQuery;
  if (start === undefined && end === undefined) {
    if (input.relation !== undefined && input.relation !== 'intersects') {
      throw wording.refuse('relation', `${name('relation')} ${input.relation} compares with a window: give ${name('start')} and ${name('end')} too`);
    }
    query = { tier: input.tier };
  } else {
    if (start === undefined || end === undefined) {
      throw wording.refuse(start === undefined ? 'start' : 'end', `${name('start')} and ${name('end')} must be given together (or neither, to list without a window)`);
    }
    const window = resolveInterval(start, end, { rate: input.rate, fps: input.fps, startField: name('start'), endField: name('end') });
    query = { window, relation: parseRelation(input.relation), tier: input.tier };
  }
  const after = input.after === undefined ? null : decodeCursor(input.after, query, wording);
  return { query, after, limit: input.limit };
}

function parseRelation(name: string | undefined): AllenRelation | 'intersects' {
  if (name === undefined || name === 'intersects') return 'intersects';
  return parseAllenRelation(name);
}
