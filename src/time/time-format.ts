import { fractionToDecimal } from './decimal.js';
import type { RationalTime, RationalTimeWire } from './rational-time.js';

/**
 * The one formatter of times for output, beside the parser (time-input.ts) every surface uses.
 *
 * Seconds are exact: `7800/1000` is `"7.8"`. A value with no finite decimal expansion (`1/3` s, a
 * frame at 30000/1001 fps) is written as its reduced fraction, `"1/3"`: still exact, and read back
 * by every time input. So `s` always denotes exactly v/r, and is never a rounded decimal.
 */
export function formatSeconds(time: RationalTime): string {
  const { num, den } = time.toFraction();
  return fractionToDecimal(num, den) ?? `${num}/${den}`;
}

/**
 * `HH:MM:SS.mmm`, with as many fraction digits beyond three as the value needs to be exact
 * (`00:00:01.0625`). A value with no finite decimal expansion is shown to the millisecond, rounded
 * half away from zero, and marked with a leading `~` (`~00:00:00.333`): the marker says it is not
 * the exact value, which `s` and `{v, r}` still carry.
 */
export function formatTimecode(time: RationalTime): string {
  const { num, den } = time.toFraction();
  const negative = num < 0n;
  const abs = negative ? -num : num;
  const exact = fractionToDecimal(abs, den);
  let approximate = false;
  let wholeSeconds: bigint;
  let fraction: string;
  if (exact !== null) {
    const [whole, digits = ''] = exact.split('.');
    wholeSeconds = BigInt(whole);
    fraction = digits.padEnd(3, '0');
  } else {
    approximate = true;
    const millis = (abs * 1000n * 2n + den) / (2n * den);
    wholeSeconds = millis / 1000n;
    fraction = String(millis % 1000n).padStart(3, '0');
  }
  const hours = wholeSeconds / 3600n;
  const minutes = (wholeSeconds / 60n) % 60n;
  const seconds = wholeSeconds % 60n;
  const two = (n: bigint): string => String(n).padStart(2, '0');
  return `${approximate ? '~' : ''}${negative ? '-' : ''}${two(hours)}:${two(minutes)}:${two(seconds)}.${fraction}`;
}

/** How a surface shows times: exact seconds beside the pair (the default), a timecode beside it, or the bare pair. */
export type TimeStyle = 'seconds' | 'timecode' | 'ticks';

export const TIME_STYLES: readonly TimeStyle[] = ['seconds', 'timecode', 'ticks'];

/** A time on the wire for output: `{v, r, s}`; `{v, r, s, tc}` for timecodes; `{v, r}` for ticks. */
export interface TimeOutputWire extends RationalTimeWire {
  s?: string;
  tc?: string;
}

export function timeToOutput(time: RationalTime, style: TimeStyle = 'seconds'): TimeOutputWire {
  if (style === 'ticks') return { v: time.v, r: time.r };
  const out: TimeOutputWire = { v: time.v, r: time.r, s: formatSeconds(time) };
  if (style === 'timecode') out.tc = formatTimecode(time);
  return out;
}
