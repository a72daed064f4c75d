import { compareFractions, divideRounding, fractionToDecimal, reduce, type Fraction } from './decimal.js';
import { InvalidTimeError } from './errors.js';
import { RationalTime } from './rational-time.js';
import { parseFps, parseTime, type TimeInput } from './time-input.js';

/**
 * A retime as people ask for it: every part optional, composed in one documented order (see
 * retimeMap). Keys are the wire's snake_case; the CLI spells them `--shift`, `--fps-from`...
 */
export interface RetimeRequest {
  /** Moves every time by this signed amount, in any time form (`2.5`, `-00:00:01.200`, SMPTE with `fps`, `{v, r}`). */
  readonly shift?: TimeInput;
  /** The frame rate the times were made for (`23.976`, `24000/1001`, `25`); with `fps_to`, scales by fps_from/fps_to. */
  readonly fps_from?: string | number;
  /** The frame rate of the media the times should fit. */
  readonly fps_to?: string | number;
  /** A plain positive ratio to multiply times by (`1.001`, `25/24`). */
  readonly scale?: string | number;
  /**
   * Two-point sync: `'T1=U1,T2=U2'` (or two `[from, to]` pairs): the time that was at T1 goes to
   * U1 and T2 to U2, linearly in between and beyond, as Subtitle Edit's point sync does.
   */
  readonly sync?: string | readonly (readonly [TimeInput, TimeInput])[];
  /** Retime only annotations that start in `[start, end)` (times before the retime); the others stay. */
  readonly within?: readonly [TimeInput, TimeInput];
  /** Frames per second for SMPTE spellings (`00:00:12:05`) in the other parts. */
  readonly fps?: string | number;
}

/** The keys of a RetimeRequest, to name a part in a message the way the caller's surface spells it. */
export type RetimePart = keyof RetimeRequest;

/**
 * An increasing affine map of time, exact: `t ↦ t × factor + offset` (seconds as fractions),
 * applied to the times that start inside `within` when it is set.
 */
export interface RetimeMap {
  /** The multiplier, positive. */
  readonly factor: Fraction;
  /** Seconds added after multiplying. */
  readonly offset: Fraction;
  /** The window of original times whose annotations move (start inclusive, end exclusive); absent for all. */
  readonly within?: RetimeWindow;
}

/** The original times whose annotations a map moves: those that start in `[start, end)`. */
export interface RetimeWindow {
  /** The first second in the window (inclusive). */
  readonly start: Fraction;
  /** The second the window stops before (exclusive). */
  readonly end: Fraction;
}

/** How to spell a part of the request in messages: `--fps-from` on the command line, `fps_from` over HTTP. */
export type PartSpelling = (part: RetimePart) => string;

/** The wire's own spelling of a part (`fps_from`). */
export const wireSpelling: PartSpelling = (part) => part;

/** A command line's spelling of a part (`--fps-from`). */
export const flagSpelling: PartSpelling = (part) => `--${part.replace('_', '-')}`;

const ONE: Fraction = { num: 1n, den: 1n };
const ZERO: Fraction = { num: 0n, den: 1n };

/**
 * The one map a request describes. The parts compose in this order, each on the times the one
 * before gave: the frame-rate change (`fps_from/fps_to`), then `scale`, then `shift`. `sync` fixes
 * both the scale and the offset itself, so it cannot be combined with `fps_from`, `fps_to` or
 * `scale`; a `shift` with it applies after it. `within` picks the annotations by their start
 * before any of this. An empty request is the identity.
 */
export function retimeMap(request: RetimeRequest, spell: PartSpelling = wireSpelling): RetimeMap {
  const fps = request.fps;
  let factor = frameRateFactor(request, spell);
  if (request.scale !== undefined) factor = times(factor, positiveRatio(request.scale, spell('scale')));
  let offset = ZERO;
  if (request.sync !== undefined) {
    if (request.fps_from !== undefined || request.fps_to !== undefined || request.scale !== undefined) {
      throw new InvalidTimeError(`${spell('sync')}: a two-point sync sets the scale itself; leave out ${spell('fps_from')}, ${spell('fps_to')} and ${spell('scale')}`);
    }
    ({ factor, offset } = twoPointMap(request.sync, spell('sync'), fps));
  }
  if (request.shift !== undefined) offset = plus(offset, parseTime(request.shift, { fps, field: spell('shift') }).seconds);
  const within = request.within === undefined ? undefined : windowOf(request.within, spell('within'), fps);
  return within === undefined ? { factor, offset } : { factor, offset, within };
}

/** Whether the map changes nothing. */
export function isIdentityMap(map: RetimeMap): boolean {
  return map.factor.num === map.factor.den && map.offset.num === 0n;
}

