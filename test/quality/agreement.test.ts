import fc from 'fast-check';
import { cohenKappa, krippendorffAlpha } from '../../src/quality/agreement.js';
import { InsufficientDataError, MetricInputError } from '../../src/quality/errors.js';

/** Two annotators' labels from a 2×2 table of counts: [yes/yes, yes/no, no/yes, no/no] (a's label first). */
function fromTable([yy, yn, ny, nn]: readonly [number, number, number, number]): [string[], string[]] {
  const cells: [string, string, number][] = [['yes', 'yes', yy], ['yes', 'no', yn], ['no', 'yes', ny], ['no', 'no', nn]];
  const a: string[] = [];
  const b: string[] = [];
  for (const [x, y, count] of cells) {
    for (let i = 0; i < count; i++) {
      a.push(x);
      b.push(y);
    }
  }
  return [a, b];
}

describe('cohenKappa against published examples', () => {
  it('gives 0.4 for the Wikipedia example (20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no)', () => {
    // p_o = 35/50 = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5.
    expect(cohenKappa(...fromTable([20, 5, 10, 15]))).toBeCloseTo(0.4, 12);
  });

  it('gives 0.1304 and 0.2593 for the two Wikipedia tables with the same agreement but different marginals', () => {
    // Both have p_o = 0.60; p_e = 0.54 and 0.46, so kappa = 0.06/0.46 and 0.14/0.54.
    expect(cohenKappa(...fromTable([45, 15, 25, 15]))).toBeCloseTo(0.06 / 0.46, 12);
    expect(cohenKappa(...fromTable([45, 15, 25, 15]))).toBeCloseTo(0.1304, 4);
    expect(cohenKappa(...fromTable([25, 35, 5, 35]))).toBeCloseTo(0.2593, 4);
  });

  it('gives 0.5833 for the textbook 50-item table (25, 5, 5, 15)', () => {
    expect(cohenKappa(...fromTable([25, 5, 5, 15]))).toBeCloseTo(0.28 / 0.48, 12);
  });

  it('gives 78/114 on the five-category two-coder data of Krippendorff (2011, section B), by hand', () => {
    // p_o = 9/12; Σ a_c·b_c = 3·1 + 2·4 + 3·3 + 3·3 + 1·1 = 30, so kappa = (12·9 − 30) / (144 − 30).
    expect(cohenKappa([...'aabbdcccedda'], [...'babbbccceddd'])).toBeCloseTo(78 / 114, 12);
  });
});

describe('cohenKappa on the reference values and degenerate inputs', () => {
  it('is 1 for perfect agreement and -1 for perfect systematic disagreement', () => {
    expect(cohenKappa(['A', 'B', 'A'], ['A', 'B', 'A'])).toBe(1);
    expect(cohenKappa(['A', 'B'], ['B', 'A'])).toBe(-1);
  });

  it('is 0 when agreement is exactly what chance predicts', () => {
    const a = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 'A' : 'B'));
    const b = Array.from({ length: 100 }, (_, i) => (i % 4 < 2 ? 'A' : 'B'));
    expect(cohenKappa(a, b)).toBe(0);
  });

  it('is 0.5 for the reference README example', () => {
    expect(cohenKappa(['A', 'B', 'A', 'B'], ['A', 'A', 'A', 'B'])).toBe(0.5);
  });

  it('is 1, not NaN, when both annotators used one and the same label throughout', () => {
    expect(cohenKappa(['X', 'X', 'X', 'X', 'X'], ['X', 'X', 'X', 'X', 'X'])).toBe(1);
  });

  it('is 0, not NaN, when each annotator used one label and the labels differ', () => {
    expect(cohenKappa(['X', 'X'], ['Y', 'Y'])).toBe(0);
  });

  it('accepts numeric and boolean labels', () => {
    expect(cohenKappa([1, 2, 1, 2], [1, 1, 1, 2])).toBe(0.5);
    expect(cohenKappa([true, false], [false, true])).toBe(-1);
  });

  it('throws MetricInputError for sequences of different lengths, naming both lengths', () => {
    expect(() => cohenKappa(['A', 'B'], ['A'])).toThrow(MetricInputError);
    expect(() => cohenKappa(['A', 'B'], ['A'])).toThrow(/a has 2 labels and b has 1/);
  });

  it('throws MetricInputError for empty input', () => {
    expect(() => cohenKappa([], [])).toThrow(MetricInputError);
  });

  it('throws MetricInputError for a missing label, pointing to krippendorffAlpha', () => {
    expect(() => cohenKappa(['A', null as unknown as string], ['A', 'B'])).toThrow(/a\[1\] is null.*krippendorffAlpha/);
    expect(() => cohenKappa(['A', 'B'], ['A', undefined as unknown as string])).toThrow(/b\[1\] is undefined/);
  });

  it('is symmetric, at most 1, and never NaN', () => {
    const labels = fc.integer({ min: 1, max: 40 }).chain((n) =>
      fc.tuple(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: n, maxLength: n }), fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: n, maxLength: n })),
    );
    fc.assert(
      fc.property(labels, ([a, b]) => {
        const kappa = cohenKappa(a, b);
        expect(Number.isFinite(kappa)).toBe(true);
        expect(kappa).toBeLessThanOrEqual(1);
        expect(kappa).toBeGreaterThanOrEqual(-1);
        expect(cohenKappa(b, a)).toBeCloseTo(kappa, 12);
      }),
    );
  });
});

