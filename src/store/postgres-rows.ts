import type { Annotation, Reference } from '../model/annotation.js';
import type { JsonObject } from '../json/json-body.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { makeTier, type Tier } from '../model/tier.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { ProjectRateLossError } from './errors.js';

/**
 * How annotations and tiers travel to and from PostgreSQL rows: the column lists, the arrays a
 * bulk insert sends (one per column, expanded server-side with unnest), and the decoding of a
 * row back into the frozen record makeAnnotation would have built.
 */

/** The columns every read selects. */
export const SELECT_COLUMNS =
  'id::text AS id, tier, ref_kind, asset_id, target_id::text AS target_id, start_v, start_r, end_v, end_r, body, body_schema_uri, ' +
  'generated_by, attributed_to, derived_from, generated_at_v, generated_at_r, confidence';

export interface AnnotationRow {
  id: string;
  tier: string;
  ref_kind: string;
  asset_id: string | null;
  target_id: string | null;
  start_v: string | number | null;
  start_r: string | number | null;
  end_v: string | number | null;
  end_r: string | number | null;
  body: unknown;
  body_schema_uri: string;
  generated_by: string;
  attributed_to: string;
  derived_from: unknown;
  generated_at_v: string | number;
  generated_at_r: string | number;
  confidence: number | null;
}

/**
 * One row as a JSON array (ROW_FIELDS order, then seq), for reads of many rows: they come back as
 * one json_agg value that JSON.parse reads natively, about a third faster than pg's per-field
 * row parsing for a window of a hundred annotations.
 */
const ROW_FIELDS = [
  'id', 'tier', 'ref_kind', 'asset_id', 'target_id', 'start_v', 'start_r', 'end_v', 'end_r', 'body', 'body_schema_uri',
  'generated_by', 'attributed_to', 'derived_from', 'generated_at_v', 'generated_at_r', 'confidence',
] as const;
export const ROW_JSON = `json_build_array(${ROW_FIELDS.join(', ')}, seq)`;

/** A ROW_JSON array back into an annotation; `seq` is its last element. */
export function decodeTuple(tuple: readonly unknown[]): Annotation {
  const row = {} as Record<string, unknown>;
  for (let i = 0; i < ROW_FIELDS.length; i++) row[ROW_FIELDS[i]] = tuple[i];
  return decodeAnnotation(row as unknown as AnnotationRow);
}

/** The written columns after pid, in order, with the array type unnest expands each from. */
export const WRITE_COLUMNS: ReadonlyArray<readonly [column: string, arrayType: string]> = [
  ['id', 'uuid[]'], ['tier', 'text[]'], ['ref_kind', 'text[]'], ['asset_id', 'text[]'], ['target_id', 'uuid[]'],
  ['start_v', 'int8[]'], ['start_r', 'int8[]'], ['end_v', 'int8[]'], ['end_r', 'int8[]'],
  ['start_n', 'int8[]'], ['end_n', 'int8[]'], ['span', 'int8range[]'],
  ['body', 'json[]'], ['body_schema_uri', 'text[]'], ['generated_by', 'text[]'], ['attributed_to', 'text[]'], ['derived_from', 'json[]'],
  ['generated_at_v', 'int8[]'], ['generated_at_r', 'int8[]'], ['confidence', 'float8[]'],
];

/** Columns whose array elements never need quoting (numbers, UUIDs). */
const BARE_ELEMENTS = new Set(['uuid[]', 'int8[]', 'float8[]']);

/**
 * One array literal per column for a bulk insert, e.g. `{"a","b\"c",NULL}`. Spelt here rather
 * than by pg's generic array serialiser, which was the slowest step of a bulk load (about a third
 * of the speed of everything else together).
 */
export function columnArrays(rows: readonly RowValues[]): string[] {
  return WRITE_COLUMNS.map(([, type], k) => {
    const bare = BARE_ELEMENTS.has(type);
    const parts = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const value = rows[i][k];
      if (value === null) parts[i] = 'NULL';
      else if (bare) parts[i] = String(value);
      else parts[i] = `"${String(value).replace(/["\\]/g, '\\$&')}"`;
    }
    return `{${parts.join(',')}}`;
  });
}

export type RowValues = Array<string | number | null>;

/** The largest int8; query bounds beyond it are clamped, stored times beyond it refused. */
export const INT8_MAX = 2n ** 63n - 1n;

/** A query bound clamped into int8, so an absurdly far query asks for everything rather than failing. */
export function clampInt8(ticks: bigint): bigint {
  return ticks > INT8_MAX ? INT8_MAX : ticks < -INT8_MAX ? -INT8_MAX : ticks;
}

