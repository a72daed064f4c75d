import fc from 'fast-check';
import { divideRounding, fractionToDecimal, gcd, parseSeconds, reduce } from '../../src/time/decimal.js';
import { InvalidTimeError } from '../../src/time/errors.js';

describe('parseSeconds', () => {
  it.each([
    ['12.345', 2469n, 200n],
    ['-0.25', -1n, 4n],
    ['1e-3', 1n, 1000n],
    ['1E3', 1000n, 1n],
    ['2.5e+2', 250n, 1n],
    ['.5', 1n, 2n],
    ['5.', 5n, 1n],
    ['+0.75', 3n, 4n],
    ['3/4', 3n, 4n],
    ['-6/8', -3n, 4n],
    ['0007.500', 15n, 2n],
    ['  1.5\t', 3n, 2n],
    ['0', 0n, 1n],
    ['-0.000', 0n, 1n],
    ['0e999', 0n, 1n],
    ['0/5', 0n, 1n],
  ])('reads %p as %p/%p exactly', (text, num, den) => {
    expect(parseSeconds(text)).toEqual({ num, den });
  });

  it('reads numbers through their shortest round-trip spelling', () => {
    expect(parseSeconds(0.1)).toEqual({ num: 1n, den: 10n });
    expect(parseSeconds(12.778410892095105)).toEqual({ num: 2555682178419021n, den: 200000000000000n });
    expect(parseSeconds(1e21)).toEqual({ num: 10n ** 21n, den: 1n });
    expect(parseSeconds(5e-7)).toEqual({ num: 1n, den: 2000000n });
    expect(parseSeconds(-0)).toEqual({ num: 0n, den: 1n });
  });

  it('reads a bigint as whole seconds', () => {
    expect(parseSeconds(-42n)).toEqual({ num: -42n, den: 1n });
  });

  it('keeps long decimals exact, far beyond double precision', () => {
    expect(parseSeconds('0.1000000000000000000000000000001')).toEqual({
      num: 1000000000000000000000000000001n,
      den: 10n ** 31n,
    });
  });

  it('does not mistake trailing zeros for a huge exponent', () => {
    expect(parseSeconds(`1.${'0'.repeat(1000)}`)).toEqual({ num: 1n, den: 1n });
  });

  it.each(['', ' ', '.', '-', 'e5', '1e', '1.2.3', '--1', '1,5', 'abc', 'Infinity', 'NaN', '0x10', '1/2/3', '1.5/2', '3/-4', '1 000'])(
    'rejects %p with InvalidTimeError',
    (text) => {
      expect(() => parseSeconds(text)).toThrow(InvalidTimeError);
    },
  );

  it('rejects a ratio with a zero denominator', () => {
    expect(() => parseSeconds('1/0')).toThrow(/divides by zero/);
  });

  it('rejects non-finite numbers', () => {
    expect(() => parseSeconds(Number.NaN)).toThrow(InvalidTimeError);
    expect(() => parseSeconds(Number.POSITIVE_INFINITY)).toThrow(InvalidTimeError);
  });

  it('rejects absurd exponents instead of building enormous integers', () => {
    expect(() => parseSeconds('1e999999999')).toThrow(/exponent out of range/);
    expect(() => parseSeconds('1e-401')).toThrow(/exponent out of range/);
    expect(parseSeconds('1e-400').den).toBe(10n ** 400n);
  });

  it('always returns a reduced fraction with a positive denominator', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 1, max: 1e6 }), (n, d) => {
        const { num, den } = parseSeconds(`${n}/${d}`);
        expect(den > 0n).toBe(true);
        expect(gcd(num < 0n ? -num : num, den)).toBe(num === 0n ? den : 1n);
        expect(num * BigInt(d)).toBe(BigInt(n) * den);
      }),
    );
  });
});

describe('reduce and gcd', () => {
  it('reduces and moves the sign to the numerator', () => {
    expect(reduce(6n, -8n)).toEqual({ num: -3n, den: 4n });
    expect(reduce(0n, 7n)).toEqual({ num: 0n, den: 1n });
    expect(gcd(48000n, 44100n)).toBe(300n);
  });
});

describe('divideRounding', () => {
  it.each([
    [1n, 2n, 0n, 0n, 1n],
    [3n, 2n, 2n, 1n, 2n],
    [5n, 2n, 2n, 2n, 3n],
    [-1n, 2n, 0n, -1n, 0n],
    [-3n, 2n, -2n, -2n, -1n],
    [-5n, 2n, -2n, -3n, -2n],
    [7n, 3n, 2n, 2n, 3n],
    [8n, 3n, 3n, 2n, 3n],
    [-7n, 3n, -2n, -3n, -2n],
    [6n, 3n, 2n, 2n, 2n],
    [3n, -2n, -2n, -2n, -1n],
  ])('divides %p by %p: round %p, floor %p, ceil %p', (num, den, round, floor, ceil) => {
    expect(divideRounding(num, den, 'round')).toBe(round);
    expect(divideRounding(num, den, 'floor')).toBe(floor);
    expect(divideRounding(num, den, 'ceil')).toBe(ceil);
  });

  it('brackets the exact quotient: floor <= round <= ceil, within one', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (num, den) => {
        const floor = divideRounding(num, den, 'floor');
        const ceil = divideRounding(num, den, 'ceil');
        const round = divideRounding(num, den, 'round');
        expect(floor * den <= num && num < (floor + 1n) * den).toBe(true);
        expect(ceil - floor).toBe(num % den === 0n ? 0n : 1n);
        expect(round === floor || round === ceil).toBe(true);
        const distance = (q: bigint) => (num - q * den < 0n ? q * den - num : num - q * den);
        expect(distance(round) <= distance(round === floor ? ceil : floor)).toBe(true);
      }),
    );
  });
});

describe('fractionToDecimal', () => {
  it.each([
    [1n, 2n, '0.5'],
    [-1n, 4n, '-0.25'],
    [2469n, 200n, '12.345'],
    [3n, 1n, '3'],
    [-3n, 1n, '-3'],
    [0n, 1n, '0'],
    [-1n, 1000n, '-0.001'],
    [1n, 1024n, '0.0009765625'],
  ])('spells %p/%p as %p', (num, den, text) => {
    expect(fractionToDecimal(num, den)).toBe(text);
  });

  it('returns null when the decimal would not end', () => {
    expect(fractionToDecimal(1n, 3n)).toBeNull();
    expect(fractionToDecimal(1001n, 30000n)).toBeNull();
  });

  it('is undone by parseSeconds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.nat(12), fc.nat(12), (n, twos, fives) => {
        const { num, den } = reduce(n, 2n ** BigInt(twos) * 5n ** BigInt(fives));
        expect(parseSeconds(fractionToDecimal(num, den) as string)).toEqual({ num, den });
      }),
    );
  });
});
