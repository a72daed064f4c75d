/**
 * SubStation times, `h:mm:ss.cc`: hours, minutes, seconds and centiseconds. They are exact at
 * rate 100, so they are read as ticks at that rate, never as floats. What real files hold beside
 * the standard form is read as pysubs2 and Aegisub read it (a fraction is decimal: `.5` is 50
 * centiseconds, `.500` 500 milliseconds; no fraction at all is `.00`; one-digit minutes and
 * seconds), and marked as non-standard so the reader can say so.
 */

export interface AssTimestamp {
  /** Ticks at `rate`: 100 (centiseconds) unless the fraction has three digits that are not whole centiseconds (1000). */
  readonly ticks: number;
  readonly rate: 100 | 1000;
  /** Whether it is written `h:mm:ss.cc` (any number of hour digits). */
  readonly standard: boolean;
  /** A negative time (`-0:00:01.00`), which players show at 0. */
  readonly negative: boolean;
}

const TIMESTAMP = /^\s*(-)?(\d+):(\d+):(\d+)(?:[.,](\d{1,3}))?\s*$/;
const STANDARD = /^\d+:\d\d:\d\d\.\d\d$/;

/** A time as written in a Start or End field, or null when it is none. */
export function parseAssTime(text: string): AssTimestamp | null {
  const fast = standardAssTime(text);
  if (fast !== -1) return { ticks: fast, rate: 100, standard: true, negative: false };
  const match = TIMESTAMP.exec(text);
  if (match === null) return null;
  const [, minus, hours, minutes, seconds, fraction = ''] = match;
  const whole = (Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds);
  const thousandths = Number(fraction.padEnd(3, '0'));
  const negative = minus === '-';
  const standard = !negative && STANDARD.test(text.trim()) && Number(minutes) < 60 && Number(seconds) < 60;
  if (thousandths % 10 === 0) return checked({ ticks: whole * 100 + thousandths / 10, rate: 100, standard, negative });
  return checked({ ticks: whole * 1000 + thousandths, rate: 1000, standard, negative });
}

/**
 * Centiseconds of a time written exactly `h:mm:ss.cc` (one hour digit: what editors write), or
 * -1: the common case read digit by digit, a million times in a long file.
 */
export function standardAssTime(text: string): number {
  if (text.length !== 10 || text.charCodeAt(1) !== 58 || text.charCodeAt(4) !== 58 || text.charCodeAt(7) !== 46) return -1;
  const h = text.charCodeAt(0) - 48;
  const m1 = text.charCodeAt(2) - 48;
  const m2 = text.charCodeAt(3) - 48;
  const s1 = text.charCodeAt(5) - 48;
  const s2 = text.charCodeAt(6) - 48;
  const c1 = text.charCodeAt(8) - 48;
  const c2 = text.charCodeAt(9) - 48;
  // Unsigned: a character below "0" wraps to a large number, so one comparison checks each digit.
  if ((h >>> 0) > 9 || (m1 >>> 0) > 5 || (m2 >>> 0) > 9 || (s1 >>> 0) > 5 || (s2 >>> 0) > 9 || (c1 >>> 0) > 9 || (c2 >>> 0) > 9) return -1;
  return ((h * 60 + m1 * 10 + m2) * 60 + s1 * 10 + s2) * 100 + c1 * 10 + c2;
}

function checked(time: AssTimestamp): AssTimestamp | null {
  return Number.isSafeInteger(time.ticks) ? time : null;
}

/** Centiseconds as `h:mm:ss.cc` (negative counts are written as 0, as players show them). */
export function formatAssTime(centiseconds: number): string {
  const cs = Math.max(0, centiseconds);
  const hours = Math.floor(cs / 360000);
  const minutes = Math.floor(cs / 6000) % 60;
  const seconds = Math.floor(cs / 100) % 60;
  return `${hours}:${two(minutes)}:${two(seconds)}.${two(cs % 100)}`;
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * A time of `v` ticks at rate `r` in whole centiseconds: exact when it is one, else to the
 * nearest, halves up, as Aegisub rounds milliseconds (`0:00:01.005` is written `0:00:01.01`).
 */
export function centiseconds(v: number, r: number): { value: number; exact: boolean } {
  if (r === 100) return { value: v, exact: true };
  if (r % 100 === 0) {
    const per = r / 100;
    const remainder = v % per;
    if (remainder === 0) return { value: v / per, exact: true };
  }
  const scaled = BigInt(v) * 100n;
  const rate = BigInt(r);
  const floor = scaled >= 0n ? scaled / rate : -((-scaled + rate - 1n) / rate);
  const rest = scaled - floor * rate;
  if (rest === 0n) return { value: Number(floor), exact: true };
  return { value: Number(rest * 2n >= rate ? floor + 1n : floor), exact: false };
}
