import fc from 'fast-check';
import {
  ALLEN_RELATIONS,
  AllenRelation,
  compose,
  holds,
  intersects,
  inverse,
  parseAllenRelation,
  relate,
} from '../../src/time/allen.js';
import { UnknownAllenRelationError } from '../../src/time/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** [start, end) in ticks at `rate` (1 tick per second by default). */
function iv(start: number, end: number, rate = 1): TimeInterval {
  return new TimeInterval(new RationalTime(start, rate), new RationalTime(end, rate));
}

const point = (at: number, rate = 1) => iv(at, at, rate);

const OVERLAPPING: readonly AllenRelation[] = [
  'overlaps', 'overlapped_by', 'starts', 'started_by', 'during', 'contains', 'finishes', 'finished_by', 'equals',
];

/** Times on a grid of twelfths, each spelled at its own rate, so equal values often differ in rate. */
const time = fc
  .tuple(fc.integer({ min: -40, max: 40 }), fc.integer({ min: 1, max: 5 }))
  .map(([twelfths, k]) => new RationalTime(twelfths * k, 12 * k));

const interval = fc.tuple(time, time).map(([x, y]) => (x.le(y) ? new TimeInterval(x, y) : new TimeInterval(y, x)));
const properInterval = interval.filter((i) => !i.isPoint);

describe('Allen relations between proper intervals', () => {
  const examples: [AllenRelation, TimeInterval, TimeInterval][] = [
    ['before', iv(0, 3), iv(5, 8)],
    ['after', iv(5, 8), iv(0, 3)],
    ['meets', iv(0, 5), iv(5, 8)],
    ['met_by', iv(5, 8), iv(0, 5)],
    ['overlaps', iv(0, 5), iv(3, 8)],
    ['overlapped_by', iv(3, 8), iv(0, 5)],
    ['starts', iv(0, 3), iv(0, 8)],
    ['started_by', iv(0, 8), iv(0, 3)],
    ['during', iv(2, 5), iv(0, 8)],
    ['contains', iv(0, 8), iv(2, 5)],
    ['finishes', iv(5, 8), iv(0, 8)],
    ['finished_by', iv(0, 8), iv(5, 8)],
    ['equals', iv(0, 8), iv(0, 8)],
  ];

  it.each(examples)('recognises %s and no other relation on its textbook example', (relation, a, b) => {
    expect(relate(a, b)).toBe(relation);
    expect(ALLEN_RELATIONS.filter((r) => holds(r, a, b))).toEqual([relation]);
  });

  it('treats touching intervals as meets, not overlap, and says they do not intersect', () => {
    expect(relate(iv(0, 10), iv(10, 20))).toBe('meets');
    expect(holds('overlaps', iv(0, 10), iv(10, 20))).toBe(false);
    expect(holds('before', iv(0, 10), iv(10, 20))).toBe(false);
    expect(intersects(iv(0, 10), iv(10, 20))).toBe(false);
    expect(intersects(iv(10, 20), iv(0, 10))).toBe(false);
  });

  it('compares endpoints by value across rates', () => {
    // [0.5 s, 1 s) at rate 2 and [24000/48000 s, 1.5 s) at rate 48000 start together.
    expect(relate(iv(1, 2, 2), iv(24000, 72000, 48000))).toBe('starts');
    expect(relate(iv(1, 2, 2), iv(24000, 48000, 48000))).toBe('equals');
  });

  it('names the thirteen relations with the snake_case values the HTTP and CLI layers accept', () => {
    expect(ALLEN_RELATIONS).toEqual([
      'before', 'after', 'meets', 'met_by', 'overlaps', 'overlapped_by', 'starts', 'started_by',
      'during', 'contains', 'finishes', 'finished_by', 'equals',
    ]);
    expect(AllenRelation.MET_BY).toBe('met_by');
    expect(Object.values(AllenRelation)).toEqual(ALLEN_RELATIONS);
  });
});

