import { gcd, reduce, type Fraction } from '../../time/decimal.js';

/**
 * Exact seconds as reduced fractions of BigInts, for TTML's time arithmetic: offsets added to
 * their parents' begins, frames divided by rates like 24000/1001, ticks by a tick rate. Nothing
 * here is ever a float, so a 1001/30000 frame rate adds up without drift.
 */
export type Seconds = Fraction;

export const ZERO: Seconds = { num: 0n, den: 1n };

export function seconds(num: bigint, den = 1n): Seconds {
  return reduce(num, den);
}

export function add(a: Seconds, b: Seconds): Seconds {
  return a.den === b.den ? reduce(a.num + b.num, a.den) : reduce(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function subtract(a: Seconds, b: Seconds): Seconds {
  return add(a, { num: -b.num, den: b.den });
}

export function multiply(a: Seconds, b: Seconds): Seconds {
  return reduce(a.num * b.num, a.den * b.den);
}

export function divide(a: Seconds, b: Seconds): Seconds {
  return b.num < 0n ? reduce(-a.num * b.den, a.den * -b.num) : reduce(a.num * b.den, a.den * b.num);
}

export function compare(a: Seconds, b: Seconds): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

export function min(a: Seconds, b: Seconds): Seconds {
  return compare(a, b) <= 0 ? a : b;
}

export function max(a: Seconds, b: Seconds): Seconds {
  return compare(a, b) >= 0 ? a : b;
}

/** `"3/2"`, or `"7"` for a whole number: how markup and messages write exact seconds. */
export function secondsText(value: Seconds): string {
  return value.den === 1n ? String(value.num) : `${value.num}/${value.den}`;
}

/** The inverse of secondsText, or null. */
export function parseSecondsText(text: string): Seconds | null {
  const match = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  if (match === null || match[2] === '0') return null;
  return reduce(BigInt(match[1]), BigInt(match[2] ?? '1'));
}

/** Least common multiple of two positive integers. */
export function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}
