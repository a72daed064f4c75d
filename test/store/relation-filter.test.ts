import fc from 'fast-check';
import { compareByInterval, sortByInterval } from '../../src/store/ordering.js';
import { candidateBounds, intersectsTicks, matchesIntersects, matchesRelations, type CandidateBounds } from '../../src/store/relation-filter.js';
import { ALLEN_RELATIONS, holds, intersects } from '../../src/time/allen.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { ann, idFor, ids, iv, point, refAnn } from './fixtures.js';

const time = fc
  .tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 1, max: 3 }))
  .map(([sixths, k]) => new RationalTime(sixths * k, 6 * k));
const interval = fc.tuple(time, time).map(([a, b]) => (a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a)));

function within(x: TimeInterval, b: CandidateBounds): boolean {
  return (
    (b.startMin === null || x.start.ge(b.startMin)) &&
    (b.startMax === null || x.start.le(b.startMax)) &&
    (b.endMin === null || x.end.ge(b.endMin)) &&
    (b.endMax === null || x.end.le(b.endMax))
  );
}

describe('matchesRelations', () => {
  it('holds when any of the relations holds with the annotation as left operand', () => {
    fc.assert(
      fc.property(interval, interval, fc.subarray([...ALLEN_RELATIONS]), (x, q, relations) => {
        expect(matchesRelations(x, q, relations)).toBe(relations.some((r) => holds(r, x, q)));
        expect(matchesIntersects(x, q)).toBe(intersects(x, q));
      }),
    );
  });

  it('reads a point at the window start as both meeting and starting it', () => {
    expect(matchesRelations(point(10), iv(10, 20), ['meets'])).toBe(true);
    expect(matchesRelations(point(10), iv(10, 20), ['starts'])).toBe(true);
    expect(matchesRelations(point(10), iv(10, 20), ['before', 'after'])).toBe(false);
  });
});

describe('candidateBounds', () => {
  it('never leaves out an annotation that matches', () => {
    fc.assert(
      fc.property(interval, interval, fc.subarray([...ALLEN_RELATIONS], { minLength: 1 }), (x, q, relations) => {
        if (matchesRelations(x, q, relations)) expect(within(x, candidateBounds(q, relations) as CandidateBounds)).toBe(true);
        if (intersects(x, q)) expect(within(x, candidateBounds(q, 'intersects') as CandidateBounds)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('pins equals to the query and leaves before unbounded below', () => {
    const q = iv(10, 20);
    const equals = candidateBounds(q, ['equals']) as CandidateBounds;
    expect([equals.startMin, equals.startMax, equals.endMin, equals.endMax].map(String)).toEqual(['10/1', '10/1', '20/1', '20/1']);
    expect(candidateBounds(q, ['before'])).toMatchObject({ startMin: null, endMin: null });
  });

  it('returns null for an empty relation set, which nothing can match', () => {
    expect(candidateBounds(iv(0, 1), [])).toBeNull();
  });
});

describe('canonical ordering', () => {
  it('orders by start, then end, then id, and puts AnnotationRefs last', () => {
    const a = [ann(iv(1, 3), { id: 2 }), refAnn(idFor(1), { id: 9 }), ann(iv(1, 2), { id: 3 }), ann(iv(2, 4, 2), { id: 1 }), ann(point(1), { id: 5 })];
    expect(ids(sortByInterval(a))).toEqual([5, 1, 3, 2, 9].map(idFor)); // [2/2, 4/2) ties [1, 2): id decides
    expect(compareByInterval(a[0], a[0])).toBe(0);
  });
});

describe('intersectsTicks', () => {
  it('answers as intersects() for intervals held as ticks, points and neighbours across rates included', () => {
    fc.assert(fc.property(interval, interval, (x, q) => {
      const ticks = { startV: x.start.v, startR: x.start.r, endV: x.end.v, endR: x.end.r };
      expect(intersectsTicks(q)(ticks)).toBe(intersects(x, q));
    }), { numRuns: 2000 });
  });
});