describe('Allen relations with points', () => {
  it('says a point at an interval start meets it (first in order) and also starts it, and intersects it', () => {
    expect(relate(point(0), iv(0, 20))).toBe('meets');
    expect(holds('starts', point(0), iv(0, 20))).toBe(true);
    expect(intersects(point(0), iv(0, 20))).toBe(true);
    expect(intersects(iv(0, 20), point(0))).toBe(true);
  });

  it('says an interval meets a point at its end and is finished by it, but they do not intersect', () => {
    expect(relate(iv(0, 10), point(10))).toBe('meets');
    expect(holds('finished_by', iv(0, 10), point(10))).toBe(true);
    expect(intersects(iv(0, 10), point(10))).toBe(false);
    expect(intersects(point(10), iv(0, 10))).toBe(false);
  });

  it('puts a point strictly inside an interval during it', () => {
    expect(relate(point(5), iv(0, 10))).toBe('during');
    expect(relate(iv(0, 10), point(5))).toBe('contains');
    expect(intersects(point(5), iv(0, 10))).toBe(true);
  });

  it('says two equal points are equal (not meets) and intersect, across rates', () => {
    expect(relate(point(3), point(6, 2))).toBe('equals');
    expect(holds('meets', point(3), point(3))).toBe(false);
    expect(holds('met_by', point(3), point(3))).toBe(false);
    expect(intersects(point(3), point(6, 2))).toBe(true);
  });

  it('says two different points are before or after each other and do not intersect', () => {
    expect(relate(point(1), point(2))).toBe('before');
    expect(relate(point(2), point(1))).toBe('after');
    expect(intersects(point(1), point(2))).toBe(false);
  });
});

describe('inverse', () => {
  it('pairs each relation with its converse and is its own inverse', () => {
    expect(inverse('before')).toBe('after');
    expect(inverse('meets')).toBe('met_by');
    expect(inverse('overlaps')).toBe('overlapped_by');
    expect(inverse('starts')).toBe('started_by');
    expect(inverse('during')).toBe('contains');
    expect(inverse('finishes')).toBe('finished_by');
    expect(inverse('equals')).toBe('equals');
    for (const r of ALLEN_RELATIONS) expect(inverse(inverse(r))).toBe(r);
  });
});

describe('parseAllenRelation', () => {
  it('reads snake_case names in any case, hyphenated spellings and Allen symbols', () => {
    expect(parseAllenRelation('met_by')).toBe('met_by');
    expect(parseAllenRelation('MEETS')).toBe('meets');
    expect(parseAllenRelation(' overlapped-by ')).toBe('overlapped_by');
    expect(parseAllenRelation('<')).toBe('before');
    expect(parseAllenRelation('di')).toBe('contains');
    expect(parseAllenRelation('=')).toBe('equals');
    for (const r of ALLEN_RELATIONS) expect(parseAllenRelation(r)).toBe(r);
  });

  it('rejects an unknown name with a typed error that lists the valid names', () => {
    expect(() => parseAllenRelation('overlap')).toThrow(UnknownAllenRelationError);
    expect(() => parseAllenRelation('overlap')).toThrow(/"overlap".*before, after, meets, met_by.*finished_by, equals/);
    expect(() => parseAllenRelation('intersects')).toThrow(UnknownAllenRelationError);
  });

  it('gives the error a stable code', () => {
    try {
      parseAllenRelation('nope');
      throw new Error('expected a throw');
    } catch (error) {
      expect((error as UnknownAllenRelationError).code).toBe('ANNOT_UNKNOWN_RELATION');
    }
  });
});

