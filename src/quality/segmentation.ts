import { parseSeconds } from '../time/decimal.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { MetricInputError } from './errors.js';

/**
 * Intersection over union of two intervals, |a ∩ b| / |a ∪ b|, computed exactly on rationals
 * (the intervals may be at different rates) and returned as the nearest number.
 *
 * Points have no length, so the ratio is 0/0 for them; by convention two points at the same
 * instant score 1 (they mark the same event), two different points and a point against a
 * proper interval score 0. Touching intervals share no length and score 0.
 */
export function intervalIou(a: TimeInterval, b: TimeInterval): number {
  checkInterval(a, 'intervalIou: a');
  checkInterval(b, 'intervalIou: b');
  const [as, ae, bs, be] = ticksAtCommonRate([a.start, a.end, b.start, b.end]).ticks;
  const aPoint = as === ae;
  const bPoint = bs === be;
  if (aPoint || bPoint) return aPoint && bPoint && as === bs ? 1 : 0;
  const overlap = min(ae, be) - max(as, bs);
  if (overlap <= 0n) return 0;
  const union = ae - as + (be - bs) - overlap;
  return ratio(overlap, union);
}

/** Options of boundaryIou. */
export interface BoundaryIouOptions {
  /**
   * The half-width d of the band around each boundary: a RationalTime, or seconds as a decimal
   * string or a number (read exactly, like RationalTime.fromSeconds). Must be positive.
   * Default: 2% of the extent of both segmentations together (from the earliest edge to the
   * latest), Cheng et al.'s default of 2% of the image diagonal carried over to one dimension.
   */
  width?: RationalTime | string | number;
}

/**
 * Boundary IoU of two segmentations of one timeline, after Cheng et al. 2021 ("Boundary IoU:
 * Improving Object-Centric Image Segmentation Evaluation"), adapted to one dimension.
 *
 * The boundaries of a list of intervals are its edges: every start and every end, each instant
 * counted once (a point interval is one edge). Its boundary band is the union of the windows
 * [e - d, e + d) around its edges e. The score is the IoU of the two bands:
 *
 *     boundaryIou(A, B) = |band(A) ∩ band(B)| / |band(A) ∪ band(B)|
 *
 * So it asks whether the two segmentations put their boundaries in the same places, within d,
 * and ignores how the interiors of long segments agree (intervalIou says that). Unlike Cheng's
 * masks, the band is not clipped to the inside of the segments: on an annotation tier the
 * outside of one segment is often the inside of its neighbour, and a point has no inside.
 *
 * It is symmetric, lies in [0, 1], is 1 when both lists have the same edges, and does not
 * change when both timelines are shifted, or (with the default width) scaled, or re-expressed
 * at other rates. All arithmetic is exact; the result is the nearest number.
 *
 * Degenerate inputs: two empty lists have the same (no) boundaries and score 1; one empty list
 * against a non-empty one scores 0. When the default width is 0 because every edge of both
 * lists is one instant, both lists have exactly that edge and score 1. An explicit width `<= 0`
 * is a MetricInputError.
 */
