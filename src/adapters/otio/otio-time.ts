import { gcd, parseSeconds } from '../../time/decimal.js';
import { RationalTime } from '../../time/rational-time.js';
import { exactFrameRate, type ImportClock } from '../import-clock.js';
import { isObject, type OtioObject, type OtioValue } from './otio-json.js';

/**
 * OTIO RationalTime `{value, rate}` → an exact RationalTime: a float rate within 1e-6 of an NTSC
 * rate is that rational (29.97002997 → 30000/1001), any other is the decimal as written; whole
 * frames at rate num/den are value × den ticks at rate num. Only a time that does not fit in safe
 * integers goes through the clock (which rounds and counts). With `--rate`, every time goes
 * through the clock at that rate.
 */
export function readOtioTime(value: OtioValue | undefined, clock: ImportClock, forced: boolean, where: string): RationalTime | null {
  if (!isObject(value) || typeof value.value !== 'number' || typeof value.rate !== 'number' || !(value.rate > 0)) return null;
  const rate = exactFrameRate(value.rate);
  const frames = parseSeconds(value.value);
  const num = frames.num * rate.den;
  const den = frames.den * rate.num;
  if (!forced) {
    const divisor = gcd(num < 0n ? -num : num, den);
    const ticks = num / divisor;
    const ticksRate = den / divisor;
    const safe = BigInt(Number.MAX_SAFE_INTEGER);
    if (ticks <= safe && ticks >= -safe && ticksRate <= safe) {
      // Keep the rate the file counts in (24, 30000) rather than the reduced one where it is exact.
      const preferred = frames.den === 1n ? rate.num : null;
      if (preferred !== null && preferred <= safe && (ticks * preferred) % ticksRate === 0n) {
        return new RationalTime(Number((ticks * preferred) / ticksRate), Number(preferred));
      }
      return new RationalTime(Number(ticks), Number(ticksRate));
    }
  }
  return clock.seconds(`${num}/${den}`, where);
}

/** Sum at a common rate (the least common multiple), exact. */
export function addTimes(a: RationalTime, b: RationalTime): RationalTime {
  if (a.r === b.r) return a.plus(b);
  const common = lcm(a.r, b.r);
  return a.toRate(common).plus(b.toRate(common));
}

export function subtractTimes(a: RationalTime, b: RationalTime): RationalTime {
  if (a.r === b.r) return a.minus(b);
  const common = lcm(a.r, b.r);
  return a.toRate(common).minus(b.toRate(common));
}

function lcm(a: number, b: number): number {
  const value = (BigInt(a) / gcd(BigInt(a), BigInt(b))) * BigInt(b);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`rates ${a} and ${b} have no common rate within safe integers`);
  return Number(value);
}

/**
 * A time as OTIO `RationalTime.1`: in frames at `preferredRate` (the rate the file used, as it
 * wrote it) when the time is a whole number of those frames, else exact at the time's own rate.
 */
export function writeOtioTime(time: RationalTime, preferredRate?: number): OtioObject {
  if (preferredRate !== undefined && preferredRate > 0) {
    const rate = exactFrameRate(preferredRate);
    const frames = BigInt(time.v) * rate.num;
    const den = BigInt(time.r) * rate.den;
    if (frames % den === 0n) return { OTIO_SCHEMA: 'RationalTime.1', rate: preferredRate, value: Number(frames / den) };
  }
  return { OTIO_SCHEMA: 'RationalTime.1', rate: time.r, value: time.v };
}

export function writeOtioRange(start: RationalTime, duration: RationalTime, preferredRate?: number): OtioObject {
  return { OTIO_SCHEMA: 'TimeRange.1', duration: writeOtioTime(duration, preferredRate), start_time: writeOtioTime(start, preferredRate) };
}

/** The rate a TimeRange or RationalTime was written at, to write an edited one the same way. */
export function rateOf(value: OtioValue | undefined): number | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value.rate === 'number') return value.rate;
  return rateOf(value.duration) ?? rateOf(value.start_time);
}
