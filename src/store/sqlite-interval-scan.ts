import type Database from 'better-sqlite3';
import { PAGE } from './sqlite-statements.js';
import type { KeyRow } from './sqlite-rows.js';
import type { TimeInterval } from '../time/time-interval.js';
import { WindowCandidate, type CandidateStream } from './window-merge.js';

/** Fetches up to `count` rows of one class after (startF, seq), in (start_f, seq) order. */
export type ClassFetch = (afterStartF: number, afterSeq: number, count: number) => KeyRow[];

/**
 * One duration class's rows in (start_f, seq) order, fetched a batch at a time after the last
 * row seen (a keyset on the index `(dur_class, start_f)`, whose entries end with the rowid), so a
 * reader that stops early has read one batch past where it stopped, never the whole class.
 */
export class ClassRowStream implements CandidateStream {
  private rows: KeyRow[] = [];
  private index = 0;
  private done = false;
  private current: WindowCandidate | null = null;
  private afterStart: number;
  private afterSeq = -1;

  /** `fromStartF`: the smallest start the stream yields; `batch`: the size of its first fetch (later ones are PAGE). */
  constructor(
    private readonly fetch: ClassFetch,
    fromStartF: number,
    private batch: number,
  ) {
    this.afterStart = fromStartF;
  }

  head(): WindowCandidate | null {
    if (this.current !== null) return this.current;
    if (this.index >= this.rows.length) {
      if (this.done) return null;
      this.rows = this.fetch(this.afterStart, this.afterSeq, this.batch);
      this.index = 0;
      if (this.rows.length < this.batch) this.done = true;
      this.batch = PAGE;
      if (this.rows.length === 0) return null;
      const last = this.rows[this.rows.length - 1];
      this.afterStart = last[0];
      this.afterSeq = last[1];
    }
    const row = this.rows[this.index];
    this.current = new WindowCandidate(row[0], row[1], row[2], row[3], row[4], row[5]);
    return this.current;
  }

  advance(): void {
    this.current = null;
    this.index++;
  }
}

/** Distinct intervals by value, ordered by start then end: a merge of one (start_f, seq)-keyed stream per duration class. */
export async function* distinctIntervals(keyPage: Database.Statement, classes: readonly number[], idle: () => Promise<void>): AsyncIterable<TimeInterval> {
  const streams = classes.map((c) => new ClassRowStream((afterStart, afterSeq, count) => keyPage.all(c, afterStart, afterSeq, count) as KeyRow[], -Number.MAX_VALUE, PAGE));
  for (;;) {
    await idle();
    let min: number | null = null;
    for (const stream of streams) {
      const head = stream.head();
      if (head !== null && (min === null || head.startF < min)) min = head.startF;
    }
    if (min === null) return;
    // Rows with one float start may still differ in exact start: order that run exactly.
    const run: { interval: TimeInterval; seq: number }[] = [];
    for (const stream of streams) {
      for (let head = stream.head(); head !== null && head.startF === min; stream.advance(), head = stream.head()) {
        run.push({ interval: head.interval, seq: head.seq });
      }
    }
    run.sort((a, b) => a.interval.start.compare(b.interval.start) || a.interval.end.compare(b.interval.end) || a.seq - b.seq);
    let previous: TimeInterval | null = null;
    for (const { interval } of run) {
      if (previous !== null && previous.equals(interval)) continue;
      previous = interval;
      yield interval;
    }
  }
}
