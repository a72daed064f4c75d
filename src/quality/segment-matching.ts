import type { TimeInterval } from '../time/time-interval.js';

/** A segment to match: its interval and anything else the caller carries along. */
export interface Segment {
  readonly interval: TimeInterval;
}

export interface SegmentMatching<A extends Segment, B extends Segment> {
  /** Pairs in the order of `a`. */
  readonly matched: ReadonlyArray<readonly [A, B]>;
  /** Segments of `a` left without a partner (in `a` but not in `b`). */
  readonly missing: readonly A[];
  /** Segments of `b` left without a partner (in `b` but not in `a`). */
  readonly extra: readonly B[];
}

/**
 * One-to-one matching of two lists of segments by maximal overlap.
 *
 * Every pair (x from a, y from b) whose intervals share a positive length is a candidate, and so
 * is a pair of points at the same instant (a point overlaps nothing else). Candidates are taken
 * greedily from the largest overlap down; a pair is kept when neither side is matched yet. Ties
 * go to the pair whose `a` segment comes first, then whose `b` segment comes first, so the result
 * never depends on anything but the two lists. Greedy by overlap is what annotators mean by "the
 * same segment": of two segments that both touch one of ours, the one sharing more time with it
 * is its counterpart, and the other is then free to match its own.
 *
 * The candidates are found with a sweep over starts, so the cost is O(n log n + k) for k
 * overlapping pairs, not O(n·m).
 */
export function matchByMaximalOverlap<A extends Segment, B extends Segment>(a: readonly A[], b: readonly B[]): SegmentMatching<A, B> {
  const candidates: Array<{ i: number; j: number; overlap: number }> = [];
  const aOrder = a.map((_, i) => i).sort((x, y) => startOf(a[x]) - startOf(a[y]));
  const bOrder = b.map((_, j) => j).sort((x, y) => startOf(b[x]) - startOf(b[y]));
  let first = 0;
  for (const i of aOrder) {
    const x = a[i].interval;
    const xs = x.start.toSeconds();
    const xe = x.end.toSeconds();
    // a is visited by start, so a b segment ending before this x starts overlaps no later x either.
    while (first < bOrder.length && endOf(b[bOrder[first]]) < xs) first++;
    for (let k = first; k < bOrder.length; k++) {
      const j = bOrder[k];
      const y = b[j].interval;
      const ys = y.start.toSeconds();
      if (ys > xe) break;
      const overlap = overlapOf(x, y);
      if (overlap !== null) candidates.push({ i, j, overlap });
    }
  }
  candidates.sort((p, q) => q.overlap - p.overlap || p.i - q.i || p.j - q.j);
  const partnerOfA = new Map<number, number>();
  const takenB = new Set<number>();
  for (const { i, j } of candidates) {
    if (partnerOfA.has(i) || takenB.has(j)) continue;
    partnerOfA.set(i, j);
    takenB.add(j);
  }
  const matched: Array<readonly [A, B]> = [];
  const missing: A[] = [];
  a.forEach((x, i) => {
    const j = partnerOfA.get(i);
    if (j === undefined) missing.push(x);
    else matched.push([x, b[j]]);
  });
  const extra = b.filter((_, j) => !takenB.has(j));
  return { matched, missing, extra };
}

function startOf(segment: Segment): number {
  return segment.interval.start.toSeconds();
}

function endOf(segment: Segment): number {
  return segment.interval.end.toSeconds();
}

/** The shared length in seconds, Infinity for two equal points (they are the same event), null for none. */
function overlapOf(x: TimeInterval, y: TimeInterval): number | null {
  const xPoint = x.start.equals(x.end);
  const yPoint = y.start.equals(y.end);
  if (xPoint || yPoint) return xPoint && yPoint && x.start.equals(y.start) ? Number.POSITIVE_INFINITY : null;
  const start = x.start.gt(y.start) ? x.start : y.start;
  const end = x.end.lt(y.end) ? x.end : y.end;
  if (!start.lt(end)) return null;
  return end.toSeconds() - start.toSeconds();
}
