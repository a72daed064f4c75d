import { divideRounding, fractionToDecimal, parseSeconds, type Fraction, type RoundingMode } from './decimal.js';
import { InvalidTimeError, LossyTimeConversionError } from './errors.js';

/**
 * -1, 0 or 1 by the rational values av/ar and bv/br (safe integers, positive rates), for code
 * that holds ticks without RationalTime objects. v / r is the quotient correctly rounded, which
 * is monotone: different floats already order the exact values, and only equal floats need the
 * cross-multiplication in BigInt.
 */
export function compareTicks(av: number, ar: number, bv: number, br: number): -1 | 0 | 1 {
  if (ar === br) return av < bv ? -1 : av > bv ? 1 : 0;
  const x = av / ar;
  const y = bv / br;
  if (x !== y) return x < y ? -1 : 1;
  const left = BigInt(av) * BigInt(br);
  const right = BigInt(bv) * BigInt(ar);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Wire form of a time: integer ticks over a positive integer rate. */
export interface RationalTimeWire {
  /** The tick count. */
  v: number;
  /** The rate, in ticks per second. */
  r: number;
}

/**
 * An exact instant: `v` integer ticks at `r` ticks per second. The pair is kept as given
 * (2/48 stays 2/48: wire form, storage and digests keep the original rate), while comparison
 * is by rational value, cross-multiplied in BigInt so nothing overflows and nothing is a float.
 */
export class RationalTime {
  /** The tick count (a safe integer, negative allowed). */
  readonly v: number;
  /** The rate: ticks per second (a positive safe integer). */
  readonly r: number;

  constructor(v: number, r: number) {
    if (!Number.isSafeInteger(v)) throw new InvalidTimeError(`time ticks v must be a safe integer, got ${v}`);
    if (!Number.isSafeInteger(r) || r <= 0) throw new InvalidTimeError(`time rate r must be a positive integer, got ${r}`);
    this.v = v === 0 ? 0 : v; // normalise -0
    this.r = r;
  }

  /** Exact: throws LossyTimeConversionError when `seconds × rate` is not a whole number of ticks. */
  static fromSeconds(seconds: string | number | bigint, rate: number): RationalTime {
    checkRate(rate);
    const fast = typeof seconds === 'bigint' ? undefined : plainDecimalTicks(String(seconds), rate);
    if (fast !== undefined) return new RationalTime(fast, rate);
    const { num, den } = parseSeconds(seconds);
    const scaled = num * BigInt(rate);
    if (scaled % den !== 0n) {
      throw new LossyTimeConversionError(
        `${String(seconds)} s is not a whole number of ticks at rate ${rate}; pick a rate that divides it exactly or use fromSecondsLossy`,
      );
    }
    return new RationalTime(toSafe(scaled / den, seconds), rate);
  }

  /** Nearest tick (ties to even), floor or ceiling. For callers that decided rounding is acceptable. */
  static fromSecondsLossy(seconds: string | number | bigint, rate: number, mode: RoundingMode = 'round'): RationalTime {
    checkRate(rate);
    const { num, den } = parseSeconds(seconds);
    return new RationalTime(toSafe(divideRounding(num * BigInt(rate), den, mode), seconds), rate);
  }

  /** Wall-clock time now at `rate`, rounded half up to a tick. `nowMs` is injectable for tests. */
  static now(rate: number, nowMs: number = Date.now()): RationalTime {
    checkRate(rate);
    if (!Number.isFinite(nowMs)) throw new InvalidTimeError(`now: clock reading must be a finite number of ms, got ${nowMs}`);
    const ns = BigInt(Math.round(nowMs * 1e3)) * 1000n;
    // Half up: floor(x + 1/2), also for readings before 1970.
    const ticks = divideRounding(ns * BigInt(rate) + 500_000_000n, 1_000_000_000n, 'floor');
    return new RationalTime(toSafe(ticks, `now at rate ${rate}`), rate);
  }

  /**
   * Strict reader of `{v, r}`: integers only, no extra or missing keys, `r > 0`. The seconds `s`
   * that outputs carry beside the pair (wire v2) are accepted and checked: they must be exactly v/r.
   */
  static fromWire(json: unknown, path = 'time'): RationalTime {
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw new InvalidTimeError(`${path}: expected an object {v, r}, got ${describe(json)}`);
    }
    const keys = Object.keys(json);
    for (const key of keys) {
      if (key !== 'v' && key !== 'r' && key !== 's') throw new InvalidTimeError(`${path}.${key}: unexpected key (a time has only v, r and s)`);
    }
    const { v, r, s } = json as Record<string, unknown>;
    if (v === undefined) throw new InvalidTimeError(`${path}.v: missing (expected integer ticks)`);
    if (r === undefined) throw new InvalidTimeError(`${path}.r: missing (expected a positive integer rate)`);
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      throw new InvalidTimeError(`${path}.v: expected an integer number of ticks, got ${describe(v)}`);
    }
    if (typeof r !== 'number' || !Number.isSafeInteger(r) || r <= 0) {
      throw new InvalidTimeError(`${path}.r: expected a positive integer rate, got ${describe(r)}`);
    }
    const time = new RationalTime(v, r);
    if (s !== undefined) checkSeconds(time, s, `${path}.s`);
    return time;
  }

  /** The wire form `{v, r}`. */
  toWire(): RationalTimeWire {
    return { v: this.v, r: this.r };
  }

  /** The wire form `{v, r}`, for JSON.stringify. */
  toJSON(): RationalTimeWire {
    return this.toWire();
  }

  /** The value as a reduced fraction of seconds. */
  toFraction(): Fraction {
    const num = BigInt(this.v);
    const den = BigInt(this.r);
    let a = num < 0n ? -num : num;
    let b = den;
    while (b !== 0n) [a, b] = [b, a % b];
    return a > 1n ? { num: num / a, den: den / a } : { num, den };
  }

  /** Same instant at another rate; throws rather than round. */
  toRate(rate: number): RationalTime {
    checkRate(rate);
    if (rate === this.r) return this;
    const scaled = BigInt(this.v) * BigInt(rate);
    if (scaled % BigInt(this.r) !== 0n) {
      throw new LossyTimeConversionError(`${this.toString()} is not a whole number of ticks at rate ${rate}`);
    }
    return new RationalTime(toSafe(scaled / BigInt(this.r), this.toString()), rate);
  }

  /** The nearest time at another rate, rounded as `mode` says (default to the nearest, ties to even). */
  toRateLossy(rate: number, mode: RoundingMode = 'round'): RationalTime {
    checkRate(rate);
    return new RationalTime(toSafe(divideRounding(BigInt(this.v) * BigInt(rate), BigInt(this.r), mode), this.toString()), rate);
  }

  /** Exact sum, expressed at this (the left operand's) rate. */
  plus(other: RationalTime): RationalTime {
    return this.combine(other, 1n);
  }

  /** Exact difference, expressed at this (the left operand's) rate. */
  minus(other: RationalTime): RationalTime {
    return this.combine(other, -1n);
  }

  private combine(other: RationalTime, sign: bigint): RationalTime {
    if (other.r === this.r) return new RationalTime(toSafe(BigInt(this.v) + sign * BigInt(other.v), this.toString()), this.r);
    const scaled = BigInt(other.v) * BigInt(this.r);
    if (scaled % BigInt(other.r) !== 0n) {
      throw new LossyTimeConversionError(
        `${other.toString()} cannot be added exactly at rate ${this.r}; convert both operands to a common rate first`,
      );
    }
    return new RationalTime(toSafe(BigInt(this.v) + (sign * scaled) / BigInt(other.r), this.toString()), this.r);
  }

  /** -1, 0 or 1 by rational value, across rates. */
  compare(other: RationalTime): -1 | 0 | 1 {
    return compareTicks(this.v, this.r, other.v, other.r);
  }

  /** Whether both are the same time, by rational value (1/2 equals 2/4). */
  equals(other: RationalTime): boolean {
    return this.compare(other) === 0;
  }

  /** Whether this is earlier than `other`, by rational value. */
  lt(other: RationalTime): boolean {
    return this.compare(other) < 0;
  }

  /** Whether this is earlier than or equal to `other`, by rational value. */
  le(other: RationalTime): boolean {
    return this.compare(other) <= 0;
  }

  /** Whether this is later than `other`, by rational value. */
  gt(other: RationalTime): boolean {
    return this.compare(other) > 0;
  }

  /** Whether this is later than or equal to `other`, by rational value. */
  ge(other: RationalTime): boolean {
    return this.compare(other) >= 0;
  }

  /** Same pair, not just the same value (2/48 is not identical to 1/24). */
  isIdentical(other: RationalTime): boolean {
    return this.v === other.v && this.r === other.r;
  }

  /** Seconds as a float: for display and for formats that store floats, never for comparison. */
  toSeconds(): number {
    return this.v / this.r;
  }

  /** Exact decimal seconds when finite (`"12.345"`), else the reduced ratio (`"1/3"`). */
  toSecondsString(): string {
    const { num, den } = this.toFraction();
    return fractionToDecimal(num, den) ?? `${num}/${den}`;
  }

  /** A key equal for equal values at any rate: the reduced fraction. */
  valueKey(): string {
    const { num, den } = this.toFraction();
    return `${num}/${den}`;
  }

  /** `v/r`, as written (not reduced). */
  toString(): string {
    return `${this.v}/${this.r}`;
  }
}