describe('compose (the composition table)', () => {
  it('gives the well-known entries of Allen 1983', () => {
    expect(compose('before', 'before')).toEqual(['before']);
    expect(compose('before', 'after')).toEqual(ALLEN_RELATIONS);
    expect(compose('during', 'contains')).toEqual(ALLEN_RELATIONS);
    expect(compose('overlaps', 'overlaps')).toEqual(['before', 'meets', 'overlaps']);
    expect(compose('meets', 'met_by')).toEqual(['finishes', 'finished_by', 'equals']);
    expect(compose('during', 'during')).toEqual(['during']);
    expect(compose('overlaps', 'overlapped_by')).toEqual(ALLEN_RELATIONS.filter((r) => OVERLAPPING.includes(r)));
  });

  it('treats equals as the identity on both sides', () => {
    for (const r of ALLEN_RELATIONS) {
      expect(compose('equals', r)).toEqual([r]);
      expect(compose(r, 'equals')).toEqual([r]);
    }
  });

  it('matches brute force over every triple of proper integer intervals with endpoints in 0..7', () => {
    const N = 7;
    const intervals: TimeInterval[] = [];
    for (let s = 0; s <= N; s++) for (let e = s + 1; e <= N; e++) intervals.push(iv(s, e));
    const rel = intervals.map((a) => intervals.map((b) => relate(a, b)));
    const realized = new Map<string, Set<AllenRelation>>();
    for (let i = 0; i < intervals.length; i++) {
      for (let j = 0; j < intervals.length; j++) {
        for (let k = 0; k < intervals.length; k++) {
          const key = `${rel[i][j]}|${rel[j][k]}`;
          let set = realized.get(key);
          if (!set) realized.set(key, (set = new Set()));
          set.add(rel[i][k]);
        }
      }
    }
    for (const r1 of ALLEN_RELATIONS) {
      for (const r2 of ALLEN_RELATIONS) {
        const expected = ALLEN_RELATIONS.filter((r) => realized.get(`${r1}|${r2}`)?.has(r));
        expect({ r1, r2, relations: compose(r1, r2) }).toEqual({ r1, r2, relations: expected });
      }
    }
  });

  it('is consistent with inverse: compose(r1, r2) inverted is compose(inverse r2, inverse r1)', () => {
    for (const r1 of ALLEN_RELATIONS) {
      for (const r2 of ALLEN_RELATIONS) {
        const flipped = new Set(compose(r1, r2).map(inverse));
        expect(ALLEN_RELATIONS.filter((r) => flipped.has(r))).toEqual(compose(inverse(r2), inverse(r1)));
      }
    }
  });

  it('rejects a relation that is not one of the thirteen', () => {
    expect(() => compose('overlap' as AllenRelation, 'before')).toThrow(UnknownAllenRelationError);
    expect(() => compose('before', 'nope' as AllenRelation)).toThrow(/"nope"/);
    expect(() => holds('nope' as AllenRelation, iv(0, 1), iv(0, 1))).toThrow(UnknownAllenRelationError);
  });
});

describe('laws of the algebra (property tests)', () => {
  it('exactly one relation holds between two proper intervals, and relate returns it', () => {
    fc.assert(
      fc.property(properInterval, properInterval, (a, b) => {
        const holding = ALLEN_RELATIONS.filter((r) => holds(r, a, b));
        return holding.length === 1 && holding[0] === relate(a, b);
      }),
    );
  });

  it('relate(b, a) is the inverse of relate(a, b), points included', () => {
    fc.assert(fc.property(interval, interval, (a, b) => relate(b, a) === inverse(relate(a, b))));
  });

  it('holds(r, a, b) exactly when holds(inverse r, b, a), points included', () => {
    fc.assert(
      fc.property(interval, interval, (a, b) => ALLEN_RELATIONS.every((r) => holds(r, a, b) === holds(inverse(r), b, a))),
    );
  });

  it('intersects is the union of the nine overlapping relations for proper intervals', () => {
    fc.assert(fc.property(properInterval, properInterval, (a, b) => intersects(a, b) === OVERLAPPING.includes(relate(a, b))));
  });

  it('intersects is symmetric, points included', () => {
    fc.assert(fc.property(interval, interval, (a, b) => intersects(a, b) === intersects(b, a)));
  });

  it('scaling the rates of both intervals does not change their relation or whether they intersect', () => {
    const rescale = (i: TimeInterval, k: number, m: number) =>
      new TimeInterval(new RationalTime(i.start.v * k, i.start.r * k), new RationalTime(i.end.v * m, i.end.r * m));
    fc.assert(
      fc.property(
        interval,
        interval,
        fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 4, maxLength: 4 }),
        (a, b, [k1, k2, k3, k4]) => {
          const a2 = rescale(a, k1, k2);
          const b2 = rescale(b, k3, k4);
          return relate(a2, b2) === relate(a, b) && intersects(a2, b2) === intersects(a, b);
        },
      ),
    );
  });

  it('composition covers what actually happens: relate(a, c) is in compose(relate(a, b), relate(b, c))', () => {
    fc.assert(
      fc.property(properInterval, properInterval, properInterval, (a, b, c) =>
        compose(relate(a, b), relate(b, c)).includes(relate(a, c)),
      ),
    );
  });
});
