import fc from 'fast-check';
import { boundaryIou, intervalIou } from '../../src/quality/segmentation.js';
import { MetricInputError } from '../../src/quality/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** [start, end) in ticks at `rate` (1 tick per second by default). */
function iv(start: number, end: number, rate = 1): TimeInterval {
  return new TimeInterval(new RationalTime(start, rate), new RationalTime(end, rate));
}

const point = (at: number, rate = 1) => iv(at, at, rate);

/** The same interval re-expressed at `factor` times its rate. */
function finer(interval: TimeInterval, factor: number): TimeInterval {
  return new TimeInterval(
    new RationalTime(interval.start.v * factor, interval.start.r * factor),
    new RationalTime(interval.end.v * factor, interval.end.r * factor),
  );
}

const interval = fc
  .tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 30 }), fc.constantFrom(1, 2, 3, 1000))
  .map(([start, length, rate]) => iv(start, start + length, rate));

describe('intervalIou', () => {
  it.each([
    ['identical intervals', iv(0, 10), iv(0, 10), 1],
    ['disjoint intervals', iv(0, 10), iv(20, 30), 0],
    ['half-overlapping intervals', iv(0, 100), iv(50, 150), 1 / 3],
    ['an interval inside another', iv(0, 100), iv(25, 75), 0.5],
    ['touching intervals', iv(0, 10), iv(10, 20), 0],
    ['equal points', point(5), point(5), 1],
    ['different points', point(5), point(6), 0],
    ['a point inside an interval', point(5), iv(0, 10), 0],
    ['an interval and a point at its start', iv(0, 10), point(0), 0],
  ])('scores %s as %p', (_name, a, b, expected) => {
    expect(intervalIou(a, b)).toBeCloseTo(expected, 15);
    expect(intervalIou(b, a)).toBeCloseTo(expected, 15);
  });

  it('compares across rates exactly: [0, 1/3) against [0, 0.25) is 3/4', () => {
    expect(intervalIou(iv(0, 1, 3), iv(0, 250, 1000))).toBe(0.75);
  });

  it('treats equal points at different rates as the same instant', () => {
    expect(intervalIou(point(1, 2), point(24000, 48000))).toBe(1);
  });

  it('keeps precision when the common rate pushes tick counts beyond 2^53', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(intervalIou(iv(0, max, 48000), iv(0, max, 44100))).toBe(44100 / 48000);
  });

  it('throws MetricInputError for something that is not a TimeInterval', () => {
    expect(() => intervalIou({ start: 0, end: 1 } as unknown as TimeInterval, iv(0, 1))).toThrow(MetricInputError);
  });

  it('is symmetric, lies in [0, 1], is 1 on itself and does not change with the rate', () => {
    fc.assert(
      fc.property(interval, interval, fc.integer({ min: 2, max: 7 }), (a, b, factor) => {
        const iou = intervalIou(a, b);
        expect(Number.isNaN(iou)).toBe(false);
        expect(iou).toBeGreaterThanOrEqual(0);
        expect(iou).toBeLessThanOrEqual(1);
        expect(intervalIou(b, a)).toBe(iou);
        expect(intervalIou(finer(a, factor), b)).toBe(iou);
        expect(intervalIou(a, a)).toBe(1);
      }),
    );
  });
});