/** Generated-at tick 0: the generation time is unknown (unverifiable), not the oldest possible. */
export const UNKNOWN_GENERATED_AT = new RationalTime(0, 1);

/** Whether a generation time is UNKNOWN_GENERATED_AT (tick 0). */
export function isUnknownGeneratedAt(time: RationalTime): boolean {
  return time.v === 0;
}

function checkRate(rate: number): void {
  if (!Number.isSafeInteger(rate) || rate <= 0) throw new InvalidTimeError(`rate must be a positive integer, got ${rate}`);
}

/**
 * The common case of fromSeconds without regular expressions or BigInt: a plain decimal
 * ("12.345", "-0.25", ".5") of at most 15 digits whose tick count stays a safe integer. Every step
 * is then exact integer arithmetic in doubles (10^f for f <= 15 is exact, and so are sums,
 * products and quotients below 2^53). Anything else, including an inexact result, returns
 * undefined and takes the general path, which also writes the error message.
 */
function plainDecimalTicks(text: string, rate: number): number | undefined {
  const length = text.length;
  let i = 0;
  let negative = false;
  if (length > 0 && text.charCodeAt(0) === 45 /* - */) {
    negative = true;
    i = 1;
  }
  let digits = 0;
  let fractionDigits = -1; // -1 until the point is seen
  let value = 0;
  for (; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits++;
      if (fractionDigits >= 0) fractionDigits++;
    } else if (code === 46 /* . */ && fractionDigits < 0) {
      fractionDigits = 0;
    } else {
      return undefined;
    }
  }
  if (digits === 0 || digits > 15) return undefined;
  const scaled = value * rate;
  if (!Number.isSafeInteger(scaled)) return undefined;
  const unit = 10 ** Math.max(fractionDigits, 0);
  if (scaled % unit !== 0) return undefined;
  const ticks = scaled / unit;
  return negative ? -ticks : ticks;
}

/** `s` beside `{v, r}` is redundant: it must say exactly what v/r says, or the time is refused. */
function checkSeconds(time: RationalTime, s: unknown, path: string): void {
  if (typeof s !== 'string') throw new InvalidTimeError(`${path}: expected the exact seconds as a string like "7.8", got ${describe(s)}`);
  let value: Fraction;
  try {
    value = parseSeconds(s);
  } catch {
    throw new InvalidTimeError(`${path}: expected the exact seconds as a decimal string like "7.8" or a ratio like "1/3", got ${JSON.stringify(s)}`);
  }
  const { num, den } = time.toFraction();
  if (value.num * den !== num * value.den) {
    throw new InvalidTimeError(`${path}: ${JSON.stringify(s)} disagrees with v/r = ${time.toString()} (${time.toSecondsString()} s); send s exactly as v/r, or leave it out`);
  }
}

function toSafe(ticks: bigint, source: unknown): number {
  if (ticks > BigInt(Number.MAX_SAFE_INTEGER) || ticks < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new InvalidTimeError(`time ${String(source)} is out of range: its tick count exceeds 2^53`);
  }
  return Number(ticks);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value;
}
