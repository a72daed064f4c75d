import { holds, intersects, type AllenRelation } from '../time/allen.js';
import { compareTicks, type RationalTime } from '../time/rational-time.js';
import type { TimeInterval } from '../time/time-interval.js';

/**
 * The exact recheck every store applies to its index's candidates: whether the annotation's
 * interval (left operand) satisfies any of the relations against the query. Stores never
 * decide a match from their index alone (SQLite's R*Tree holds 32-bit floats, PostgreSQL's
 * ranges turn points into empty ranges); this function is the one definition of a hit.
 */
export function matchesRelations(interval: TimeInterval, query: TimeInterval, relations: readonly AllenRelation[]): boolean {
  for (const relation of relations) {
    if (holds(relation, interval, query)) return true;
  }
  return false;
}

/** The recheck for `intersects(q)` and `atTier(tier, q)`: shares time with q, points included. */
export function matchesIntersects(interval: TimeInterval, query: TimeInterval): boolean {
  return intersects(interval, query);
}

/** An interval as ticks over rates, without RationalTime objects. */
export interface TickInterval {
  readonly startV: number;
  readonly startR: number;
  readonly endV: number;
  readonly endR: number;
}

/**
 * matchesIntersects for intervals held as ticks, the same answer (allen.ts `intersects`) with
 * compareTicks: a window read's hot loop checks a hundred candidates without building a time.
 */
export function intersectsTicks(query: TimeInterval): (interval: TickInterval) => boolean {
  const { v: qsv, r: qsr } = query.start;
  const { v: qev, r: qer } = query.end;
  const queryPoint = query.isPoint;
  return ({ startV, startR, endV, endR }) => {
    const point = compareTicks(startV, startR, endV, endR) === 0;
    if (point && queryPoint) return compareTicks(startV, startR, qsv, qsr) === 0;
    if (point) return compareTicks(qsv, qsr, startV, startR) <= 0 && compareTicks(startV, startR, qev, qer) < 0;
    if (queryPoint) return compareTicks(startV, startR, qsv, qsr) <= 0 && compareTicks(qsv, qsr, endV, endR) < 0;
    return compareTicks(startV, startR, qev, qer) < 0 && compareTicks(qsv, qsr, endV, endR) < 0;
  };
}

/**
 * Inclusive bounds that an annotation's start and end must lie within to possibly satisfy a
 * query; `null` is unbounded. They are a hull (looser than the relations), meant for an index
 * pre-filter that matchesRelations then narrows: e.g. `before` gives `end <= q.start`, the exact
 * rule being `end < q.start`.
 */
export interface CandidateBounds {
  /** The least start, or null. */
  readonly startMin: RationalTime | null;
  /** The greatest start, or null. */
  readonly startMax: RationalTime | null;
  /** The least end, or null. */
  readonly endMin: RationalTime | null;
  /** The greatest end, or null. */
  readonly endMax: RationalTime | null;
}

type Bounds = [startMin: RationalTime | null, startMax: RationalTime | null, endMin: RationalTime | null, endMax: RationalTime | null];

/** Per relation, x <relation> q with x the annotation, read off the definitions in allen.ts. */
function relationBounds(relation: AllenRelation, q: TimeInterval): Bounds {
  const { start: s, end: e } = q;
  switch (relation) {
    case 'before': return [null, s, null, s];
    case 'after': return [e, null, e, null];
    case 'meets': return [null, s, s, s];
    case 'met_by': return [e, e, e, null];
    case 'overlaps': return [null, s, s, e];
    case 'overlapped_by': return [s, e, e, null];
    case 'starts': return [s, s, s, e];
    case 'started_by': return [s, s, e, null];
    case 'during': return [s, e, s, e];
    case 'contains': return [null, s, e, null];
    case 'finishes': return [s, e, e, e];
    case 'finished_by': return [null, s, e, e];
    case 'equals': return [s, s, e, e];
  }
  // Reached only for a name outside AllenRelation: let holds() raise its teaching error.
  holds(relation, q, q);
  return [null, null, null, null];
}

/**
 * Bounds for a relation set (their hull), or for `'intersects'`; null when nothing can match
 * (an empty relation set), so callers can skip the index altogether.
 */
export function candidateBounds(query: TimeInterval, relations: readonly AllenRelation[] | 'intersects'): CandidateBounds | null {
  if (relations === 'intersects') {
    return { startMin: null, startMax: query.end, endMin: query.start, endMax: null };
  }
  if (relations.length === 0) return null;
  let hull: Bounds | null = null;
  for (const relation of relations) {
    const b = relationBounds(relation, query);
    hull = hull === null ? b : [
      looser(hull[0], b[0], -1),
      looser(hull[1], b[1], 1),
      looser(hull[2], b[2], -1),
      looser(hull[3], b[3], 1),
    ];
  }
  const [startMin, startMax, endMin, endMax] = hull as Bounds;
  return { startMin, startMax, endMin, endMax };
}

/** The looser of two bounds: the smaller lower bound (direction -1) or the larger upper bound (1). */
function looser(a: RationalTime | null, b: RationalTime | null, direction: -1 | 1): RationalTime | null {
  if (a === null || b === null) return null;
  return a.compare(b) === direction ? a : b;
}
