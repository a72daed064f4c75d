import { fractionToDecimal, gcd, parseSeconds, reduce, type Fraction } from './decimal.js';
import { InvalidTimeError, LossyTimeConversionError } from './errors.js';
import { RationalTime } from './rational-time.js';
import { TimeInterval } from './time-interval.js';

/**
 * The one time vocabulary every surface (CLI flags, HTTP query parameters and JSON bodies, MCP
 * tool arguments) accepts, parsed in one place:
 *
 * - seconds as a decimal string or JSON number: `"12.345"`, `12.345`, `"-0.25"`, `"1e-3"`, or a ratio `"3/4"`;
 * - a timecode `HH:MM:SS.mmm` or `MM:SS.mmm` (the point may be a comma, any number of fraction digits);
 * - SMPTE `HH:MM:SS:FF` with a frame rate `fps` (`24`, `"25"`, `"29.97"`, `"30000/1001"`);
 * - the exact wire pair `{v, r}` (optionally with its seconds `s`, which must agree).
 *
 * Every form is parsed to an exact fraction of seconds; nothing is ever a float. Turning it into
 * ticks at a rate is exact or a LossyTimeConversionError naming the value as it was written.
 */
export type TimeInput =
  | string
  | number
  | {
      /** The tick count. */
      readonly v: number;
      /** The rate, in ticks per second. */
      readonly r: number;
      /** The same time in exact seconds, as outputs carry it; checked against `v/r` when given. */
      readonly s?: string;
    };

/** Options of parsing a time. */
export interface TimeParseOptions {
  /** Frames per second for SMPTE timecodes: a number, a decimal string or a ratio (`"30000/1001"`). */
  readonly fps?: number | string;
  /** What the value is called where it came from (`start`, `--end`, `start_seconds`), for messages. */
  readonly field?: string;
}

/** A time as parsed: its exact value, the rate its spelling suggests, and how it was written. */
export interface ParsedTime {
  /** Exact seconds, reduced. */
  readonly seconds: Fraction;
  /** The pair as given, for the `{v, r}` form (kept as is when no rate is asked for). */
  readonly pair?: RationalTime;
  /**
   * The rate the spelling itself needs: 10^digits for decimals and timecodes, the denominator for
   * a ratio, the frame rate's numerator for SMPTE (24 for 24 fps, 30000 for 30000/1001), r for {v, r}.
   */
  readonly naturalRate: number;
  /** Which form it was written in. */
  readonly form: 'seconds' | 'timecode' | 'smpte' | 'ticks';
  /** The value as written, for messages. */
  readonly text: string;
}

const TIMECODE = /^([+-])?(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d+))?$/;
const SMPTE = /^([+-])?(\d+):(\d{1,2}):(\d{1,2})([:;])(\d{1,3})$/;
const FINEST_RATE = BigInt(Number.MAX_SAFE_INTEGER);

/** The rounded spellings of the NTSC rates (reduced fractions), and the rates they stand for. */
const NTSC_SPELLINGS: ReadonlyMap<string, Fraction> = new Map(
  ([['23.976', 24000n], ['23.98', 24000n], ['29.97', 30000n], ['47.952', 48000n], ['59.94', 60000n], ['119.88', 120000n]] as const)
    .map(([spelling, num]) => {
      const { num: n, den } = parseSeconds(spelling);
      return [`${n}/${den}`, { num, den: 1001n }];
    }),
);

/** Parses one time in any of the forms, exactly. */
export function parseTime(input: TimeInput, options: TimeParseOptions = {}): ParsedTime {
  const field = options.field ?? 'time';
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const pair = RationalTime.fromWire(input, field);
    return { seconds: pair.toFraction(), pair, naturalRate: pair.r, form: 'ticks', text: pair.toString() };
  }
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new InvalidTimeError(`${field}: expected a finite number of seconds, got ${input}`);
    return secondsForm(String(input), field);
  }
  if (typeof input !== 'string') {
    throw new InvalidTimeError(`${field}: expected seconds ("12.345"), a timecode ("00:00:12.345"), SMPTE ("00:00:12:08" with fps) or {v, r}, got ${describe(input)}`);
  }
  const text = input.trim();
  if (text === '') throw new InvalidTimeError(`${field}: expected a time, got an empty string`);
  if (!text.includes(':')) return secondsForm(text, field);
  const smpte = SMPTE.exec(text);
  if (smpte) return smpteForm(text, smpte, options.fps, field);
  const timecode = TIMECODE.exec(text);
  if (timecode) return timecodeForm(text, timecode, field);
  throw new InvalidTimeError(
    `${field}: "${input}" is not a time: expected seconds ("12.345"), a timecode HH:MM:SS.mmm or MM:SS.mmm ("00:01:02.500"), or SMPTE HH:MM:SS:FF with fps`,
  );
}

