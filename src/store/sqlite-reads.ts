import type { Annotation } from '../model/annotation.js';
import type { JsonObject } from '../json/json-body.js';
import type { OpLogEntry } from '../oplog/op-log-entry.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { compareIds } from './ordering.js';
import { decode, type OpRow, type Row } from './sqlite-rows.js';
import type { CandidateRange } from './sqlite-interval-index.js';
import type Database from 'better-sqlite3';
import type { SqliteStatements } from './sqlite-statements.js';

// The read side of the `.annot` store: window queries over the interval index and op-log rows.

interface Hit {
  annotation: Annotation;
  interval: TimeInterval;
  startF: number;
  endF: number;
}

/**
 * compareByInterval's order, cheaper: different float seconds already decide the exact order (the
 * rounding is monotone), so the exact (BigInt, across rates) comparison runs only on float ties.
 */
function compareHits(x: Hit, y: Hit): number {
  return (
    (x.startF < y.startF ? -1 : x.startF > y.startF ? 1 : x.interval.start.compare(y.interval.start)) ||
    (x.endF < y.endF ? -1 : x.endF > y.endF ? 1 : x.interval.end.compare(y.interval.end)) ||
    compareIds(x.annotation.id, y.annotation.id)
  );
}

/**
 * The annotations of the candidate ranges (on `tier` when given) whose exact interval passes
 * `keep`, in query order. The index only pre-filters; `keep` decides (relation-filter.ts).
 */
export function selectWindow(stmt: SqliteStatements, ranges: readonly CandidateRange[], keep: (interval: TimeInterval) => boolean, tier?: string): Annotation[] {
  const hits: Hit[] = [];
  for (const row of candidateRows<Row>(ranges, tier, stmt.candidates, stmt.tierCandidates)) {
    const interval = new TimeInterval(new RationalTime(row[2] as number, row[3] as number), new RationalTime(row[4] as number, row[5] as number));
    if (keep(interval)) hits.push({ annotation: decode(row, interval), interval, startF: (row[2] as number) / (row[3] as number), endF: (row[4] as number) / (row[5] as number) });
  }
  return hits.sort(compareHits).map((hit) => hit.annotation);
}

/**
 * The rows a candidate statement gives for each range, in range order: `anyTier` takes the range's
 * five bounds, `onTier` the same and the tier.
 */
export function candidateRows<R>(ranges: readonly CandidateRange[], tier: string | undefined, anyTier: Database.Statement, onTier: Database.Statement): R[] {
  const rows: R[] = [];
  for (const r of ranges) {
    const batch = (tier === undefined
      ? anyTier.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi)
      : onTier.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi, tier)) as R[];
    for (const row of batch) rows.push(row);
  }
  return rows;
}

export function decodeOpRow([clock, kind, target_id, payload, actor, received_at]: OpRow): OpLogEntry {
  return {
    clock,
    kind: kind as OpLogEntry['kind'],
    target_id,
    payload: JSON.parse(payload) as JsonObject,
    actor,
    received_at: JSON.parse(received_at) as OpLogEntry['received_at'],
  };
}