describe('krippendorffAlpha against Krippendorff (2011), "Computing Krippendorff\'s Alpha-Reliability"', () => {
  const _ = null;
  // Section C: nominal data, four observers, twelve units, missing values.
  const fourCoders = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];

  it('gives the paper\'s nominal alpha 0.743 for four coders, twelve units and missing values', () => {
    const alpha = krippendorffAlpha(fourCoders);
    expect(alpha).toBeCloseTo(0.743, 3);
    expect(alpha).toBeCloseTo(113 / 152, 12); // the exact value behind the paper's rounded 0.743
  });

  it('gives the same alpha when missing values are spelled "*" and passed as the missing marker', () => {
    const starred = fourCoders.map((row) => row.map((value) => (value === null ? '*' : String(value))));
    expect(krippendorffAlpha(starred, '*')).toBeCloseTo(113 / 152, 12);
  });

  it('drops unit 12, which only one coder rated: alpha is unchanged without it', () => {
    expect(krippendorffAlpha(fourCoders.map((row) => row.slice(0, 11)))).toBeCloseTo(113 / 152, 12);
  });

  it('gives the paper\'s 0.095 for binary data, two coders, ten units', () => {
    const alpha = krippendorffAlpha([
      [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
      [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    ]);
    expect(alpha).toBeCloseTo(0.095, 3);
    expect(alpha).toBeCloseTo(2 / 21, 12); // 1 − 19·8 / (2·14·6)
  });

  it('gives the paper\'s 0.692 for nominal data, two coders, twelve units', () => {
    const alpha = krippendorffAlpha([[...'aabbdcccedda'], [...'babbbccceddd']]);
    expect(alpha).toBeCloseTo(0.692, 3);
    expect(alpha).toBeCloseTo(1 - (23 * 6) / 448, 12);
  });
});

describe('krippendorffAlpha on hand-computed and degenerate inputs', () => {
  it('is 1 for perfect agreement with two or three coders', () => {
    expect(krippendorffAlpha([['A', 'B', 'C'], ['A', 'B', 'C']])).toBe(1);
    expect(krippendorffAlpha([['A', 'B', 'C'], ['A', 'B', 'C'], ['A', 'B', 'C']])).toBe(1);
  });

  it('is 1, not NaN, when every paired value is in one category', () => {
    expect(krippendorffAlpha([['X', 'X', 'X'], ['X', 'X', 'X']])).toBe(1);
  });

  it('is -2/3 for systematic disagreement on three units', () => {
    // o_AB = o_BA = 3, n = 6, n_A = n_B = 3: alpha = 1 − 5·6 / (36 − 18).
    expect(krippendorffAlpha([['A', 'A', 'A'], ['B', 'B', 'B']])).toBeCloseTo(-2 / 3, 12);
  });

  it('is 1 when coders agree wherever both rated', () => {
    expect(krippendorffAlpha([['A', 'B', null, 'D'], ['A', 'B', 'C', null]])).toBe(1);
  });

  it('uses the coincidence-matrix weighting 1/(m_u − 1), not the reference implementation\'s simplified formula', () => {
    // Units: AAA (o_AA += 3), BBA (o_BB += 1, o_AB = o_BA += 1), BB (o_BB += 2), CCC (o_CC += 3);
    // n_A = 4, n_B = 4, n_C = 3, n = 11: alpha = 1 − 10·2 / (121 − 41) = 0.75 (the reference says 0.725).
    expect(krippendorffAlpha([['A', 'B', null, 'C'], ['A', 'B', 'B', 'C'], ['A', 'A', 'B', 'C']])).toBeCloseTo(0.75, 12);
  });

  it('treats undefined and holes as missing, and NaN as missing when it is the marker', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holey = [['A', , 'B'], ['A', 'C', 'B']] as (string | undefined)[][];
    expect(krippendorffAlpha(holey)).toBe(1);
    expect(krippendorffAlpha([[1, Number.NaN, 2], [1, 3, 2]], Number.NaN)).toBe(1);
  });

  it('throws MetricInputError for fewer than two coders', () => {
    expect(() => krippendorffAlpha([['A', 'B']])).toThrow(MetricInputError);
    expect(() => krippendorffAlpha([])).toThrow(/got 0 annotator row/);
  });

  it('throws MetricInputError for rows of different lengths, naming the row', () => {
    expect(() => krippendorffAlpha([['A', 'B'], ['A', 'B'], ['A']])).toThrow(/row 2 has 1 values but row 0 has 2/);
  });

  it('throws InsufficientDataError for empty rows instead of returning NaN', () => {
    expect(() => krippendorffAlpha([[], []])).toThrow(InsufficientDataError);
  });

  it('throws InsufficientDataError when no unit has two values', () => {
    expect(() => krippendorffAlpha([['A', null], [null, 'B']])).toThrow(InsufficientDataError);
  });

  it('is at most 1, never NaN, and does not depend on the order of coders or units', () => {
    const data = fc.tuple(fc.integer({ min: 2, max: 4 }), fc.integer({ min: 1, max: 12 })).chain(([coders, units]) =>
      fc.array(fc.array(fc.constantFrom('a', 'b', 'c', null), { minLength: units, maxLength: units }), {
        minLength: coders,
        maxLength: coders,
      }),
    );
    fc.assert(
      fc.property(data, (rows) => {
        let alpha: number;
        try {
          alpha = krippendorffAlpha(rows);
        } catch (error) {
          expect(error).toBeInstanceOf(InsufficientDataError);
          return;
        }
        expect(Number.isFinite(alpha)).toBe(true);
        expect(alpha).toBeLessThanOrEqual(1 + 1e-12);
        expect(krippendorffAlpha([...rows].reverse())).toBeCloseTo(alpha, 12);
        expect(krippendorffAlpha(rows.map((row) => [...row].reverse()))).toBeCloseTo(alpha, 12);
      }),
    );
  });
});