/** Exact seconds of a frame rate given as a number, decimal or ratio; positive. */
export function parseFps(fps: number | string, field = 'fps'): Fraction {
  let parsed: Fraction;
  try {
    parsed = parseSeconds(fps);
  } catch {
    throw new InvalidTimeError(`${field}: expected frames per second like 24, 25, 29.97 or 30000/1001, got ${JSON.stringify(fps)}`);
  }
  if (parsed.num <= 0n) throw new InvalidTimeError(`${field}: frames per second must be positive, got ${JSON.stringify(fps)}`);
  // 29.97, 23.976, 59.94 are how people write the NTSC rates; they mean 30000/1001 and friends.
  return NTSC_SPELLINGS.get(`${parsed.num}/${parsed.den}`) ?? parsed;
  return parsed;
}

/** Exactly this time at `rate`, or a LossyTimeConversionError naming the value as written. */
export function timeAtRate(parsed: ParsedTime, rate: number, field = 'time'): RationalTime {
  if (parsed.pair && parsed.pair.r === rate) return parsed.pair;
  const scaled = parsed.seconds.num * BigInt(rate);
  if (scaled % parsed.seconds.den !== 0n) {
    throw new LossyTimeConversionError(
      `${field}: ${JSON.stringify(parsed.text)} (${secondsText(parsed.seconds)} s) is not a whole number of ticks at rate ${rate}; ` +
        'give a rate that divides it exactly, or leave the rate out to use the rate the value needs',
    );
  }
  const ticks = scaled / parsed.seconds.den;
  if (ticks > FINEST_RATE || ticks < -FINEST_RATE) throw new InvalidTimeError(`${field}: ${JSON.stringify(parsed.text)} is out of range at rate ${rate}`);
  return new RationalTime(Number(ticks), rate);
}

/** Options of resolving times to ticks. */
export interface ResolveOptions extends TimeParseOptions {
  /** The rate every time must be exact at. Without it, the rate the values need (see resolveTimes). */
  readonly rate?: number;
  /** Without `rate`: the coarsest rate decimal seconds and timecodes get (1000 keeps milliseconds). Default 1. */
  readonly minimumRate?: number;
}

/**
 * Several times (an interval's start and end, a query window) at one rate, exactly. With `rate`,
 * each must be a whole number of ticks at it. Without, a `{v, r}` keeps its own pair and the
 * others share the least common multiple of their natural rates (with decimals and timecodes at
 * least `minimumRate`): "1.5" and "2.25" share 100, SMPTE at 24 fps stays at 24.
 */
export function resolveTimes(inputs: ReadonlyArray<{ value: TimeInput; field: string }>, options: ResolveOptions = {}): RationalTime[] {
  if (options.rate === undefined) {
    const plain = plainDecimalTimes(inputs.map(({ value }) => value), options.minimumRate ?? 1);
    if (plain !== null) return plain;
  }
  const parsed = inputs.map(({ value, field }) => parseTime(value, { ...options, field }));
  if (options.rate !== undefined) {
    checkRate(options.rate);
    return parsed.map((time, i) => timeAtRate(time, options.rate as number, inputs[i].field));
  }
  const minimum = BigInt(options.minimumRate ?? 1);
  let shared = 1n;
  for (const time of parsed) {
    if (time.form === 'ticks') continue;
    const natural = BigInt(time.naturalRate);
    const wanted = time.form === 'smpte' ? natural : lcm(natural, minimum);
    shared = lcm(shared, wanted);
  }
  if (shared > FINEST_RATE) {
    throw new InvalidTimeError(`${inputs.map(({ field }) => field).join(' and ')}: no safe integer rate holds ${parsed.map((time) => JSON.stringify(time.text)).join(' and ')} exactly; give a rate`);
  }
  return parsed.map((time, i) => time.pair ?? timeAtRate(time, Number(shared), inputs[i].field));
}

const PLAIN_DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * resolveTimes' answer for the commonest input, decimal strings written plainly ("12", "-0.25")
 * with a power-of-ten minimum rate, without BigInt: each value's digits over the power of ten its
 * trimmed decimals need, all at the largest of those and the minimum (their least common
 * multiple). Null for anything else, which takes the general path.
 */
function plainDecimalTimes(values: readonly TimeInput[], minimumRate: number): RationalTime[] | null {
  if (!/^10*$/.test(String(minimumRate))) return null;
  const digits: number[] = [];
  const decimals: number[] = [];
  let rate = minimumRate;
  for (const value of values) {
    const match = typeof value === 'string' ? PLAIN_DECIMAL.exec(value) : null;
    if (match === null || match[2].length + (match[3]?.length ?? 0) > 15) return null;
    const fraction = (match[3] ?? '').replace(/0+$/, '');
    const magnitude = Number(match[2] + fraction);
    digits.push(match[1] === '-' ? -magnitude : magnitude);
    decimals.push(fraction.length);
    rate = Math.max(rate, 10 ** fraction.length);
  }
  const times: RationalTime[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = digits[i] * (rate / 10 ** decimals[i]);
    if (!Number.isSafeInteger(v)) return null;
    times.push(new RationalTime(v, rate));
  }
  return times;
}

