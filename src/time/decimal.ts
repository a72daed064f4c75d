import { InvalidTimeError } from './errors.js';

/** An exact rational number as a reduced BigInt fraction, denominator positive. */
export interface Fraction {
  /** The numerator. */
  readonly num: bigint;
  /** The denominator, positive. */
  readonly den: bigint;
}

/** The order of two fractions (denominators positive): negative, zero or positive. */
export function compareFractions(a: Fraction, b: Fraction): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

const DECIMAL = /^([+-])?(\d+)?(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;
const RATIO = /^([+-])?(\d+)\/(\d+)$/;

/**
 * Parses seconds written as a decimal (`"12.345"`, `"-0.25"`, `".5"`, `"1e-3"`) or a ratio
 * (`"3/4"`) into an exact fraction. A JS number goes through its shortest round-trip spelling
 * (`String(0.1) === "0.1"`), so `0.1` means one tenth, not the binary double nearest to it.
 */
export function parseSeconds(input: string | number | bigint): Fraction {
  if (typeof input === 'bigint') return { num: input, den: 1n };
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new InvalidTimeError(`seconds must be a finite number, got ${input}`);
    return parseSeconds(String(input));
  }
  const text = input.trim();
  const ratio = RATIO.exec(text);
  if (ratio) {
    const den = BigInt(ratio[3]);
    if (den === 0n) throw new InvalidTimeError(`seconds "${input}" divides by zero`);
    const num = BigInt(ratio[2]);
    return reduce(ratio[1] === '-' ? -num : num, den);
  }
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === undefined && !match[3])) {
    throw new InvalidTimeError(
      `seconds "${input}" is not a number: expected a decimal like "12.345", "-0.25", "1e-3" or a ratio like "3/4"`,
    );
  }
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  // Trailing zeros move into the exponent, so "1.000…0" or "0e999" is not mistaken for a huge
  // exponent; the bound only stops 10n ** n from being asked for absurd n.
  const digits = (whole + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return { num: 0n, den: 1n };
  const exp = Number(exponent) - fraction.length + (digits.length - significant.length);
  if (!Number.isFinite(exp) || Math.abs(exp) > 400) {
    throw new InvalidTimeError(`seconds "${input}" has an exponent out of range (at most 400 digits either side of the point)`);
  }
  let num = BigInt(significant);
  let den = 1n;
  if (exp >= 0) num *= 10n ** BigInt(exp);
  else den = 10n ** BigInt(-exp);
  return reduce(sign === '-' ? -num : num, den);
}

export function reduce(num: bigint, den: bigint): Fraction {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num < 0n ? -num : num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

export function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** How a time that falls between ticks is rounded: to the nearest (ties to even), down, or up. */
export type RoundingMode = 'round' | 'floor' | 'ceil';

/** num/den as an integer: nearest with ties to even, floor or ceiling. */
export function divideRounding(num: bigint, den: bigint, mode: RoundingMode): bigint {
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let q = num / den;
  let r = num % den;
  // BigInt division truncates toward zero; move to floor first.
  if (r < 0n) {
    q -= 1n;
    r += den;
  }
  if (r === 0n) return q;
  if (mode === 'floor') return q;
  if (mode === 'ceil') return q + 1n;
  const twice = 2n * r;
  if (twice > den) return q + 1n;
  if (twice < den) return q;
  return q % 2n === 0n ? q : q + 1n;
}

/**
 * Exact decimal spelling of num/den when the denominator has only factors 2 and 5, else null.
 */
export function fractionToDecimal(num: bigint, den: bigint): string | null {
  let d = den;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  if (d !== 1n) return null;
  const digits = Math.max(twos, fives);
  const scaled = (num * 10n ** BigInt(digits)) / den;
  const negative = scaled < 0n;
  const abs = (negative ? -scaled : scaled).toString().padStart(digits + 1, '0');
  const intPart = abs.slice(0, abs.length - digits);
  const fracPart = abs.slice(abs.length - digits).replace(/0+$/, '');
  return `${negative ? '-' : ''}${intPart}${fracPart ? '.' + fracPart : ''}`;
}
