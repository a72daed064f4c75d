/**
 * WebVTT timestamps, scanned by hand (no regex per line) exactly as the W3C "collect a WebVTT
 * timestamp" algorithm says: `[hours:]mm:ss.ttt`, where the first field is hours when it has
 * other than two digits or exceeds 59, minutes and seconds are two digits at most 59, the
 * fraction exactly three digits. Times are whole milliseconds, so they are exact integers.
 */

/** Result of scanning: milliseconds, or -1 when the text there is not a timestamp. `end` is where it stopped. */
export interface ScannedTimestamp {
  ms: number;
  end: number;
}

const NOT_A_TIMESTAMP = -1;

/**
 * Scans a timestamp in `text` at `position` into `out` (reused to avoid an object per call),
 * reading no further than `limit` (the end of the line, when `text` holds many lines).
 */
export function scanTimestamp(text: string, position: number, out: ScannedTimestamp, limit: number = text.length): void {
  out.ms = NOT_A_TIMESTAMP;
  const length = limit;
  let p = position;
  let code = p < length ? text.charCodeAt(p) : -1;
  if (!isDigit(code)) {
    out.end = p;
    return;
  }
  // value1: any number of digits.
  let value1 = 0;
  const start1 = p;
  while (isDigit(code)) {
    value1 = value1 * 10 + (code - 48);
    code = ++p < length ? text.charCodeAt(p) : -1;
  }
  const hoursFirst = p - start1 !== 2 || value1 > 59;
  if (code !== 58 /* : */) return fail(out, p);
  code = ++p < length ? text.charCodeAt(p) : -1;
  const start2 = p;
  let value2 = 0;
  while (isDigit(code)) {
    value2 = value2 * 10 + (code - 48);
    code = ++p < length ? text.charCodeAt(p) : -1;
  }
  if (p - start2 !== 2) return fail(out, p);
  let hours: number;
  let minutes: number;
  let seconds: number;
  if (hoursFirst || code === 58) {
    if (code !== 58) return fail(out, p);
    code = ++p < length ? text.charCodeAt(p) : -1;
    const start3 = p;
    let value3 = 0;
    while (isDigit(code)) {
      value3 = value3 * 10 + (code - 48);
      code = ++p < length ? text.charCodeAt(p) : -1;
    }
    if (p - start3 !== 2) return fail(out, p);
    hours = value1;
    minutes = value2;
    seconds = value3;
  } else {
    hours = 0;
    minutes = value1;
    seconds = value2;
  }
  if (code !== 46 /* . */) return fail(out, p);
  code = ++p < length ? text.charCodeAt(p) : -1;
  const start4 = p;
  let fraction = 0;
  while (isDigit(code)) {
    fraction = fraction * 10 + (code - 48);
    code = ++p < length ? text.charCodeAt(p) : -1;
  }
  if (p - start4 !== 3) return fail(out, p);
  if (minutes > 59 || seconds > 59) return fail(out, p);
  out.ms = ((hours * 60 + minutes) * 60 + seconds) * 1000 + fraction;
  out.end = p;
  if (!Number.isSafeInteger(out.ms)) out.ms = NOT_A_TIMESTAMP;
}

/** Parses a whole string as one timestamp (nothing before or after), or returns null. */
export function parseTimestamp(text: string): number | null {
  const out: ScannedTimestamp = { ms: NOT_A_TIMESTAMP, end: 0 };
  scanTimestamp(text, 0, out);
  return out.ms >= 0 && out.end === text.length ? out.ms : null;
}

/** `HH:MM:SS.mmm` with at least two hour digits (more when the time needs them). */
export function formatTimestamp(ms: number): string {
  const fraction = ms % 1000;
  const totalSeconds = (ms - fraction) / 1000;
  const seconds = totalSeconds % 60;
  const totalMinutes = (totalSeconds - seconds) / 60;
  const minutes = totalMinutes % 60;
  const hours = (totalMinutes - minutes) / 60;
  return `${hours < 10 ? '0' : ''}${hours}:${two(minutes)}:${two(seconds)}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/** formatTimestamp without the hours when they are zero (`01:02.500`), as many files are written. */
export function formatTimestampWithoutZeroHours(ms: number): string {
  return ms < 3_600_000 ? formatTimestamp(ms).slice(3) : formatTimestamp(ms);
}

function two(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function fail(out: ScannedTimestamp, position: number): void {
  out.ms = NOT_A_TIMESTAMP;
  out.end = position;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