/**
 * Whole ticks at a project's rate. Stored endpoints must convert exactly (ProjectRateLossError
 * otherwise); query bounds may be rounded outward, since the exact recheck follows.
 */
export class ProjectRate {
  private readonly big: bigint;

  constructor(
    readonly rate: number,
    readonly project: string,
  ) {
    this.big = BigInt(rate);
  }

  exact(time: RationalTime): bigint {
    const scaled = BigInt(time.v) * this.big;
    const r = BigInt(time.r);
    if (scaled % r !== 0n) throw new ProjectRateLossError(time.toSecondsString(), this.rate, this.project);
    const ticks = scaled / r;
    if (ticks > INT8_MAX || ticks < -INT8_MAX) {
      throw new InvalidInputError(
        `time ${time.toSecondsString()} s is beyond what project "${this.project}" can hold at rate ${this.rate} (64-bit ticks); use a project with a lower rate`,
      );
    }
    return ticks;
  }

  /** The exact ticks, or null when the time falls between two ticks. */
  exactOrNull(time: RationalTime): bigint | null {
    const scaled = BigInt(time.v) * this.big;
    const r = BigInt(time.r);
    return scaled % r === 0n ? scaled / r : null;
  }

  floor(time: RationalTime): bigint {
    const scaled = BigInt(time.v) * this.big;
    const r = BigInt(time.r);
    const q = scaled / r;
    return scaled % r !== 0n && scaled < 0n ? q - 1n : q;
  }

  ceil(time: RationalTime): bigint {
    const scaled = BigInt(time.v) * this.big;
    const r = BigInt(time.r);
    const q = scaled / r;
    return scaled % r !== 0n && scaled > 0n ? q + 1n : q;
  }
}

/**
 * The text of the int8range PostgreSQL stores for ticks [s, e) — a point [t, t] is [t, t+1) —
 * spelled as PostgreSQL prints it, so constraint-violation details can be matched back to rows.
 */
export function spanText(start: bigint, end: bigint): string {
  return `[${start},${start === end ? start + 1n : end})`;
}

/** The column values of one annotation, in WRITE_COLUMNS order; times normalised exactly. */
export function encodeAnnotation(annotation: Annotation, rate: ProjectRate): RowValues {
  const { reference, provenance } = annotation;
  const common = [
    JSON.stringify(annotation.body), annotation.body_schema_uri, provenance.was_generated_by, provenance.was_attributed_to,
    JSON.stringify(provenance.was_derived_from), provenance.generated_at_time.v, provenance.generated_at_time.r, annotation.confidence,
  ];
  if (reference.kind === 'annotation') {
    return [annotation.id, annotation.tier, 'annotation', null, reference.target_id, null, null, null, null, null, null, null, ...common];
  }
  const { start, end } = reference.interval;
  const s = rate.exact(start);
  const e = rate.exact(end);
  return [
    annotation.id, annotation.tier, 'media', reference.asset_id, null,
    start.v, start.r, end.v, end.r, String(s), String(e), spanText(s, e), ...common,
  ];
}

/** The span text of an encoded row (null for an AnnotationRef). */
export function rowSpan(values: RowValues): string | null {
  return values[11] as string | null;
}

/**
 * A row back into a frozen annotation. Rows were checked when written, so they are not
 * validated again; that keeps a window query close to the cost of the fetch itself.
 */
export function decodeAnnotation(row: AnnotationRow): Annotation {
  let reference: Reference;
  if (row.ref_kind === 'media') {
    const interval = new TimeInterval(
      new RationalTime(Number(row.start_v), Number(row.start_r)),
      new RationalTime(Number(row.end_v), Number(row.end_r)),
    );
    reference = Object.freeze({ kind: 'media', asset_id: row.asset_id as string, interval });
  } else {
    reference = Object.freeze({ kind: 'annotation', target_id: row.target_id as string });
  }
  return Object.freeze({
    id: row.id,
    tier: row.tier,
    reference,
    body: deepFreeze(row.body) as JsonObject,
    body_schema_uri: row.body_schema_uri,
    provenance: Object.freeze({
      was_generated_by: row.generated_by,
      was_attributed_to: row.attributed_to,
      was_derived_from: Object.freeze(row.derived_from as string[]),
      generated_at_time: new RationalTime(Number(row.generated_at_v), Number(row.generated_at_r)),
    }),
    confidence: row.confidence,
  });
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

export interface TierRow {
  name: string;
  stereotype: string;
  parent: string | null;
  metadata: unknown;
}

export function decodeTier(row: TierRow): Tier {
  return makeTier({ name: row.name, stereotype: row.stereotype as Tier['stereotype'], parent: row.parent, metadata: row.metadata as Record<string, unknown> });
}
