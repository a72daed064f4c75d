import { wireJsonOfParts, type WireJsonOptions } from '../model/wire-json.js';

/**
 * The `.annot` store's wire JSON straight from its rows: an annotation's wire JSON text built from
 * the row's columns (the body and was_derived_from are stored as the JSON text the wire form
 * carries), with no annotation object in between. The same bytes as annotationWireJson of the
 * decoded annotation; test/store/sqlite-wire-json.test.ts and test/server/annotations-fast-path.test.ts
 * hold it to that.
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

/** A row's wire JSON (one WIRE_SELECT row). */
export function wireJsonOfRow(row: WireRow, options: WireJsonOptions = {}): string {
  return wireJsonOfParts({
    id: hexToId(row[0]),
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

/** The 32 lower-case hex digits of a UUID in 8-4-4-4-12 form. */
export function hexToId(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
