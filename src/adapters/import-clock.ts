import { divideRounding, parseSeconds, type Fraction } from '../time/decimal.js';
import { LossyTimeConversionError } from '../time/errors.js';
import { RationalTime } from '../time/rational-time.js';

/**
 * How an import turns the times written in a file into exact rational times.
 *
 * Real files carry float seconds (`12.778410892095105`). The rate is chosen so that the file's
 * times are exact where that is possible: the format's own unit (milliseconds for WebVTT, SRT and
 * ELAN), else the finest decimal rate the file's digits need, kept within safe integers. Times
 * that still do not fit are quantized to the nearest tick, ties to even, and counted, so the
 * command can say how many and by how much; `strict` turns any quantization into an error.
 */
export class ImportClock {
  private quantizedCount = 0;
  private largestError: Fraction = { num: 0n, den: 1n };

  constructor(
    /** The rate every imported time is expressed at, in ticks a second. */
    readonly rate: number,
    private readonly strict = false,
  ) {}

  /** A time in seconds, as written in the file (decimal string or JS number). */
  seconds(value: string | number, where?: string): RationalTime {
    const exact = parseSeconds(value);
    const scaled = exact.num * BigInt(this.rate);
    if (scaled % exact.den === 0n) return new RationalTime(Number(scaled / exact.den), this.rate);
    if (this.strict) {
      throw new LossyTimeConversionError(
        `${where ? `${where}: ` : ''}${String(value)} s is not a whole number of ticks at rate ${this.rate}` +
          ' (--strict-time forbids quantizing; choose a finer --rate or drop --strict-time)',
      );
    }
    const ticks = divideRounding(scaled, exact.den, 'round');
    // error = |ticks/rate - num/den| = |ticks*den - num*rate| / (rate*den)
    const diff = ticks * exact.den - scaled;
    const error = { num: diff < 0n ? -diff : diff, den: BigInt(this.rate) * exact.den };
    if (error.num * this.largestError.den > this.largestError.num * error.den) this.largestError = error;
    this.quantizedCount++;
    return new RationalTime(Number(ticks), this.rate);
  }

  /**
   * A time of whole milliseconds (SRT, WebVTT, SBV): exact without parsing when the rate is a
   * multiple of 1000, else through seconds() like any written time. `file` and `line` name it in
   * an error (joined only then: this runs for every cue).
   */
  milliseconds(ms: number, file: string, line: number): RationalTime {
    if (this.rate === 1000) return new RationalTime(ms, 1000);
    if (this.rate % 1000 === 0) return new RationalTime(ms * (this.rate / 1000), this.rate);
    return this.seconds(`${ms}/1000`, `${file}:${line}`);
  }

  /** How many times were rounded to a tick, and the largest rounding error in seconds. */
  quantization(): {
    /** How many times were rounded to the rate. */
    count: number;
    /** The largest rounding error, in seconds. */
    maxErrorSeconds: number;
  } {
    return { count: this.quantizedCount, maxErrorSeconds: Number(this.largestError.num) / Number(this.largestError.den) };
  }
}

/** The finest decimal rate that is itself a safe integer. */
const FINEST_DECIMAL_RATE = 1e15;

/**
 * The power of ten that makes every given time exact (a time with 3 decimals needs 1000), lowered
 * until the largest time still fits in a safe integer of ticks (float noise like
 * 12.778410892095105 s cannot be exact then: those times are quantized at the finest rate that fits).
 * `atLeast` is the format's natural unit (1000 for millisecond formats).
 */
export function decimalRateFor(times: Iterable<string | number>, atLeast = 1): number {
  let digits = 0;
  let largest = 0;
  for (const time of times) {
    const text = typeof time === 'number' ? String(time) : time.trim();
    const { num, den } = parseSeconds(text);
    // The fraction is reduced (2.5 is 5/2), so ask which power of ten it divides, if any.
    let d = 0;
    while (d < 15 && (10n ** BigInt(d)) % den !== 0n) d++;
    digits = Math.max(digits, d);
    const magnitude = Math.abs(Number(num) / Number(den));
    if (magnitude > largest) largest = magnitude;
  }
  let rate = Math.max(atLeast, Math.min(FINEST_DECIMAL_RATE, 10 ** digits));
  while (rate > atLeast && Math.ceil(largest * rate) > Number.MAX_SAFE_INTEGER) rate /= 10;
  return rate;
}

/** NTSC-family rates that files write as rounded floats (23.976, 29.97, 59.94). */
const NTSC_RATES: ReadonlyArray<Fraction> = [
  { num: 24000n, den: 1001n },
  { num: 30000n, den: 1001n },
  { num: 60000n, den: 1001n },
  { num: 48000n, den: 1001n },
  { num: 120000n, den: 1001n },
];

/**
 * A frame rate as an exact fraction: within 1e-6 of an NTSC rate it is that rational (a file's
 * `29.97002997002997` is 30000/1001); otherwise the decimal as written (`23.976` is 23976/1000,
 * not NTSC: only values that close are treated as the rounded form of the exact rate).
 */
export function exactFrameRate(rate: string | number): Fraction {
  const asNumber = typeof rate === 'number' ? rate : Number(rate);
  for (const ntsc of NTSC_RATES) {
    if (Math.abs(asNumber - Number(ntsc.num) / Number(ntsc.den)) <= 1e-6) return ntsc;
  }
  return parseSeconds(rate);
}

/**
 * `frames` at an exact frame rate as a RationalTime: frames × den / num seconds, which is exact at
 * integer rate `num` (ticks = frames × den). Non-integer frame counts fall back to the clock.
 */
export function timeFromFrames(frames: string | number, frameRate: Fraction, clock?: ImportClock, where?: string): RationalTime {
  const count = parseSeconds(frames);
  if (count.den === 1n) {
    const ticks = count.num * frameRate.den;
    if (frameRate.num <= BigInt(Number.MAX_SAFE_INTEGER) && ticks <= BigInt(Number.MAX_SAFE_INTEGER) && ticks >= -BigInt(Number.MAX_SAFE_INTEGER)) {
      return new RationalTime(Number(ticks), Number(frameRate.num));
    }
  }
  const seconds = `${count.num * frameRate.den}/${count.den * frameRate.num}`;
  if (!clock) throw new LossyTimeConversionError(`${where ? `${where}: ` : ''}${String(frames)} frames cannot be represented exactly`);
  return clock.seconds(seconds, where);
}