/** The inverse map (for undoing a retime); `within` is not carried over, since it names original times. */
export function inverseMap(map: RetimeMap): RetimeMap {
  const factor = reduce(map.factor.den, map.factor.num);
  return { factor, offset: times(negate(map.offset), factor) };
}

/** The exact seconds a map sends `seconds` to. */
export function mapSeconds(map: RetimeMap, seconds: Fraction): Fraction {
  return plus(times(seconds, map.factor), map.offset);
}

/** Whether an annotation that starts at `start` is one the map moves (all of them, without `within`). */
export function mapApplies(map: RetimeMap, start: RationalTime): boolean {
  if (map.within === undefined) return true;
  const at = start.toFraction();
  return compareFractions(at, map.within.start) >= 0 && compareFractions(at, map.within.end) < 0;
}

/** A time after a map: at its own rate, and whether it had to be rounded to a tick there. */
export interface MappedTime {
  /** The new time, at the rate the old one had. */
  readonly time: RationalTime;
  /** Whether the exact value fell between ticks and was rounded to the nearest (ties to even). */
  readonly rounded: boolean;
}

/**
 * Maps one time, keeping its rate: exact when the rate holds the result (a shift in milliseconds
 * at a millisecond rate), else rounded to the nearest tick, ties to even, as times read at an
 * import rate are. Constants are kept per rate, so a stream of cues at one rate does no gcd.
 */
export class TimeMapper {
  private readonly byRate = new Map<number, RateConstants>();

  constructor(readonly map: RetimeMap) {}

  /** `time` after the map, at its own rate. */
  apply(time: RationalTime): MappedTime {
    const constants = this.constantsFor(time.r);
    if (constants.shiftTicks !== null) {
      const v = time.v + constants.shiftTicks;
      if (Number.isSafeInteger(v)) return { time: new RationalTime(v, time.r), rounded: false };
    }
    // ticks' = (v × factor.num × offset.den + offset.num × r × factor.den) / (factor.den × offset.den)
    const numerator = BigInt(time.v) * constants.vMultiplier + constants.addend;
    const ticks = divideRounding(numerator, constants.divisor, 'round');
    const rounded = numerator % constants.divisor !== 0n;
    if (ticks > BigInt(Number.MAX_SAFE_INTEGER) || ticks < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new InvalidTimeError(`time ${time.toSecondsString()} s is out of range after the retime`);
    }
    return { time: new RationalTime(Number(ticks), time.r), rounded };
  }

  private constantsFor(rate: number): RateConstants {
    let constants = this.byRate.get(rate);
    if (constants === undefined) {
      const { factor, offset } = this.map;
      const r = BigInt(rate);
      const unitFactor = factor.num === factor.den;
      const offsetTicks = offset.num * r;
      const shiftTicks = unitFactor && offsetTicks % offset.den === 0n ? Number(offsetTicks / offset.den) : null;
      constants = {
        shiftTicks: shiftTicks !== null && Number.isSafeInteger(shiftTicks) ? shiftTicks : null,
        vMultiplier: factor.num * offset.den,
        addend: offset.num * r * factor.den,
        divisor: factor.den * offset.den,
      };
      this.byRate.set(rate, constants);
    }
    return constants;
  }
}

interface RateConstants {
  readonly shiftTicks: number | null;
  readonly vMultiplier: bigint;
  readonly addend: bigint;
  readonly divisor: bigint;
}

/** A short description of a map for messages: `×25025/24000, +2.5 s`. */
export function describeMap(map: RetimeMap): string {
  const parts: string[] = [];
  if (map.factor.num !== map.factor.den) parts.push(`×${fractionText(map.factor)}`);
  if (map.offset.num !== 0n) parts.push(`${map.offset.num > 0n ? '+' : ''}${fractionText(map.offset)} s`);
  if (parts.length === 0) parts.push('no change');
  if (map.within !== undefined) parts.push(`within [${fractionText(map.within.start)} s, ${fractionText(map.within.end)} s)`);
  return parts.join(', ');
}

function frameRateFactor(request: RetimeRequest, spell: PartSpelling): Fraction {
  const { fps_from: from, fps_to: to } = request;
  if (from === undefined && to === undefined) return ONE;
  if (from === undefined || to === undefined) {
    throw new InvalidTimeError(`${spell(from === undefined ? 'fps_from' : 'fps_to')}: missing; a frame-rate change needs both ${spell('fps_from')} and ${spell('fps_to')} (for example 23.976 and 25)`);
  }
  // Times made at `from` frames per second show frame n at n/from; at `to` it is n/to: × from/to.
  const a = parseFps(from, spell('fps_from'));
  const b = parseFps(to, spell('fps_to'));
  return reduce(a.num * b.den, a.den * b.num);
}