/** `[start, end)` from any two time inputs (see resolveTimes), end not before start. */
export function resolveInterval(start: TimeInput, end: TimeInput, options: ResolveOptions & { startField?: string; endField?: string } = {}): TimeInterval {
  const startField = options.startField ?? 'start';
  const endField = options.endField ?? 'end';
  const [from, to] = resolveTimes([{ value: start, field: startField }, { value: end, field: endField }], options);
  if (to.lt(from)) {
    throw new InvalidTimeError(
      `${endField} (${to.toSecondsString()} s) precedes ${startField} (${from.toSecondsString()} s): an interval is [start, end) with start <= end`,
    );
  }
  return new TimeInterval(from, to);
}

function secondsForm(text: string, field: string): ParsedTime {
  let seconds: Fraction;
  try {
    seconds = parseSeconds(text);
  } catch (error) {
    throw new InvalidTimeError(`${field}: ${(error as Error).message}; timecodes ("00:01:02.500") and SMPTE ("00:01:02:12" with fps) are taken too`);
  }
  return { seconds, naturalRate: naturalRateOf(seconds, text, field), form: 'seconds', text };
}

function timecodeForm(text: string, match: RegExpExecArray, field: string): ParsedTime {
  const [, sign, hours = '0', minutes, secs, fraction = ''] = match;
  if (match[2] !== undefined && Number(minutes) > 59) throw new InvalidTimeError(`${field}: timecode "${text}" has ${minutes} minutes (at most 59)`);
  if (Number(secs) > 59) throw new InvalidTimeError(`${field}: timecode "${text}" has ${secs} seconds (at most 59)`);
  const whole = (BigInt(hours) * 60n + BigInt(minutes)) * 60n + BigInt(secs);
  const den = 10n ** BigInt(fraction.length);
  const num = whole * den + (fraction === '' ? 0n : BigInt(fraction));
  const seconds = reduce(sign === '-' ? -num : num, den);
  return { seconds, naturalRate: naturalRateOf(seconds, text, field), form: 'timecode', text };
}

function smpteForm(text: string, match: RegExpExecArray, fps: number | string | undefined, field: string): ParsedTime {
  const [, sign, hours, minutes, secs, separator, frames] = match;
  if (separator === ';') {
    throw new InvalidTimeError(`${field}: "${text}" is a drop-frame timecode (";"), which annot does not read; give it non-drop-frame (":") or in seconds`);
  }
  if (fps === undefined) {
    throw new InvalidTimeError(`${field}: "${text}" is an SMPTE timecode HH:MM:SS:FF; give its frame rate (--fps, ?fps=, or the fps argument)`);
  }
  const rate = parseFps(fps);
  if (Number(minutes) > 59 || Number(secs) > 59) throw new InvalidTimeError(`${field}: SMPTE timecode "${text}" has minutes or seconds above 59`);
  // Frames are counted at the nominal whole rate (30 for 29.97); the frame count over the real
  // rate is the time (non-drop-frame), so at whole rates it is simply seconds + FF/fps.
  const nominal = (rate.num + rate.den - 1n) / rate.den;
  if (BigInt(frames) >= nominal) throw new InvalidTimeError(`${field}: SMPTE timecode "${text}" has frame ${frames}, but ${fpsText(rate)} fps counts frames 0 to ${nominal - 1n}`);
  const count = ((BigInt(hours) * 60n + BigInt(minutes)) * 60n + BigInt(secs)) * nominal + BigInt(frames);
  const seconds = reduce((sign === '-' ? -count : count) * rate.den, rate.num);
  return { seconds, naturalRate: Number(rate.num), form: 'smpte', text };
}

/** The rate a decimal's or ratio's own digits need: 10^digits when it is a finite decimal, else its denominator. */
function naturalRateOf(seconds: Fraction, text: string, field: string): number {
  let rate = 1n;
  while (rate % seconds.den !== 0n && rate <= FINEST_RATE) rate *= 10n;
  if (rate % seconds.den !== 0n) rate = seconds.den;
  if (rate > FINEST_RATE) throw new InvalidTimeError(`${field}: "${text}" needs more precision than a safe integer rate holds`);
  return Number(rate);
}

function secondsText({ num, den }: Fraction): string {
  return fractionToDecimal(num, den) ?? `${num}/${den}`;
}

function fpsText({ num, den }: Fraction): string {
  return den === 1n ? String(num) : `${num}/${den}`;
}

function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}

function checkRate(rate: number): void {
  if (!Number.isSafeInteger(rate) || rate <= 0) throw new InvalidTimeError(`rate must be a positive integer, got ${rate}`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
