import { InvalidInputError } from '../errors/annot-error.js';
import { fractionToDecimal } from '../time/decimal.js';
import type { RetimeRequest } from '../time/retime.js';
import type { TimeInput } from '../time/time-input.js';
import type { RetimeStoreResult } from './retime-store.js';

/** A retime as HTTP and MCP take it: the request's parts, and what to retime and how strictly. */
export interface RetimeCall {
  /** The map's parts (`shift`, `fps_from`...). */
  readonly request: RetimeRequest;
  /** Only this tier, and the tiers below it. */
  readonly tier?: string;
  /** Refuse instead of cutting or dropping an annotation pushed before 0 s. */
  readonly strict: boolean;
  /** Refuse instead of rounding a time to a tick. */
  readonly strictTime: boolean;
}

const PARTS = ['shift', 'fps_from', 'fps_to', 'scale', 'sync', 'within', 'fps'] as const;
const FIELDS: readonly string[] = [...PARTS, 'tier', 'strict', 'strict_time'];

/**
 * The body of POST /retime (and the retime tool's arguments): a RetimeRequest's snake_case parts
 * with `tier`, `strict` and `strict_time`, each checked for its type here and named by its field,
 * so that a value of the wrong kind is a 400 naming it, never a failure inside the time parser.
 * What the values mean (a time, a frame rate) is retimeMap's to check, in the same spelling.
 */
export function retimeCallFromWire(body: unknown): RetimeCall {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidInputError('body: expected a JSON object such as {"shift": "2.5"} or {"fps_from": "23.976", "fps_to": "25"}');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) throw new InvalidInputError(`${unknown}: unknown field (expected ${FIELDS.join(', ')})`);
  for (const name of ['fps_from', 'fps_to', 'scale', 'fps'] as const) checkNumberOrString(fields[name], name);
  if (fields.shift !== undefined) checkTime(fields.shift, 'shift');
  if (fields.sync !== undefined && typeof fields.sync !== 'string') checkPairs(fields.sync, 'sync');
  if (fields.within !== undefined) {
    if (!Array.isArray(fields.within) || fields.within.length !== 2) throw new InvalidInputError('within: expected two times [START, END]');
    fields.within.forEach((time, index) => checkTime(time, `within[${index}]`));
  }
  if (fields.tier !== undefined && (typeof fields.tier !== 'string' || fields.tier === '')) throw new InvalidInputError('tier: expected a tier name (a string)');
  for (const name of ['strict', 'strict_time']) {
    if (fields[name] !== undefined && typeof fields[name] !== 'boolean') throw new InvalidInputError(`${name}: expected true or false`);
  }
  const request = Object.fromEntries(PARTS.filter((part) => fields[part] !== undefined).map((part) => [part, fields[part]])) as RetimeRequest;
  return { request, ...(fields.tier !== undefined ? { tier: fields.tier as string } : {}), strict: fields.strict === true, strictTime: fields.strict_time === true };
}

/** What a retime did, as POST /retime answers, the retime tool returns and `annot retime --json` prints. */
export interface RetimeResultWire {
  /** The map for people: `×960/1001, +2.5 s`. */
  readonly description: string;
  /** The exact map: seconds ↦ seconds × factor + offset, both as exact decimals or reduced fractions. */
  readonly map: { readonly factor: string; readonly offset: string; readonly within?: readonly [string, string] };
  /** Annotations the map moved. */
  readonly moved: number;
  /** Annotations cut to start at 0 s. */
  readonly cut: number;
  /** Annotations dropped, wholly before 0 s. */
  readonly dropped: number;
  /** Annotations without a time dropped with the one they referred to. */
  readonly dropped_referring: number;
  /** Times rounded to a tick of their rate. */
  readonly rounded: number;
  /** The tiers retimed. */
  readonly tiers: readonly string[];
  /** One line per kind of loss. */
  readonly findings: readonly string[];
  /** The op-log clock of the retime's last entry, null when nothing changed. */
  readonly clock: number | null;
}

/** A retime's result in its wire form. */
export function retimeResultToWire(result: RetimeStoreResult): RetimeResultWire {
  const { map, counts } = result;
  const text = ({ num, den }: { num: bigint; den: bigint }) => fractionText(num, den);
  return {
    description: result.description,
    map: { factor: text(map.factor), offset: text(map.offset), ...(map.within ? { within: [text(map.within.start), text(map.within.end)] as const } : {}) },
    moved: counts.moved,
    cut: counts.cut,
    dropped: counts.dropped,
    dropped_referring: result.droppedReferring,
    rounded: counts.rounded,
    tiers: result.tiers,
    findings: result.findings,
    clock: result.clock,
  };
}

function fractionText(num: bigint, den: bigint): string {
  return fractionToDecimal(num, den) ?? `${num}/${den}`;
}

function checkNumberOrString(value: unknown, field: string): void {
  if (value !== undefined && typeof value !== 'string' && typeof value !== 'number') throw new InvalidInputError(`${field}: expected a number or a string such as "23.976" or "24000/1001"`);
}

function checkTime(value: unknown, field: string): asserts value is TimeInput {
  if (typeof value === 'string' || typeof value === 'number') return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return; // {v, r}: the time parser names what is wrong in it
  throw new InvalidInputError(`${field}: expected a time: seconds ("2.5"), a timecode ("-00:00:01.200"), SMPTE with fps, or {v, r}`);
}

function checkPairs(value: unknown, field: string): void {
  if (!Array.isArray(value) || value.length !== 2) throw new InvalidInputError(`${field}: expected 'T1=U1,T2=U2' or two pairs [[T1, U1], [T2, U2]]`);
  value.forEach((pair, index) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw new InvalidInputError(`${field}[${index}]: expected a pair [from, to]`);
    pair.forEach((time, side) => checkTime(time, `${field}[${index}][${side}]`));
  });
}