function positiveRatio(value: string | number, field: string): Fraction {
  let ratio: Fraction;
  try {
    ratio = parseTime(typeof value === 'number' ? value : value.trim(), { field }).seconds;
  } catch {
    throw new InvalidTimeError(`${field}: expected a positive ratio like 1.001 or 25/24, got ${JSON.stringify(value)}`);
  }
  if (ratio.num <= 0n) throw new InvalidTimeError(`${field}: expected a positive ratio like 1.001 or 25/24, got ${JSON.stringify(value)}`);
  return ratio;
}

function twoPointMap(sync: NonNullable<RetimeRequest['sync']>, field: string, fps: string | number | undefined): { factor: Fraction; offset: Fraction } {
  const pairs = typeof sync === 'string' ? syncPairsOf(sync, field, fps) : sync.map(([from, to], i) => [
    parseTime(from, { fps, field: `${field}[${i}][0]` }).seconds,
    parseTime(to, { fps, field: `${field}[${i}][1]` }).seconds,
  ] as const);
  if (pairs.length !== 2) throw new InvalidTimeError(`${field}: expected two points 'T1=U1,T2=U2', got ${pairs.length}`);
  const [[t1, u1], [t2, u2]] = pairs;
  const dt = minus(t2, t1);
  if (dt.num === 0n) throw new InvalidTimeError(`${field}: the two points are at the same time; give two different times`);
  const factor = divide(minus(u2, u1), dt);
  if (factor.num <= 0n) throw new InvalidTimeError(`${field}: the points must keep their order (T1 before T2 and U1 before U2), or the times would run backwards`);
  return { factor, offset: minus(u1, times(t1, factor)) };
}

/**
 * `'T1=U1,T2=U2'`. A timecode may itself hold a comma (`00:01:02,500`), so the comma between the
 * points is the one where both sides read as times; two such places is ambiguous.
 */
function syncPairsOf(text: string, field: string, fps: string | number | undefined): (readonly [Fraction, Fraction])[] {
  const sides = text.split('=');
  const expected = `${field}: expected two points 'T1=U1,T2=U2' (for example '00:00:10=00:00:12.5,01:30:00=01:30:04')`;
  if (sides.length !== 3) throw new InvalidTimeError(`${expected}, got ${JSON.stringify(text)}`);
  const read = (value: string): Fraction | null => {
    try {
      return parseTime(value.trim(), { fps, field }).seconds;
    } catch {
      return null;
    }
  };
  const middles: [Fraction, Fraction][] = [];
  const middle = sides[1];
  for (let i = middle.indexOf(','); i >= 0; i = middle.indexOf(',', i + 1)) {
    const u1 = read(middle.slice(0, i));
    const t2 = read(middle.slice(i + 1));
    if (u1 !== null && t2 !== null) middles.push([u1, t2]);
  }
  if (middles.length !== 1) {
    throw new InvalidTimeError(middles.length === 0 ? `${expected}, got ${JSON.stringify(text)}` : `${field}: ${JSON.stringify(text)} can be read two ways; write the times with a point, not a comma`);
  }
  const t1 = parseTime(sides[0].trim(), { fps, field }).seconds;
  const u2 = parseTime(sides[2].trim(), { fps, field }).seconds;
  return [[t1, middles[0][0]], [middles[0][1], u2]];
}

function windowOf(within: readonly [TimeInput, TimeInput], field: string, fps: string | number | undefined): RetimeWindow {
  if (!Array.isArray(within) || within.length !== 2) throw new InvalidTimeError(`${field}: expected two times, START and END`);
  const start = parseTime(within[0], { fps, field: `${field} START` }).seconds;
  const end = parseTime(within[1], { fps, field: `${field} END` }).seconds;
  if (compareFractions(end, start) <= 0) throw new InvalidTimeError(`${field}: END must be after START`);
  return { start, end };
}

function times(a: Fraction, b: Fraction): Fraction {
  return reduce(a.num * b.num, a.den * b.den);
}

function divide(a: Fraction, b: Fraction): Fraction {
  return reduce(a.num * b.den, a.den * b.num);
}

function plus(a: Fraction, b: Fraction): Fraction {
  return reduce(a.num * b.den + b.num * a.den, a.den * b.den);
}

function minus(a: Fraction, b: Fraction): Fraction {
  return plus(a, negate(b));
}

function negate(a: Fraction): Fraction {
  return { num: -a.num, den: a.den };
}

function fractionText({ num, den }: Fraction): string {
  return fractionToDecimal(num, den) ?? `${num}/${den}`;
}
