import { TimeInterval } from '../time/time-interval.js';
import { resolveInterval, type TimeInput } from '../time/time-input.js';

/**
 * A time as a model sends it, in the one vocabulary every surface takes (src/time/time-input.ts):
 * a JSON number or decimal string of seconds (`12.345`, `"12.345"`), a timecode
 * (`"00:00:12.345"`), SMPTE (`"00:00:12:08"` with fps) or the exact `{v, r}`.
 */
export type ToolSeconds = TimeInput;

/**
 * Agents think in milliseconds at least: an interval created without an explicit rate gets no
 * coarser clock than this, even when its seconds are whole (0 s to 2 s is stored at 1000, not 1).
 */
export const DEFAULT_MINIMUM_RATE = 1000;

/**
 * `[start, end)` from the tool arguments start_seconds and end_seconds, exact. Without `rate`,
 * the rate the values need (at least milliseconds for seconds and timecodes, the frame rate for
 * SMPTE, a `{v, r}` as given); with `rate`, a time that is not a whole number of ticks is refused
 * rather than rounded. Errors name the argument.
 */
export function intervalFromToolSeconds(start: ToolSeconds, end: ToolSeconds, rate?: number, fps?: number | string): TimeInterval {
  return resolveInterval(start, end, { rate, fps, minimumRate: DEFAULT_MINIMUM_RATE, startField: 'start_seconds', endField: 'end_seconds' });
}
