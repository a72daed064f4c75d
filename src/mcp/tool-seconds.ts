import { decimalRateFor } from '../adapters/import-clock.js';
import { InvalidInputError } from '../errors/annot-error.js';
import { parseSeconds } from '../time/decimal.js';
import { LossyTimeConversionError } from '../time/errors.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';

/** Seconds as a model sends them: a JSON number or a decimal string (`"12.345"`, `"1e-3"`, `"3/4"`). */
export type ToolSeconds = number | string;

/**
 * Agents think in milliseconds at least: an interval created without an explicit rate gets no
 * coarser clock than this, even when its seconds are whole (0 s to 2 s is stored at 1000, not 1).
 */
export const DEFAULT_MINIMUM_RATE = 1000;

/**
 * The spelling a time is parsed from. A number goes through its shortest round-trip decimal
 * (`0.1` → `"0.1"`), so it means the decimal the model wrote, never the nearest binary double
 * scaled by float multiplication.
 */
export function secondsText(value: ToolSeconds, field: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidInputError(`${field}: expected a finite number of seconds, got ${value}`);
    return String(value);
  }
  const text = value.trim();
  if (text === '') throw new InvalidInputError(`${field}: expected seconds as a number or a decimal string like "12.345", got an empty string`);
  try {
    parseSeconds(text);
  } catch (error) {
    throw prefixed(error, field);
  }
  return text;
}

/**
 * `[start, end)` from seconds, exact. Without `rate`, the finest decimal rate the digits need (at
 * least milliseconds), so any decimal the model writes is kept exactly; with `rate`, a time that
 * is not a whole number of ticks is refused rather than rounded.
 */
export function intervalFromToolSeconds(start: ToolSeconds, end: ToolSeconds, rate?: number): TimeInterval {
  const startText = secondsText(start, 'start_seconds');
  const endText = secondsText(end, 'end_seconds');
  const chosenRate = rate ?? decimalRateFor([startText, endText], DEFAULT_MINIMUM_RATE);
  const from = exactTime(startText, chosenRate, 'start_seconds', rate !== undefined);
  const to = exactTime(endText, chosenRate, 'end_seconds', rate !== undefined);
  if (to.lt(from)) {
    throw new InvalidInputError(
      `end_seconds (${endText}) precedes start_seconds (${startText}): an interval is [start, end) with start <= end; swap them or fix the end`,
    );
  }
  return new TimeInterval(from, to);
}

function exactTime(text: string, rate: number, field: string, rateWasGiven: boolean): RationalTime {
  try {
    return RationalTime.fromSeconds(text, rate);
  } catch (error) {
    if (!(error instanceof LossyTimeConversionError)) throw prefixed(error, field);
    const advice = rateWasGiven
      ? 'pass a rate that divides it exactly (e.g. 10 times finer), or omit rate to use the finest decimal rate the digits need'
      : 'it is not a finite decimal; pass a rate that divides it exactly (e.g. 3 for thirds of a second)';
    throw new LossyTimeConversionError(`${field}: ${text} s is not a whole number of ticks at rate ${rate}; ${advice}`);
  }
}

function prefixed(error: unknown, field: string): unknown {
  if (error instanceof Error && !error.message.startsWith(field)) error.message = `${field}: ${error.message}`;
  return error;
}
