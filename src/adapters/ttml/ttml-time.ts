import { add, divide, multiply, seconds, type Seconds } from './exact-seconds.js';

/**
 * TTML time expressions (TTML2 section 10.3.1) as exact seconds, with the document's timing
 * parameters (section 7.2): clock time `hh:mm:ss`, `hh:mm:ss.fraction`, `hh:mm:ss:frames` and
 * `hh:mm:ss:frames.subframes`; offset time `1.5s`, `1500ms`, `1.2m`, `1.2h`, `36f` and `90000t`.
 * Frames count at the effective frame rate (ttp:frameRate × ttp:frameRateMultiplier), ticks at
 * ttp:tickRate; with ttp:timeBase="smpte" a clock time with frames is a time code (drop-frame
 * with ttp:dropMode="dropNTSC"). What real files write beside the grammar is read with a warning:
 * a number without a metric is seconds (Apple's lyrics), `mm:ss.fraction` and one-digit hours.
 */
export interface TimingParameters {
  /** ttp:frameRate, a whole number (default 30). */
  readonly frameRate: bigint;
  /** The effective frame rate: ttp:frameRate × ttp:frameRateMultiplier. */
  readonly effectiveFrameRate: Seconds;
  readonly subFrameRate: bigint;
  readonly tickRate: bigint;
  readonly timeBase: 'media' | 'smpte' | 'clock';
  readonly dropMode: 'nonDrop' | 'dropNTSC' | 'dropPAL';
}

export type TimeReading = { readonly seconds: Seconds; readonly nonstandard: string | null } | { readonly error: string };

const CLOCK = /^(\d+):(\d\d):(\d\d)(?:\.(\d+)|:(\d+)(?:\.(\d+))?)?$/;
const OFFSET = /^(\d+)(?:\.(\d+))?(h|ms|m|s|f|t)$/;
const BARE = /^(\d+)(?:\.(\d+))?$/;
const SHORT_CLOCK = /^(?:(\d):)?(\d{1,2}):(\d\d)(?:\.(\d+))?$/;

export function parseTime(text: string, parameters: TimingParameters): TimeReading {
  const value = text.trim();
  const clock = CLOCK.exec(value);
  if (clock !== null) return clockTime(clock, parameters);
  const offset = OFFSET.exec(value);
  if (offset !== null) return { seconds: offsetTime(offset[1], offset[2], offset[3], parameters), nonstandard: null };
  const bare = BARE.exec(value);
  if (bare !== null) return { seconds: decimal(bare[1], bare[2]), nonstandard: 'a number without a metric (read as seconds, as Apple lyrics mean it; TTML wants "s")' };
  const short = SHORT_CLOCK.exec(value);
  if (short !== null && Number(short[3]) < 60) {
    const whole = (BigInt(short[1] ?? '0') * 60n + BigInt(short[2])) * 60n + BigInt(short[3]);
    return { seconds: add(seconds(whole), decimal('0', short[4])), nonstandard: 'a clock time without two-digit hours (TTML wants "hh:mm:ss")' };
  }
  if (/^wallclock\(/.test(value)) return { error: 'a media time; wall-clock times ("wallclock(...)") are not supported' };
  return { error: `a time expression like "00:00:01.500", "00:00:01:12", "1.5s", "1500ms", "36f" or "90000t"` };
}

function clockTime(match: RegExpExecArray, parameters: TimingParameters): TimeReading {
  const [, hours, minutes, secs, fraction, frames, subFrames] = match;
  if (Number(minutes) > 59 || Number(secs) > 60) return { error: 'minutes below 60 and seconds at most 60 in a clock time' };
  // A leap second (60) is read as 59, as ttconv reads it.
  const leap = secs === '60';
  const whole = (BigInt(hours) * 60n + BigInt(minutes)) * 60n + BigInt(leap ? '59' : secs);
  let nonstandard = leap ? 'a leap second (60; read as 59)' : null;
  if (frames === undefined) return { seconds: add(seconds(whole), decimal('0', fraction)), nonstandard };
  let frame = BigInt(frames);
  if (frame >= parameters.frameRate) {
    // As ttconv reads it when not strict: the last frame of the second.
    nonstandard = `frame ${frames} at a frame rate of ${parameters.frameRate} (read as frame ${parameters.frameRate - 1n})`;
    frame = parameters.frameRate - 1n;
  }
  let count: Seconds = seconds(frame);
  if (subFrames !== undefined) count = add(count, divide(seconds(BigInt(subFrames)), seconds(parameters.subFrameRate)));
  if (parameters.timeBase !== 'smpte') return { seconds: add(seconds(whole), divide(count, parameters.effectiveFrameRate)), nonstandard };
  // A time code: a count of frames, labelled at the nominal rate, timed at the effective one.
  let label = add(multiply(seconds(whole), seconds(parameters.frameRate)), count);
  if (parameters.dropMode !== 'nonDrop') label = add(label, seconds(-droppedFrames(BigInt(hours), BigInt(minutes), parameters.dropMode)));
  return { seconds: divide(label, parameters.effectiveFrameRate), nonstandard };
}

/**
 * Frame numbers a drop-frame time code skips before hh:mm: NTSC drops 2 at the start of every
 * minute but every tenth, PAL (M) drops 4 at the start of every even minute but every tenth.
 */
function droppedFrames(hours: bigint, minutes: bigint, mode: 'dropNTSC' | 'dropPAL'): bigint {
  const total = hours * 60n + minutes;
  if (mode === 'dropNTSC') return 2n * (total - total / 10n);
  return 4n * (total / 2n - total / 10n);
}

function offsetTime(count: string, fraction: string | undefined, metric: string, parameters: TimingParameters): Seconds {
  const value = decimal(count, fraction);
  switch (metric) {
    case 'h':
      return multiply(value, seconds(3600n));
    case 'm':
      return multiply(value, seconds(60n));
    case 'ms':
      return divide(value, seconds(1000n));
    case 'f':
      return divide(value, parameters.effectiveFrameRate);
    case 't':
      return divide(value, seconds(parameters.tickRate));
    default:
      return value;
  }
}

function decimal(whole: string, fraction: string | undefined): Seconds {
  if (fraction === undefined || fraction.length === 0) return seconds(BigInt(whole));
  return seconds(BigInt(whole + fraction), 10n ** BigInt(fraction.length));
}
