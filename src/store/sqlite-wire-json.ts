import { wireJsonOfParts, type WireJsonOptions } from '../model/wire-json.js';
import { intersects } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { compareIds } from './ordering.js';

/**
 * The `.annot` store's read fast path: a window's annotations as wire JSON texts, built from the
 * row's columns (the body and was_derived_from are stored as the JSON text the wire form
 * carries), with no annotation objects in between. Same hits, same order and same bytes as
 * `intersects`/`atTier` followed by annotationWireJson; test/store/sqlite-wire-json.test.ts and
 * test/server/annotations-fast-path.test.ts hold it to that.
 */

/** The columns a wire read selects, in WireRow order. */
export const WIRE_SELECT =
  'lower(hex(id)), tier, asset_id, target_id, start_v, start_r, end_v, end_r, start_f, end_f, body, body_schema_uri, ' +
  'generated_by, attributed_to, derived_from, generated_at_v, generated_at_r, confidence, seq';

export type WireRow = [
  hexId: string, tier: string, assetId: string | null, targetId: string | null, startV: number, startR: number, endV: number, endR: number,
  startF: number, endF: number, body: string, bodySchemaUri: string, generatedBy: string, attributedTo: string, derivedFrom: string,
  generatedAtV: number, generatedAtR: number, confidence: number | null, rowid: number,
];

interface WireHit {
  readonly id: string;
  readonly row: WireRow;
}

/** Where a hit sorts: its interval as float seconds and exact rationals, and its id. */
interface Placed {
  readonly startF: number;
  readonly endF: number;
  readonly startV: number;
  readonly startR: number;
  readonly endV: number;
  readonly endR: number;
  readonly id: string;
}

/** The window's hits among candidate rows (interval rows only), in the stores' canonical order, as wire JSON. */
export function wireJsonOfWindow(rows: Iterable<WireRow>, query: TimeInterval, options: WireJsonOptions = {}): string[] {
  const hits: Array<Placed & WireHit> = [];
  for (const row of rows) {
    const interval = new TimeInterval(new RationalTime(row[4], row[5]), new RationalTime(row[6], row[7]));
    if (intersects(interval, query)) hits.push({ startF: row[8], endF: row[9], startV: row[4], startR: row[5], endV: row[6], endR: row[7], id: hexToId(row[0]), row });
  }
  hits.sort(compareByPlace);
  return hits.map((hit) => wireJsonOfHit(hit, options));
}

/** The columns a keyed window read selects: the rowid and the interval, exact and as floats. */
export const WIRE_KEY_SELECT = 'seq, start_v, start_r, end_v, end_r, start_f, end_f';

export type WireKeyRow = [seq: number, startV: number, startR: number, endV: number, endR: number, startF: number, endF: number];

/**
 * The same answer as wireJsonOfWindow from the candidates' keys alone: `textOf` gives a hit's wire
 * JSON by rowid (from the store's WireJsonCache, building it from the row on a miss), so a window
 * read again selects seven numbers per row and concatenates.
 */
export function keyedWireJsonOfWindow(rows: Iterable<WireKeyRow>, query: TimeInterval, textOf: (rowid: number) => string): string[] {
  const hits: Array<Placed & { text: string }> = [];
  for (const row of rows) {
    const interval = new TimeInterval(new RationalTime(row[1], row[2]), new RationalTime(row[3], row[4]));
    if (!intersects(interval, query)) continue;
    // The text starts `{"id":"<36 characters>"`.
    const text = textOf(row[0]);
    hits.push({ startF: row[5], endF: row[6], startV: row[1], startR: row[2], endV: row[3], endR: row[4], id: text.slice(ID_FROM, ID_TO), text });
  }
  hits.sort(compareByPlace);
  return hits.map((hit) => hit.text);
}

/** A row's wire JSON (one WIRE_SELECT row). */
export function wireJsonOfRow(row: WireRow, options: WireJsonOptions = {}): string {
  return wireJsonOfHit({ id: hexToId(row[0]), row }, options);
}

function wireJsonOfHit({ id, row }: WireHit, options: WireJsonOptions): string {
  return wireJsonOfParts({
    id,
    tier: row[1],
    assetId: row[2],
    targetId: row[3],
    startV: row[4],
    startR: row[5],
    endV: row[6],
    endR: row[7],
    bodyJson: row[10],
    bodySchemaUri: row[11],
    generatedBy: row[12],
    attributedTo: row[13],
    derivedFromJson: row[14],
    generatedAtV: row[15],
    generatedAtR: row[16],
    confidence: row[17],
  }, options);
}

/** compareByInterval's order: float seconds decide unless equal, then the exact rationals, then the id. */
function compareByPlace(x: Placed, y: Placed): number {
  return (
    (x.startF < y.startF ? -1 : x.startF > y.startF ? 1 : new RationalTime(x.startV, x.startR).compare(new RationalTime(y.startV, y.startR))) ||
    (x.endF < y.endF ? -1 : x.endF > y.endF ? 1 : new RationalTime(x.endV, x.endR).compare(new RationalTime(y.endV, y.endR))) ||
    compareIds(x.id, y.id)
  );
}

const ID_FROM = '{"id":"'.length;
const ID_TO = ID_FROM + 36;

/** The 32 lower-case hex digits of a UUID in 8-4-4-4-12 form. */
export function hexToId(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
