import type { AnnotationInit } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import { RationalTime } from '../../time/rational-time.js';
import type { LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import type { OtioValue } from './otio-json.js';
import { isObject } from './otio-json.js';
import { DEFAULT_ASSET_ID, uniqueName } from './otio-model.js';
import { readOtioTime } from './otio-time.js';
import type { PendingAnnotation } from './pending-annotations.js';

/**
 * What the passes of the OTIO reader share, as OTIO's own C++ reader keeps its state in one
 * object: the tiers declared so far and their names, the clock times go through, and the
 * annotations found (as what builds them, see pending-annotations.ts).
 */
export interface ReadState {
  readonly file: string;
  readonly options: LoadOptions;
  readonly clock: ImportClock;
  /** `--rate` was given: every time goes through the clock at that rate. */
  readonly forced: boolean;
  /** Time zero at the forced rate, so that with --rate every time is at that rate. */
  readonly zero: RationalTime;
  /** The asset of items that name no media (gaps, transitions, nested items, markers). */
  readonly defaultAsset: string;
  readonly provenance: AnnotationInit['provenance'];
  readonly tiers: Tier[];
  readonly tierNames: Set<string>;
  readonly pending: PendingAnnotation[];
  /** The tier of each top-level track, by its index in the stack (for `lane_of`). */
  readonly tierOfTrack: Map<number, string>;
}

export function newReadState(options: LoadOptions): ReadState {
  return {
    file: options.sourceName,
    options,
    clock: new ImportClock(options.rate ?? 1_000_000, options.strictTime),
    forced: options.rate !== undefined,
    zero: new RationalTime(0, options.rate ?? 1),
    defaultAsset: options.assetId ?? DEFAULT_ASSET_ID,
    provenance: importProvenance('otio', options),
    tiers: [],
    tierNames: new Set(),
    pending: [],
    tierOfTrack: new Map(),
  };
}

/** Refuses the file: `expected` says what should have been at the JSON path. */
export function fail(state: ReadState, path: string, expected: string): never {
  throw new FormatParseError(state.file, { path }, expected);
}

/**
 * A time that is there but unreadable (no rate, a rate of 0, a value that is not a number) is
 * refused: read as zero it would move items, and what we wrote back would not say the same.
 */
export function timeAt(state: ReadState, value: OtioValue | undefined, path: string): RationalTime | null {
  const read = readOtioTime(value, state.clock, state.forced, path);
  if (read === null && value !== undefined && value !== null) {
    return fail(state, path, 'an OTIO RationalTime: {"OTIO_SCHEMA": "RationalTime.1", "value": <number>, "rate": <number above 0>}');
  }
  return read;
}

/** A TimeRange's start_time, zero when the range or its start is absent. */
export function startOf(state: ReadState, range: OtioValue | undefined, path: string): RationalTime {
  return isObject(range) ? (timeAt(state, range.start_time, `${path}.start_time`) ?? state.zero) : state.zero;
}

/** A TimeRange's duration, null when the range or its duration is absent. */
export function durationOf(state: ReadState, range: OtioValue | undefined, path: string): RationalTime | null {
  return isObject(range) ? timeAt(state, range.duration, `${path}.duration`) : null;
}

/** `base`, or `base 2`, `base 3`... when taken; an empty name is `untitled`. */
export function uniqueTier(state: ReadState, base: string): string {
  const name = uniqueName(state.tierNames, base);
  state.tierNames.add(name);
  return name;
}

export function report(state: ReadState, code: string, path: string, message: string): void {
  state.options.report({ code, severity: 'warning', file: state.file, location: { path }, message });
}
