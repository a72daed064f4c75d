import type { TimeInterval } from '../time/time-interval.js';
import { compareIds } from './ordering.js';
import type { IntervalKey } from './read-page.js';

/** A candidate of a window read: a row of the `.annot` interval index, where it sorts and what it is. */
export interface WindowCandidate {
  /** The start in float seconds: the index's order (monotone in the exact start). */
  readonly startF: number;
  /** The row's rowid, which finds its text or its columns. */
  readonly seq: number;
  readonly interval: TimeInterval;
}

/** One duration class's candidates in (startF, seq) order, read as far as the merge needs. */
export interface CandidateStream {
  head(): WindowCandidate | null;
  advance(): void;
}

/**
 * The first `count` hits of a window read after the key `after`, in the stores' order (start,
 * end, id), merged from one stream per duration class. The streams are ordered by float start,
 * which never contradicts the exact order (v / r is correctly rounded, hence monotone), so the
 * merge takes one run of equal float starts at a time, keeps the hits (`keep`, the exact
 * relation; past `after`, exactly) and sorts only within the run. `idOf` gives a row's id, asked
 * only to break exact ties.
 *
 * It may return more than `count` (the run it stopped in is whole); it reads each stream only
 * up to the run after the last hit it needs, so a page costs O(count + the candidates it skips).
 */
export function mergeWindowHits(
  streams: readonly CandidateStream[],
  keep: (interval: TimeInterval) => boolean,
  after: IntervalKey | null,
  count: number,
  idOf: (seq: number) => string,
): WindowCandidate[] {
  const hits: WindowCandidate[] = [];
  const run: WindowCandidate[] = [];
  while (hits.length < count) {
    let min = Number.POSITIVE_INFINITY;
    for (const stream of streams) {
      const head = stream.head();
      if (head !== null && head.startF < min) min = head.startF;
    }
    if (min === Number.POSITIVE_INFINITY) break;
    run.length = 0;
    for (const stream of streams) {
      for (let head = stream.head(); head !== null && head.startF === min; stream.advance(), head = stream.head()) {
        if (keep(head.interval) && (after === null || compareWithKey(head, after, idOf) > 0)) run.push(head);
      }
    }
    if (run.length > 1) run.sort((x, y) => x.interval.start.compare(y.interval.start) || x.interval.end.compare(y.interval.end) || compareIds(idOf(x.seq), idOf(y.seq)));
    for (const hit of run) hits.push(hit);
  }
  return hits;
}

function compareWithKey(candidate: WindowCandidate, key: IntervalKey, idOf: (seq: number) => string): number {
  return candidate.interval.start.compare(key.start) || candidate.interval.end.compare(key.end) || compareIds(idOf(candidate.seq), key.id);
}
