import { InsufficientDataError, MetricInputError } from './errors.js';

/**
 * A category label. Labels are compared with SameValueZero (as Map keys are), so use
 * primitives: two objects with equal contents are two different labels.
 */
export type Label = string | number | boolean | bigint;

/**
 * Cohen's kappa for two annotators who labelled the same items, position by position:
 * `(p_o - p_e) / (1 - p_e)` with `p_o` the observed agreement and `p_e` the agreement expected
 * from each annotator's own label frequencies (Cohen 1960). Computed from integer counts,
 * `(n·agreed - Σ_c a_c·b_c) / (n² - Σ_c a_c·b_c)`, so no rounding creeps in before the division.
 *
 * Degenerate inputs:
 * - different lengths, or no items: MetricInputError (kappa is about items rated by both);
 * - a null or undefined label: MetricInputError (kappa has no notion of a missing rating; drop
 *   the item, or use krippendorffAlpha, which handles missing values);
 * - both annotators used one and the same label for every item (`p_e = 1`, formally 0/0):
 *   1, because they agree on everything and nothing was observed that disagrees. This is the
 *   reference implementation's convention and krippendorffAlpha follows it.
 */
export function cohenKappa(a: readonly Label[], b: readonly Label[]): number {
  if (a.length !== b.length) {
    throw new MetricInputError(
      `cohenKappa: a has ${a.length} labels and b has ${b.length}; position i must be the same item rated by both annotators`,
    );
  }
  if (a.length === 0) throw new MetricInputError('cohenKappa: no items; give at least one item rated by both annotators');
  const countsA = new Map<Label, number>();
  const countsB = new Map<Label, number>();
  let agreed = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === null || x === undefined || y === null || y === undefined) {
      const side = x === null || x === undefined ? 'a' : 'b';
      throw new MetricInputError(
        `cohenKappa: ${side}[${i}] is ${String(side === 'a' ? x : y)}; kappa has no missing ratings, drop the item or use krippendorffAlpha`,
      );
    }
    countsA.set(x, (countsA.get(x) ?? 0) + 1);
    countsB.set(y, (countsB.get(y) ?? 0) + 1);
    if (sameValueZero(x, y)) agreed++;
  }
  const n = a.length;
  let chanceProducts = 0;
  for (const [label, count] of countsA) chanceProducts += count * (countsB.get(label) ?? 0);
  const denominator = n * n - chanceProducts;
  if (denominator === 0) return 1;
  return (n * agreed - chanceProducts) / denominator;
}

/**
 * Krippendorff's alpha for nominal data (Krippendorff 2011, "Computing Krippendorff's
 * Alpha-Reliability"), the textbook estimator built on the coincidence matrix.
 *
 * `rows` holds one array per annotator (coder), all of the same length, position u being unit
 * u. A value is missing when it is null, undefined (a hole in the array) or equal (SameValueZero)
 * to `missing`, which lets data that spells "no value" as `'*'` or `NaN` say so.
 *
 * For each unit with `m_u >= 2` present values, every ordered pair of its values (`i != j`) adds
 * 1/(m_u - 1) to the coincidence o_ck of their categories; units with fewer than two values
 * cannot be paired and are dropped, their values included. With n_c = Σ_k o_ck and n = Σ_c n_c:
 *
 * ```
 *     alpha = 1 - D_o / D_e = 1 - (n - 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c·n_k
 * ```
 *
 * Degenerate inputs:
 * - fewer than two rows, or rows of different lengths: MetricInputError;
 * - no unit with two values to pair (including no units at all): InsufficientDataError;
 * - every paired value in one category (D_e = 0, formally 0/0): 1, as cohenKappa does; the
 *   observed disagreement is zero, and a caller who needs variation must check for it.
 */
export function krippendorffAlpha<T extends Label>(
  rows: readonly (readonly (T | null | undefined)[])[],
  missing: T | null = null,
): number {
  if (rows.length < 2) {
    throw new MetricInputError(`krippendorffAlpha: got ${rows.length} annotator row(s); give one row per annotator, at least 2`);
  }
  const units = rows[0].length;
  rows.forEach((row, i) => {
    if (row.length !== units) {
      throw new MetricInputError(
        `krippendorffAlpha: row ${i} has ${row.length} values but row 0 has ${units}; every annotator needs one value per unit (use ${String(missing)} for a missing one)`,
      );
    }
  });

  const coincidence = coincidenceMatrix(rows, units, missing);
  const marginals = new Map<T, number>();
  let n = 0;
  for (const [c, row] of coincidence) {
    let total = 0;
    for (const count of row.values()) total += count;
    marginals.set(c, total);
    n += total;
  }
  if (n === 0) {
    throw new InsufficientDataError(
      'krippendorffAlpha: no unit has values from two annotators, so nothing can be compared; alpha is undefined',
    );
  }

  let observedDisagreement = 0;
  for (const [c, row] of coincidence) {
    for (const [k, count] of row) if (!sameValueZero(c, k)) observedDisagreement += count;
  }
  let sumOfSquares = 0;
  for (const total of marginals.values()) sumOfSquares += total * total;
  const expectedPairs = n * n - sumOfSquares; // Σ_{c≠k} n_c·n_k
  if (expectedPairs === 0) return 1;
  return 1 - ((n - 1) * observedDisagreement) / expectedPairs;
}

/** o_ck as nested maps; only units with two or more present values contribute. */
function coincidenceMatrix<T extends Label>(
  rows: readonly (readonly (T | null | undefined)[])[],
  units: number,
  missing: T | null,
): Map<T, Map<T, number>> {
  const matrix = new Map<T, Map<T, number>>();
  for (let u = 0; u < units; u++) {
    const counts = new Map<T, number>();
    let m = 0;
    for (const row of rows) {
      const value = row[u];
      if (value === undefined || value === null || sameValueZero(value, missing)) continue;
      counts.set(value, (counts.get(value) ?? 0) + 1);
      m++;
    }
    if (m < 2) continue;
    for (const [c, nc] of counts) {
      let row = matrix.get(c);
      if (row === undefined) matrix.set(c, (row = new Map<T, number>()));
      for (const [k, nk] of counts) {
        const pairs = sameValueZero(c, k) ? nc * (nc - 1) : nc * nk;
        if (pairs > 0) row.set(k, (row.get(k) ?? 0) + pairs / (m - 1));
      }
    }
  }
  return matrix;
}

function sameValueZero(x: unknown, y: unknown): boolean {
  return x === y || (x !== x && y !== y);
}
