import fc from 'fast-check';
import { parseSeconds } from '../../src/time/decimal.js';
import { InvalidTimeError, LossyTimeConversionError } from '../../src/time/errors.js';
import { RationalTime, UNKNOWN_GENERATED_AT, isUnknownGeneratedAt } from '../../src/time/rational-time.js';

const t = (v: number, r: number) => new RationalTime(v, r);

/** The exact ordering of v1/r1 and v2/r2, computed independently of the code under test. */
function bigIntTruth(a: RationalTime, b: RationalTime): -1 | 0 | 1 {
  const left = BigInt(a.v) * BigInt(b.r);
  const right = BigInt(b.v) * BigInt(a.r);
  return left < right ? -1 : left > right ? 1 : 0;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const rate = fc.constantFrom(1, 2, 3, 24, 25, 30, 1000, 1001, 44100, 48000, 90000, 24000, 30000);
const safeTicks = fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
const anyTime = fc.tuple(safeTicks, rate).map(([v, r]) => t(v, r));

describe('RationalTime construction', () => {
  it('keeps the pair as given instead of reducing it', () => {
    const time = t(2, 48);
    expect([time.v, time.r]).toEqual([2, 48]);
  });

  it('normalises negative zero ticks to zero', () => {
    expect(Object.is(t(-0, 5).v, 0)).toBe(true);
  });

  it.each([
    [1.5, 1],
    [Number.MAX_SAFE_INTEGER + 1, 1],
    [Number.NaN, 1],
    [1, 0],
    [1, -24],
    [1, 2.5],
    [1, Number.POSITIVE_INFINITY],
  ])('rejects v=%p r=%p with InvalidTimeError', (v, r) => {
    expect(() => t(v, r)).toThrow(InvalidTimeError);
  });
});

describe('RationalTime.fromSeconds (exact)', () => {
  it.each([
    ['12.345', 1000, 12345],
    ['-0.25', 4, -1],
    ['-0.25', 1000, -250],
    ['1e-3', 1000, 1],
    ['3/4', 4, 3],
    ['3/4', 1000, 750],
    ['.5', 2, 1],
    ['  7  ', 1, 7],
    ['+2.5E1', 1, 25],
    ['0.000', 1, 0],
    ['5.', 1, 5],
    ['-.5', 2, -1],
    ['-0', 7, 0],
    ['0000000000000001.5', 2, 3],
    ['123456789012.345', 1000, 123456789012345],
  ])('reads %p at rate %p as %p ticks', (seconds, rate, ticks) => {
    const time = RationalTime.fromSeconds(seconds, rate);
    expect([time.v, time.r]).toEqual([ticks, rate]);
  });

  it('reads a number through its shortest decimal spelling, so 0.1 at rate 1000 is exactly 100 ticks', () => {
    expect(RationalTime.fromSeconds(0.1, 1000).v).toBe(100);
    expect(RationalTime.fromSeconds(0.3, 10).v).toBe(3);
    expect(RationalTime.fromSeconds(1.005, 1000).v).toBe(1005);
    expect(RationalTime.fromSeconds(1e-7, 10_000_000).v).toBe(1);
  });

  it('reads a bigint as whole seconds', () => {
    expect(RationalTime.fromSeconds(12n, 48000).v).toBe(576000);
  });

  it('gives the exact BigInt answer, or throws, for plain decimals short and long, small and huge', () => {
    const text = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,12}$/), fc.stringMatching(/^(\.[0-9]{1,9})?$/))
      .map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}${fraction}`);
    const someRate = fc.oneof(fc.constantFrom(1, 3, 1000, 44100, 48000, 90000, 10 ** 9), fc.integer({ min: 1, max: 2 ** 40 }));
    fc.assert(
      fc.property(text, someRate, (seconds, rate) => {
        const { num, den } = parseSeconds(seconds);
        const scaled = num * BigInt(rate);
        const ticks = scaled / den;
        const exact = scaled % den === 0n;
        const safe = ticks <= BigInt(Number.MAX_SAFE_INTEGER) && ticks >= BigInt(Number.MIN_SAFE_INTEGER);
        if (exact && safe) {
          expect(RationalTime.fromSeconds(seconds, rate).isIdentical(t(Number(ticks), rate))).toBe(true);
        } else {
          expect(() => RationalTime.fromSeconds(seconds, rate)).toThrow(exact ? InvalidTimeError : LossyTimeConversionError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['0.0005', 1000],
    ['1/3', 1000],
    ['12.3456', 1000],
    ['0.5', 1],
  ])('throws LossyTimeConversionError for %p at rate %p instead of rounding', (seconds, rate) => {
    const error = thrown(() => RationalTime.fromSeconds(seconds, rate));
    expect(error).toBeInstanceOf(LossyTimeConversionError);
    expect((error as LossyTimeConversionError).code).toBe('ANNOT_LOSSY_TIME');
    expect((error as Error).message).toContain(`rate ${rate}`);
  });

  it('throws LossyTimeConversionError for the number 0.0001 at rate 1000', () => {
    expect(() => RationalTime.fromSeconds(0.0001, 1000)).toThrow(LossyTimeConversionError);
  });

  it.each(['', '-', '.', '-.', '1.2.3', '1..2', '1-2', '12a'])('rejects the malformed text %p with InvalidTimeError', (text) => {
    expect(() => RationalTime.fromSeconds(text, 1000)).toThrow(InvalidTimeError);
  });

  it('rejects text that is not a number, with a message that shows the accepted spellings', () => {
    expect(() => RationalTime.fromSeconds('12,5', 1000)).toThrow(/"12,5" is not a number.*"3\/4"/);
  });

  it('rejects a rate that is not a positive integer', () => {
    expect(() => RationalTime.fromSeconds('1', 0)).toThrow(InvalidTimeError);
    expect(() => RationalTime.fromSeconds('1', 29.97)).toThrow(InvalidTimeError);
  });

  it('rejects a time whose tick count is beyond 2^53 instead of losing precision', () => {
    expect(() => RationalTime.fromSeconds('9007199254740992', 1)).toThrow(/out of range/);
    expect(RationalTime.fromSeconds('9007199254740991', 1).v).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('RationalTime.fromSecondsLossy', () => {
  it.each([
    ['0.5', 0],
    ['1.5', 2],
    ['2.5', 2],
    ['3.5', 4],
    ['2.7', 3],
    ['2.2', 2],
    ['-0.5', 0],
    ['-1.5', -2],
    ['-2.5', -2],
    ['-2.7', -3],
  ])('rounds %p s to the nearest tick at rate 1 with ties to even: %p', (seconds, ticks) => {
    expect(RationalTime.fromSecondsLossy(seconds, 1, 'round').v).toBe(ticks);
  });

  it('rounds half to even by default', () => {
    expect(RationalTime.fromSecondsLossy('0.0025', 1000).v).toBe(2);
    expect(RationalTime.fromSecondsLossy('0.0035', 1000).v).toBe(4);
  });

  it.each([
    ['1.5', 1, 2],
    ['1.1', 1, 2],
    ['-0.5', -1, 0],
    ['-1.5', -2, -1],
    ['-1.1', -2, -1],
    ['2', 2, 2],
    ['-2', -2, -2],
  ])('floors %p s to %p and ceils it to %p at rate 1', (seconds, floor, ceil) => {
    expect(RationalTime.fromSecondsLossy(seconds, 1, 'floor').v).toBe(floor);
    expect(RationalTime.fromSecondsLossy(seconds, 1, 'ceil').v).toBe(ceil);
  });

  it('agrees with the exact reader whenever the exact reader succeeds', () => {
    for (const mode of ['round', 'floor', 'ceil'] as const) {
      expect(RationalTime.fromSecondsLossy('12.345', 1000, mode).isIdentical(RationalTime.fromSeconds('12.345', 1000))).toBe(true);
    }
  });
});

describe('RationalTime.now', () => {
  it('converts an injected clock reading to ticks, rounding half up', () => {
    expect(RationalTime.now(1000, 1234).isIdentical(t(1234, 1000))).toBe(true);
    expect(RationalTime.now(1, 1500).v).toBe(2);
    expect(RationalTime.now(1, 2500).v).toBe(3); // half up, not half even
    expect(RationalTime.now(1, 2499).v).toBe(2);
    expect(RationalTime.now(1000, 0.5).v).toBe(1);
    expect(RationalTime.now(1000, 2.5).v).toBe(3);
    expect(RationalTime.now(1, -1500).v).toBe(-1); // half up is toward +infinity
  });

  it('reads the wall clock when no reading is injected', () => {
    const before = Date.now();
    const now = RationalTime.now(1000);
    const after = Date.now();
    expect(now.r).toBe(1000);
    expect(now.v).toBeGreaterThanOrEqual(before);
    expect(now.v).toBeLessThanOrEqual(after);
  });

  it('rejects a clock reading that is not finite', () => {
    expect(() => RationalTime.now(1000, Number.NaN)).toThrow(InvalidTimeError);
  });
});

describe('UNKNOWN_GENERATED_AT', () => {
  it('is tick 0', () => {
    expect(UNKNOWN_GENERATED_AT.v).toBe(0);
    expect(UNKNOWN_GENERATED_AT.equals(t(0, 48000))).toBe(true);
  });

  it('is recognised as unknown at any rate, and a known time is not', () => {
    expect(isUnknownGeneratedAt(UNKNOWN_GENERATED_AT)).toBe(true);
    expect(isUnknownGeneratedAt(t(0, 1000))).toBe(true);
    expect(isUnknownGeneratedAt(RationalTime.now(1000, 1_700_000_000_000))).toBe(false);
  });
});

describe('RationalTime wire form', () => {
  it('round-trips {v, r} keeping the original rate', () => {
    const time = RationalTime.fromWire({ v: 2, r: 48 });
    expect(time.toWire()).toEqual({ v: 2, r: 48 });
    expect(JSON.stringify(time)).toBe('{"v":2,"r":48}');
  });

  it.each([
    [{ v: 1, r: 2, x: 0 }, 'time.x'],
    [{ r: 2 }, 'time.v'],
    [{ v: 1 }, 'time.r'],
    [{ v: 1.5, r: 2 }, 'time.v'],
    [{ v: 1, r: 2.5 }, 'time.r'],
    [{ v: '1', r: 2 }, 'time.v'],
    [{ v: 1, r: '2' }, 'time.r'],
    [{ v: true, r: 2 }, 'time.v'],
    [{ v: 1, r: false }, 'time.r'],
    [{ v: null, r: 2 }, 'time.v'],
    [{ v: 1, r: null }, 'time.r'],
    [{ v: 1, r: 0 }, 'time.r'],
    [{ v: 1, r: -30 }, 'time.r'],
    [{ v: 2 ** 53, r: 1 }, 'time.v'],
    [{ v: Number.NaN, r: 1 }, 'time.v'],
  ])('rejects %j with a message naming %s', (json, field) => {
    const error = thrown(() => RationalTime.fromWire(json));
    expect(error).toBeInstanceOf(InvalidTimeError);
    expect((error as Error).message.startsWith(`${field}:`)).toBe(true);
  });

  it.each([[null], [[1, 2]], ['1/2'], [3]])('rejects the non-object %j', (json) => {
    expect(() => RationalTime.fromWire(json)).toThrow(/^time: expected an object \{v, r\}/);
  });

  it('names the field by the path it is given', () => {
    expect(() => RationalTime.fromWire({ v: 1, r: 0 }, 'annotation.reference.interval.end')).toThrow(
      /^annotation\.reference\.interval\.end\.r: expected a positive integer rate, got 0/,
    );
  });
});

describe('RationalTime conversion between rates', () => {
  it('re-expresses a time exactly at another rate', () => {
    expect(t(1, 2).toRate(1000).isIdentical(t(500, 1000))).toBe(true);
    expect(t(1001, 30000).toRate(30000).isIdentical(t(1001, 30000))).toBe(true);
    expect(t(-3, 4).toRate(8).isIdentical(t(-6, 8))).toBe(true);
  });

  it('throws LossyTimeConversionError when the other rate cannot hold the time', () => {
    expect(() => t(1, 3).toRate(1000)).toThrow(LossyTimeConversionError);
    expect(() => t(1001, 30000).toRate(1000)).toThrow(LossyTimeConversionError);
  });

  it('rounds on request with toRateLossy', () => {
    expect(t(1, 3).toRateLossy(1000).v).toBe(333);
    expect(t(2, 3).toRateLossy(1000).v).toBe(667);
    expect(t(1, 3).toRateLossy(1000, 'ceil').v).toBe(334);
    expect(t(-1, 3).toRateLossy(1000, 'floor').v).toBe(-334);
    expect(t(-1, 3).toRateLossy(1000, 'ceil').v).toBe(-333);
    expect(t(1, 2000).toRateLossy(1000).v).toBe(0); // tie to even
    expect(t(3, 2000).toRateLossy(1000).v).toBe(2);
  });
});

describe('RationalTime arithmetic', () => {
  it('adds and subtracts exactly at the left operand rate', () => {
    expect(t(3, 6).plus(t(1, 3)).isIdentical(t(5, 6))).toBe(true);
    expect(t(3, 6).minus(t(1, 3)).isIdentical(t(1, 6))).toBe(true);
    expect(t(10, 1000).plus(t(5, 1000)).isIdentical(t(15, 1000))).toBe(true);
    expect(t(1, 1).minus(t(3, 1)).isIdentical(t(-2, 1))).toBe(true);
  });

  it('throws LossyTimeConversionError when the right operand is not expressible at the left rate', () => {
    expect(() => t(1, 2).plus(t(1, 3))).toThrow(LossyTimeConversionError);
    expect(() => t(1, 1000).minus(t(1, 1001))).toThrow(LossyTimeConversionError);
  });

  it('refuses a sum beyond 2^53 ticks instead of losing precision', () => {
    expect(() => t(Number.MAX_SAFE_INTEGER, 1).plus(t(1, 1))).toThrow(InvalidTimeError);
    expect(() => t(Number.MIN_SAFE_INTEGER, 1).minus(t(1, 1))).toThrow(InvalidTimeError);
  });

  it('is the identity to add then subtract a time expressible at the left rate', () => {
    const pair = fc
      .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 60 }))
      .chain(([v, base, k]) =>
        fc.integer({ min: -1e9, max: 1e9 }).map((w) => [t(v, base * k), t(w, base)] as const),
      );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect(a.plus(b).minus(b).isIdentical(a)).toBe(true);
        expect(a.minus(b).plus(b).isIdentical(a)).toBe(true);
      }),
    );
  });
});

describe('RationalTime comparison', () => {
  it('compares by value across rates', () => {
    expect(t(48000, 24000).equals(t(2, 1))).toBe(true);
    expect(t(1, 3).lt(t(334, 1000))).toBe(true);
    expect(t(1, 3).gt(t(333, 1000))).toBe(true);
    expect(t(1001, 30000).le(t(1001, 30000))).toBe(true);
    expect(t(1001, 30000).ge(t(1, 30))).toBe(true);
    expect(t(-1, 2).compare(t(-1, 3))).toBe(-1);
  });

  it('tells values apart near 2^53 ticks at 48000 vs 44100 where floats say they are equal', () => {
    const a = t(9007199254740991, 48000);
    const b = t(8275364315293286, 44100);
    expect(a.v / a.r).toBe(b.v / b.r); // the float comparison is wrong here
    expect(a.compare(b)).toBe(-1);
    expect(bigIntTruth(a, b)).toBe(-1);
    expect(b.compare(a)).toBe(1);
  });

  it('compares the largest safe tick counts at different rates without overflow', () => {
    const max = Number.MAX_SAFE_INTEGER;
    expect(t(max, 48000).compare(t(max, 44100))).toBe(-1);
    expect(t(-max, 48000).compare(t(-max, 44100))).toBe(1);
    expect(t(max - 1, 2).equals(t((max - 1) / 2, 1))).toBe(true);
  });

  it('agrees with BigInt cross-multiplication on arbitrary safe values and rates', () => {
    fc.assert(
      fc.property(anyTime, anyTime, (a, b) => {
        expect(a.compare(b)).toBe(bigIntTruth(a, b));
        expect(b.compare(a)).toBe(-bigIntTruth(a, b) || 0);
      }),
    );
  });

  it('agrees with BigInt cross-multiplication for neighbouring values near 2^53 at audio rates', () => {
    const near = fc
      .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: -50_000, max: 50_000 }), fc.boolean())
      .map(([below, delta, negative]) => {
        const v = Number.MAX_SAFE_INTEGER - below;
        const w = Number(((BigInt(v) * 44100n) / 48000n) + BigInt(delta));
        return negative ? [t(-v, 48000), t(-w, 44100)] : [t(v, 48000), t(w, 44100)];
      });
    fc.assert(fc.property(near, ([a, b]) => expect(a.compare(b)).toBe(bigIntTruth(a, b))));
  });

  it('distinguishes identical pairs from equal values', () => {
    expect(t(2, 48).equals(t(1, 24))).toBe(true);
    expect(t(2, 48).isIdentical(t(1, 24))).toBe(false);
    expect(t(2, 48).isIdentical(t(2, 48))).toBe(true);
  });
});

describe('RationalTime printing', () => {
  it('prints exact decimal seconds when the value has a finite decimal spelling', () => {
    expect(t(12345, 1000).toSecondsString()).toBe('12.345');
    expect(t(-1, 4).toSecondsString()).toBe('-0.25');
    expect(t(1, 1000).toSecondsString()).toBe('0.001');
    expect(t(48000, 24000).toSecondsString()).toBe('2');
    expect(t(0, 7).toSecondsString()).toBe('0');
  });

  it('prints the reduced ratio when the decimal would not end', () => {
    expect(t(1001, 30000).toSecondsString()).toBe('1001/30000');
    expect(t(2, 6).toSecondsString()).toBe('1/3');
    expect(t(-4, 6).toSecondsString()).toBe('-2/3');
  });

  it('gives a value key that is equal exactly for equal values', () => {
    expect(t(2, 4).valueKey()).toBe(t(1, 2).valueKey());
    expect(t(4, 8).valueKey()).toBe('1/2');
    expect(t(0, 9).valueKey()).toBe(t(0, 1).valueKey());
    fc.assert(fc.property(anyTime, anyTime, (a, b) => expect(a.valueKey() === b.valueKey()).toBe(a.equals(b))));
  });

  it('reduces toFraction with a positive denominator', () => {
    expect(t(-6, 8).toFraction()).toEqual({ num: -3n, den: 4n });
  });

  it('is the identity to print a time and parse it back at its rate', () => {
    fc.assert(
      fc.property(anyTime, (time) => {
        expect(RationalTime.fromSeconds(time.toSecondsString(), time.r).isIdentical(time)).toBe(true);
      }),
    );
  });

  it('prints a parsed decimal back in its normalised spelling', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,6}$/), // with rates up to 10^9 the ticks stay below 2^53
        fc.stringMatching(/^[0-9]{0,6}$/),
        fc.integer({ min: 0, max: 3 }),
      )
      .map(([negative, whole, fraction, extraRateDigits]) => ({
        text: `${negative ? '-' : ''}${whole}${fraction ? '.' + fraction : ''}`,
        rate: 10 ** (fraction.length + extraRateDigits),
        expected: normalisedDecimal(negative, whole, fraction),
      }));
    fc.assert(
      fc.property(decimal, ({ text, rate, expected }) => {
        expect(RationalTime.fromSeconds(text, rate).toSecondsString()).toBe(expected);
      }),
    );
  });
});

/** The canonical spelling of a decimal: no leading or trailing zeros, no "-0". */
function normalisedDecimal(negative: boolean, whole: string, fraction: string): string {
  const intPart = whole.replace(/^0+(?=\d)/, '');
  const fracPart = fraction.replace(/0+$/, '');
  const body = fracPart ? `${intPart}.${fracPart}` : intPart;
  return negative && body !== '0' ? `-${body}` : body;
}