export function boundaryIou(
  intervalsA: readonly TimeInterval[],
  intervalsB: readonly TimeInterval[],
  options: BoundaryIouOptions = {},
): number {
  intervalsA.forEach((interval, i) => checkInterval(interval, `boundaryIou: intervalsA[${i}]`));
  intervalsB.forEach((interval, i) => checkInterval(interval, `boundaryIou: intervalsB[${i}]`));
  if (intervalsA.length === 0 && intervalsB.length === 0) return 1;
  if (intervalsA.length === 0 || intervalsB.length === 0) return 0;

  const times = [...intervalsA, ...intervalsB].flatMap((interval) => [interval.start, interval.end]);
  const width = options.width === undefined ? undefined : widthFraction(options.width);
  // The common scale clears every rate and the width's denominator; for the default width it
  // is 50 times the rates' common multiple, so 1/50 of the extent is a whole number of ticks.
  const { ticks, scale } = ticksAtCommonRate(times, width === undefined ? { multiplier: 50n } : { denominator: width.den });
  const edgesA = uniqueSorted(ticks.slice(0, intervalsA.length * 2));
  const edgesB = uniqueSorted(ticks.slice(intervalsA.length * 2));
  let d: bigint;
  if (width === undefined) {
    const all = uniqueSorted(ticks);
    d = (all[all.length - 1] - all[0]) / 50n;
    if (d === 0n) return 1; // every edge of both lists is the same instant
  } else {
    d = (width.num * scale) / width.den;
  }

  const bandA = band(edgesA, d);
  const bandB = band(edgesB, d);
  const overlap = intersectionLength(bandA, bandB);
  const union = totalLength(bandA) + totalLength(bandB) - overlap;
  return ratio(overlap, union);
}

type Span = readonly [bigint, bigint];

/** Disjoint, sorted windows [e - d, e + d) around sorted edges, merging the ones that touch. */
function band(edges: readonly bigint[], d: bigint): Span[] {
  const spans: [bigint, bigint][] = [];
  for (const e of edges) {
    const last = spans[spans.length - 1];
    if (last !== undefined && e - d <= last[1]) last[1] = e + d;
    else spans.push([e - d, e + d]);
  }
  return spans;
}

function totalLength(spans: readonly Span[]): bigint {
  let total = 0n;
  for (const [s, e] of spans) total += e - s;
  return total;
}

/** Length of the intersection of two disjoint sorted span lists (a merge walk). */
function intersectionLength(a: readonly Span[], b: readonly Span[]): bigint {
  let total = 0n;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const overlap = min(a[i][1], b[j][1]) - max(a[i][0], b[j][0]);
    if (overlap > 0n) total += overlap;
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return total;
}

function widthFraction(width: RationalTime | string | number): { num: bigint; den: bigint } {
  const fraction = width instanceof RationalTime ? width.toFraction() : parseSeconds(width);
  if (fraction.num <= 0n) {
    throw new MetricInputError(`boundaryIou: width must be a positive duration, got ${String(width)}`);
  }
  return fraction;
}

/**
 * Every time as integer ticks at one common rate (the least common multiple of their rates and
 * of `denominator`, times `multiplier`), so lengths and comparisons are exact integer arithmetic.
 */
function ticksAtCommonRate(
  times: readonly RationalTime[],
  { denominator = 1n, multiplier = 1n }: { denominator?: bigint; multiplier?: bigint } = {},
): { ticks: bigint[]; scale: bigint } {
  let scale = denominator;
  for (const time of times) scale = lcm(scale, BigInt(time.r));
  scale *= multiplier;
  return { ticks: times.map((time) => (BigInt(time.v) * scale) / BigInt(time.r)), scale };
}

function uniqueSorted(values: readonly bigint[]): bigint[] {
  const sorted = [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return sorted.filter((value, i) => i === 0 || value !== sorted[i - 1]);
}

/** num/den (0 <= num <= den, den > 0) as the nearest number, also when both exceed 2^53. */
function ratio(num: bigint, den: bigint): number {
  if (num === den) return 1;
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  if (num <= safe && den <= safe) return Number(num) / Number(den);
  return Number((num << 64n) / den) / 2 ** 64;
}

function checkInterval(value: unknown, what: string): void {
  if (!(value instanceof TimeInterval)) throw new MetricInputError(`${what} must be a TimeInterval`);
}

function lcm(x: bigint, y: bigint): bigint {
  let a = x;
  let b = y;
  while (b !== 0n) [a, b] = [b, a % b];
  return (x / a) * y;
}

function min(x: bigint, y: bigint): bigint {
  return x < y ? x : y;
}

function max(x: bigint, y: bigint): bigint {
  return x > y ? x : y;
}
