import type { Annotation, Reference } from '../model/annotation.js';
import { normalizeUuid } from '../model/ids.js';
import type { JsonObject } from '../json/json-body.js';
import { makeTier, type Tier } from '../model/tier.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { durationClass, seconds } from './sqlite-interval-index.js';
import { hexToId } from './sqlite-wire-json.js';

// The `.annot` row codec: how annotations and tiers sit in SQLite rows, and the shapes rows are read in.

/**
 * The columns every read selects, in this order (rows are read as arrays). Each value crossing
 * from SQLite costs about as much as the row lookup itself, so a read takes ten values, not
 * seventeen: the strings that repeat from row to row come packed into one JSON array (decoded
 * once per distinct array, see decodeShared), and the id comes as hex text (a Buffer per row
 * cost more than the string, see blobToId).
 */
export const SELECT = 'lower(hex(id)), json_array(tier, ref_kind, asset_id, target_id, body_schema_uri, generated_by, attributed_to, json(derived_from)), ' +
  'start_v, start_r, end_v, end_r, generated_at_v, generated_at_r, body, confidence';
export type Row = [
  hexId: string, shared: string, startV: number | null, startR: number | null, endV: number | null, endR: number | null,
  generatedAtV: number, generatedAtR: number, body: string, confidence: number | null,
];
export type PagedRow = [...Row, seq: number];
export type KeyRow = [startF: number, seq: number, startV: number, startR: number, endV: number, endR: number];

/** The columns every write sets, in this order. */
export const WRITE_COLUMNS = [
  'tier', 'ref_kind', 'asset_id', 'target_id', 'start_v', 'start_r', 'end_v', 'end_r', 'start_f', 'end_f', 'dur_class',
  'body', 'body_schema_uri', 'generated_by', 'attributed_to', 'derived_from', 'generated_at_v', 'generated_at_r', 'confidence',
];

export type TierRow = [name: string, stereotype: string, parent: string | null, metadata: string];
export type OpRow = [clock: number, kind: string, target_id: string | null, payload: string, actor: string, received_at: string];


/** A UUID as its 16 bytes. Ids reaching the store are valid lower-case UUIDs (makeAnnotation checks). */
export function idToBlob(id: string): Buffer {
  return Buffer.from(normalizeUuid(id).replace(/-/g, ''), 'hex');
}

export function blobToId(blob: Buffer): string {
  return hexToId(blob.toString('hex'));
}

interface Shared {
  readonly tier: string;
  readonly refKind: string;
  readonly assetId: string | null;
  readonly targetId: string | null;
  readonly bodySchemaUri: string;
  readonly generatedBy: string;
  readonly attributedTo: string;
  readonly derivedFrom: readonly string[];
}

/**
 * The repeating strings of a row, decoded once per distinct text: rows of one import share their
 * tier, asset, schema and provenance agents, so a window query decodes them about once. The frozen
 * was_derived_from array is shared between the annotations that have equal ones (it is immutable).
 * Bounded: cleared when it holds too many distinct texts.
 */
const sharedCache = new Map<string, Shared>();
const SHARED_CACHE_LIMIT = 4096;

function decodeShared(text: string): Shared {
  let shared = sharedCache.get(text);
  if (shared === undefined) {
    const [tier, refKind, assetId, targetId, bodySchemaUri, generatedBy, attributedTo, derivedFrom] = JSON.parse(text) as [
      string, string, string | null, string | null, string, string, string, string[],
    ];
    shared = { tier, refKind, assetId, targetId, bodySchemaUri, generatedBy, attributedTo, derivedFrom: Object.freeze(derivedFrom) };
    if (sharedCache.size >= SHARED_CACHE_LIMIT) sharedCache.clear();
    sharedCache.set(text, shared);
  }
  return shared;
}

/**
 * A row back into the frozen record makeAnnotation would build. Rows were checked when written,
 * so they are not re-validated; that keeps a window query close to the cost of the fetch itself.
 */
export function decode(row: Row | PagedRow, knownInterval?: TimeInterval): Annotation {
  const shared = decodeShared(row[1]);
  let reference: Reference;
  if (shared.refKind === 'media') {
    const interval = knownInterval ?? new TimeInterval(new RationalTime(row[2] as number, row[3] as number), new RationalTime(row[4] as number, row[5] as number));
    reference = Object.freeze({ kind: 'media', asset_id: shared.assetId as string, interval });
  } else {
    reference = Object.freeze({ kind: 'annotation', target_id: shared.targetId as string });
  }
  return Object.freeze({
    id: hexToId(row[0]),
    tier: shared.tier,
    reference,
    body: deepFreeze(JSON.parse(row[8])) as JsonObject,
    body_schema_uri: shared.bodySchemaUri,
    provenance: Object.freeze({
      was_generated_by: shared.generatedBy,
      was_attributed_to: shared.attributedTo,
      was_derived_from: shared.derivedFrom,
      generated_at_time: new RationalTime(row[6], row[7]),
    }),
    confidence: row[9],
  });
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export function decodeTier(row: TierRow): Tier {
  return makeTier({ name: row[0], stereotype: row[1] as Tier['stereotype'], parent: row[2], metadata: JSON.parse(row[3]) as Record<string, unknown> });
}

/**
 * An annotation as the values of `id` then WRITE_COLUMNS, in that order. `dur_class` (index 11)
 * is null for an AnnotationRef; a media annotation's class must be registered by the caller.
 */
export function encodeRow(annotation: Annotation): unknown[] {
  const { reference, provenance } = annotation;
  const derived = provenance.was_derived_from;
  const common = [
    JSON.stringify(annotation.body), annotation.body_schema_uri, provenance.was_generated_by, provenance.was_attributed_to,
    derived.length === 0 ? '[]' : JSON.stringify(derived), provenance.generated_at_time.v, provenance.generated_at_time.r,
    annotation.confidence,
  ];
  if (reference.kind === 'annotation') {
    return [idToBlob(annotation.id), annotation.tier, 'annotation', null, reference.target_id, null, null, null, null, null, null, null, ...common];
  }
  const { start, end } = reference.interval;
  const { startF, endF } = seconds(reference.interval);
  return [idToBlob(annotation.id), annotation.tier, 'media', reference.asset_id, null, start.v, start.r, end.v, end.r, startF, endF, durationClass(startF, endF), ...common];
}

/** Index of `dur_class` in encodeRow's values. */
export const DUR_CLASS_PARAM = 11;
