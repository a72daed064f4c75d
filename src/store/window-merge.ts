import { compareTicks, RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { compareIds } from './ordering.js';
import type { IntervalKey } from './read-page.js';

/** Where a candidate's wire JSON is kept between reads, as UTF-8 bytes (the warm index's text column). */
export interface TextHolder {
  bytes(at: number): Buffer | undefined;
  /** Keeps the text's bytes at `at` and gives them. */
  remember(at: number, text: string): Buffer;
}

/**
 * A candidate of a window read: a row of the `.annot` interval index, where it sorts and what it
 * is. The times stay ticks until someone asks for the interval: the common checks run on the
 * numbers (intersectsTicks), so a window of a hundred rows allocates a hundred small objects.
 */
export class WindowCandidate {
  private made: TimeInterval | null = null;

  constructor(
    /** The start in float seconds: the index's order (monotone in the exact start). */
    readonly startF: number,
    /** The row's rowid, which finds its columns. */
    readonly seq: number,
    readonly startV: number,
    readonly startR: number,
    readonly endV: number,
    readonly endR: number,
    /** Where its text is kept, and at which position, when something keeps it. */
    readonly holder: TextHolder | null = null,
    readonly at = -1,
  ) {}

  get interval(): TimeInterval {
    this.made ??= new TimeInterval(new RationalTime(this.startV, this.startR), new RationalTime(this.endV, this.endR));
    return this.made;
  }
}

/** One duration class's candidates in (startF, seq) order, read as far as the merge needs. */
export interface CandidateStream {
  head(): WindowCandidate | null;
  advance(): void;
}

/**
 * The first `count` hits of a window read after the key `after`, in the stores' order (start,
 * end, id), merged from one stream per duration class. The streams are ordered by float start,
 * which never contradicts the exact order (v / r is correctly rounded, hence monotone), so
 * candidates come out in exact order except within a run of equal float starts, which is sorted
 * exactly. `keep` is the exact relation; `idOf` gives a row's id, asked only to break exact ties
 * and to place a candidate that starts where `after` does.
 *
 * It may return more than `count` (a run is taken whole); it reads each stream only up to the
 * candidate after the last hit it needs, so a page costs O(count + the candidates it skips).
 */
export function mergeWindowHits(
  streams: readonly CandidateStream[],
  keep: (candidate: WindowCandidate) => boolean,
  after: IntervalKey | null,
  count: number,
  idOf: (seq: number) => string,
): WindowCandidate[] {
  const hits: WindowCandidate[] = [];
  // Rows after the key start at or after it; only those starting at its very float can be at or before it.
  const afterStartF = after === null ? Number.NaN : after.start.v / after.start.r;
  const take = (candidate: WindowCandidate): void => {
    if (candidate.startF === afterStartF && compareWithKey(candidate, after as IntervalKey, idOf) <= 0) return;
    if (keep(candidate)) hits.push(candidate);
  };
  while (hits.length < count) {
    const first = smallestHead(streams);
    if (first === null) break;
    const candidate = first.head() as WindowCandidate;
    first.advance();
    if (!startsRun(streams, candidate.startF)) {
      take(candidate);
      continue;
    }
    // Equal float starts may still differ in exact start (and tie on end): order the run exactly.
    const run = [candidate];
    for (const stream of streams) {
      for (let head = stream.head(); head !== null && head.startF === candidate.startF; stream.advance(), head = stream.head()) run.push(head);
    }
    run.sort((x, y) => compareTicks(x.startV, x.startR, y.startV, y.startR) || compareTicks(x.endV, x.endR, y.endV, y.endR) || compareIds(idOf(x.seq), idOf(y.seq)));
    for (const member of run) take(member);
  }
  return hits;
}

/** The stream whose head starts first, or null when every stream is done. */
function smallestHead(streams: readonly CandidateStream[]): CandidateStream | null {
  let best: CandidateStream | null = null;
  let min = Number.POSITIVE_INFINITY;
  for (const stream of streams) {
    const head = stream.head();
    if (head !== null && head.startF < min) {
      min = head.startF;
      best = stream;
    }
  }
  return best;
}

function startsRun(streams: readonly CandidateStream[], startF: number): boolean {
  for (const stream of streams) if (stream.head()?.startF === startF) return true;
  return false;
}

function compareWithKey(candidate: WindowCandidate, key: IntervalKey, idOf: (seq: number) => string): number {
  return compareTicks(candidate.startV, candidate.startR, key.start.v, key.start.r) ||
    compareTicks(candidate.endV, candidate.endR, key.end.v, key.end.r) ||
    compareIds(idOf(candidate.seq), key.id);
}
