import { fractionToDecimal, parseSeconds, type Fraction } from '../../time/decimal.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { exactFrameRate, timeFromFrames, type ImportClock } from '../import-clock.js';

/**
 * Where a Label Studio result sits in time, read from its value:
 *
 * - `ranges: [{start, end}]` (timelinelabels): frames; the interval spans all ranges.
 * - `sequence: [{frame, enabled, time}]` (videorectangle keyframes): frames, from the first
 *   keyframe to the keyframe that disables the track, else to framesCount, else the last keyframe.
 * - `start`/`end` numbers on a time series (type timeserieslabels, or an `instant` key): Unix
 *   epoch milliseconds when both are at least 1e11 (1973 in ms, 3000 years in s), else the series'
 *   own units (an index or the time column) read as seconds.
 * - `start`/`end` numbers otherwise (audio regions): seconds.
 *
 * Text spans (`text` is a string, `startOffset`, `globalOffsets`, string start/end) and results
 * without times (choices, image rectangles) have no time: null.
 *
 * Frame n is at n / framerate seconds (Label Studio's own keyframe `time` is frame / fps).
 */
export type TimeUnit = 'seconds' | 'epoch_ms' | 'series' | 'frames';

export interface RegionTime {
  readonly unit: TimeUnit;
  /** Seconds (as written, or ms / 1000) for the decimal units; frame numbers for frames. */
  readonly start: string;
  readonly end: string;
}

export const EPOCH_MS_FLOOR = 1e11;
export const DEFAULT_FRAMERATE = 24;

export function regionTime(type: unknown, value: Record<string, unknown>): RegionTime | null {
  if (Array.isArray(value.ranges) && value.ranges.length > 0) {
    const starts: number[] = [];
    const ends: number[] = [];
    for (const range of value.ranges) {
      if (!isObject(range) || typeof range.start !== 'number' || typeof range.end !== 'number') return null;
      starts.push(range.start);
      ends.push(range.end);
    }
    return { unit: 'frames', start: String(Math.min(...starts)), end: String(Math.max(...ends)) };
  }
  if (Array.isArray(value.sequence) && value.sequence.length > 0) {
    const frames = value.sequence.filter((k): k is Record<string, unknown> => isObject(k) && typeof k.frame === 'number');
    if (frames.length === 0) return null;
    const first = Math.min(...frames.map((k) => k.frame as number));
    const last = frames.reduce((a, b) => ((b.frame as number) >= (a.frame as number) ? b : a));
    const end = last.enabled === false || typeof value.framesCount !== 'number' ? (last.frame as number) : Math.max(value.framesCount, last.frame as number);
    return { unit: 'frames', start: String(first), end: String(end) };
  }
  if (typeof value.start !== 'number' || typeof value.end !== 'number') return null;
  if (typeof value.text === 'string' || 'startOffset' in value || 'endOffset' in value || 'globalOffsets' in value) return null;
  if (type === 'timeserieslabels' || 'instant' in value) {
    if (value.start >= EPOCH_MS_FLOOR && value.end >= EPOCH_MS_FLOOR) return { unit: 'epoch_ms', start: msToSeconds(value.start), end: msToSeconds(value.end) };
    return { unit: 'series', start: String(value.start), end: String(value.end) };
  }
  return { unit: 'seconds', start: String(value.start), end: String(value.end) };
}

/** The interval of a region: decimals through the clock, frames exactly at the frame rate. */
export function regionInterval(time: RegionTime, framerate: Fraction, clock: ImportClock, where: string): TimeInterval {
  if (time.unit === 'frames') {
    return new TimeInterval(timeFromFrames(time.start, framerate, clock, `${where}.start`), timeFromFrames(time.end, framerate, clock, `${where}.end`));
  }
  return new TimeInterval(clock.seconds(time.start, `${where}.start`), clock.seconds(time.end, `${where}.end`));
}

/**
 * The frame rate of a video result: `value.framerate`, the task data's `framerate`, the
 * `framerate` of the label config's object tag named `to_name`, the ratio frame / time of the
 * keyframes (Label Studio writes both), else Label Studio's default of 24 (null: caller warns).
 */
export function framerateOf(value: Record<string, unknown>, data: unknown, labelConfig: string | undefined, toName: unknown): { rate: Fraction; guessed: boolean } {
  const written = [value.framerate, isObject(data) ? data.framerate : undefined, configFramerate(labelConfig, toName)];
  for (const candidate of written) {
    if (typeof candidate === 'string' && candidate.includes('/')) {
      const ratio = framerateFromText(candidate);
      if (ratio) return { rate: ratio, guessed: false };
    }
    const number = typeof candidate === 'string' ? Number(candidate) : candidate;
    if (typeof number === 'number' && Number.isFinite(number) && number > 0) return { rate: exactFrameRate(candidate as string | number), guessed: false };
  }
  if (Array.isArray(value.sequence)) {
    for (const key of value.sequence) {
      if (isObject(key) && typeof key.frame === 'number' && typeof key.time === 'number' && key.time > 0 && key.frame > 0) {
        return { rate: derivedRate(key.frame / key.time), guessed: false };
      }
    }
  }
  return { rate: { num: BigInt(DEFAULT_FRAMERATE), den: 1n }, guessed: true };
}

export function framerateText(rate: Fraction): string {
  return rate.den === 1n ? String(rate.num) : `${rate.num}/${rate.den}`;
}

export function framerateFromText(text: unknown): Fraction | null {
  if (typeof text !== 'string') return null;
  try {
    const rate = parseSeconds(text);
    return rate.num > 0n ? rate : null;
  } catch {
    return null;
  }
}

/** Seconds of an interval bound as frames at the rate (integer when exact), and whether exact. */
export function framesAt(time: RationalTime, rate: Fraction): { frames: number; exact: boolean } {
  const { num, den } = time.toFraction();
  const scaledNum = num * rate.num;
  const scaledDen = den * rate.den;
  if (scaledNum % scaledDen === 0n) return { frames: Number(scaledNum / scaledDen), exact: true };
  return { frames: Math.round(Number(scaledNum) / Number(scaledDen)), exact: false };
}

function configFramerate(labelConfig: string | undefined, toName: unknown): string | undefined {
  if (!labelConfig || typeof toName !== 'string') return undefined;
  for (const tag of labelConfig.matchAll(/<Video\b[^>]*>/gi)) {
    const name = /\bname\s*=\s*"([^"]*)"/.exec(tag[0])?.[1];
    const rate = /\bframerate\s*=\s*"([^"]*)"/.exec(tag[0])?.[1];
    if (name === toName && rate) return rate;
  }
  return undefined;
}

/** A rate measured from float keyframe times: NTSC when close, else rounded to milli-frames. */
function derivedRate(measured: number): Fraction {
  for (const ntsc of [24000, 30000, 60000]) {
    if (Math.abs(measured - ntsc / 1001) < 1e-4) return { num: BigInt(ntsc), den: 1001n };
  }
  return exactFrameRate(String(Math.round(measured * 1000) / 1000));
}

function msToSeconds(ms: number): string {
  const { num, den } = parseSeconds(ms);
  return fractionToDecimal(num, den * 1000n) ?? `${num}/${den * 1000n}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