describe('boundaryIou (band of half-width d around every edge)', () => {
  it('is 1 for identical segmentations', () => {
    const a = [iv(0, 10), iv(10, 25), iv(30, 40)];
    expect(boundaryIou(a, [...a])).toBe(1);
    expect(boundaryIou(a, [...a], { width: '0.5' })).toBe(1);
  });

  it('scores a start moved by 2 s as 1/3 with d = 1 s and 3/5 with d = 2 s', () => {
    // d = 1: bands [-1,1)+[9,11) and [1,3)+[9,11): overlap 2, union 6.
    expect(boundaryIou([iv(0, 10)], [iv(2, 10)], { width: '1' })).toBeCloseTo(1 / 3, 15);
    // d = 2: bands [-2,2)+[8,12) and [0,4)+[8,12): overlap 6, union 10.
    expect(boundaryIou([iv(0, 10)], [iv(2, 10)], { width: 2 })).toBeCloseTo(0.6, 15);
  });

  it('is 0 when no boundary of one lies within 2d of a boundary of the other', () => {
    expect(boundaryIou([iv(0, 10)], [iv(100, 110)], { width: '1' })).toBe(0);
  });

  it('scores points by their single edge: same instant 1, 1 s apart with d = 1 s 1/3', () => {
    expect(boundaryIou([point(5)], [point(5)], { width: '1' })).toBe(1);
    expect(boundaryIou([point(5)], [point(6)], { width: '1' })).toBeCloseTo(1 / 3, 15);
  });

  it('counts a shared edge of touching intervals once', () => {
    // Edges {0, 10, 20} against {0, 20} with d = 1: bands 6 and 4 long, overlap 4.
    expect(boundaryIou([iv(0, 10), iv(10, 20)], [iv(0, 20)], { width: '1' })).toBeCloseTo(2 / 3, 15);
  });

  it('merges the windows of edges closer than 2d', () => {
    // [0,1) with d = 1 has band [-1,2); [0,3) has [-1,1)+[2,4): overlap 2, union 3 + 4 - 2.
    expect(boundaryIou([iv(0, 1)], [iv(0, 3)], { width: '1' })).toBeCloseTo(0.4, 15);
  });

  it('compares across rates exactly', () => {
    expect(boundaryIou([iv(0, 10_000, 1000)], [iv(0, 480_000, 48000)], { width: '0.01' })).toBe(1);
    // Edges {0, 10} and {1/3, 10} with d = 1: overlap 5/3 + 2, union 8 - 11/3.
    expect(boundaryIou([iv(0, 10)], [iv(1, 30, 3)], { width: '1' })).toBeCloseTo(11 / 13, 15);
  });

  it('takes the width as a RationalTime, a decimal string or a number, all read exactly', () => {
    const a = [iv(0, 10)];
    const b = [iv(2, 10)];
    const expected = boundaryIou(a, b, { width: '0.5' });
    expect(boundaryIou(a, b, { width: new RationalTime(1, 2) })).toBe(expected);
    expect(boundaryIou(a, b, { width: 0.5 })).toBe(expected);
    expect(boundaryIou(a, b, { width: '1/2' })).toBe(expected);
  });

  it('defaults d to 2% of the extent of both segmentations', () => {
    // Extent 100 s, d = 2: bands [-2,2)+[98,102) and [-1,3)+[98,102): overlap 7, union 9.
    expect(boundaryIou([iv(0, 100)], [iv(1, 100)])).toBeCloseTo(7 / 9, 15);
    expect(boundaryIou([iv(0, 100)], [iv(1, 100)], { width: '2' })).toBeCloseTo(7 / 9, 15);
  });

  it('is 1 for two empty lists and 0 for an empty list against a non-empty one', () => {
    expect(boundaryIou([], [])).toBe(1);
    expect(boundaryIou([iv(0, 1)], [])).toBe(0);
    expect(boundaryIou([], [point(3)])).toBe(0);
  });

  it('is 1, not NaN, when every edge of both lists is one instant and the default width is 0', () => {
    expect(boundaryIou([point(5)], [point(5), point(15, 3)])).toBe(1);
  });

  it('throws MetricInputError for a width that is not positive', () => {
    expect(() => boundaryIou([iv(0, 1)], [iv(0, 1)], { width: '0' })).toThrow(MetricInputError);
    expect(() => boundaryIou([iv(0, 1)], [iv(0, 1)], { width: -1 })).toThrow(/width must be a positive duration/);
  });

  it('throws MetricInputError for a list item that is not a TimeInterval, naming its index', () => {
    expect(() => boundaryIou([iv(0, 1)], [iv(0, 1), null as unknown as TimeInterval])).toThrow(/intervalsB\[1\]/);
  });

  it('is symmetric, lies in [0, 1], and does not change with shifting or re-expressing at another rate', () => {
    const list = fc.array(interval, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(list, list, fc.integer({ min: -20, max: 20 }), fc.integer({ min: 2, max: 5 }), (a, b, shift, factor) => {
        const iou = boundaryIou(a, b);
        expect(Number.isNaN(iou)).toBe(false);
        expect(iou).toBeGreaterThanOrEqual(0);
        expect(iou).toBeLessThanOrEqual(1);
        expect(boundaryIou(b, a)).toBe(iou);
        expect(boundaryIou(a, a)).toBe(1);
        const by = new RationalTime(shift, 1);
        const moved = (xs: TimeInterval[]) => xs.map((x) => new TimeInterval(x.start.plus(by), x.end.plus(by)));
        expect(boundaryIou(moved(a), moved(b))).toBeCloseTo(iou, 12);
        expect(boundaryIou(a.map((x) => finer(x, factor)), b)).toBe(iou);
      }),
    );
  });
});
