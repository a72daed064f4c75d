import type Database from 'better-sqlite3';
import { PAGE } from './sqlite-statements.js';
import type { KeyRow } from './sqlite-rows.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';

/** One duration class's rows in (start_f, seq) order, fetched a page at a time after the last row seen. */
class ClassCursor {
  private rows: KeyRow[] = [];
  private index = 0;
  private done = false;
  private afterStart = -Number.MAX_VALUE;
  private afterSeq = -1;

  constructor(
    private readonly statement: Database.Statement,
    private readonly durClass: number,
  ) {}

  head(): KeyRow | null {
    if (this.index < this.rows.length) return this.rows[this.index];
    if (this.done) return null;
    this.rows = this.statement.all(this.durClass, this.afterStart, this.afterSeq, PAGE) as KeyRow[];
    this.index = 0;
    if (this.rows.length < PAGE) this.done = true;
    if (this.rows.length === 0) return null;
    const last = this.rows[this.rows.length - 1];
    this.afterStart = last[0];
    this.afterSeq = last[1];
    return this.rows[0];
  }

  next(): KeyRow | null {
    this.index++;
    return this.head();
  }
}

/** Distinct intervals by value, ordered by start then end: a merge of one (start_f, seq)-keyed page stream per duration class. */
export async function* distinctIntervals(keyPage: Database.Statement, classes: readonly number[], idle: () => Promise<void>): AsyncIterable<TimeInterval> {
  const cursors = classes.map((c) => new ClassCursor(keyPage, c));
  for (;;) {
    await idle();
    let min: number | null = null;
    for (const cursor of cursors) {
      const head = cursor.head();
      if (head !== null && (min === null || head[0] < min)) min = head[0];
    }
    if (min === null) return;
    // Rows with one float start may still differ in exact start: order that run exactly.
    const run: { interval: TimeInterval; seq: number }[] = [];
    for (const cursor of cursors) {
      for (let head = cursor.head(); head !== null && head[0] === min; head = cursor.next()) {
        run.push({ interval: new TimeInterval(new RationalTime(head[2], head[3]), new RationalTime(head[4], head[5])), seq: head[1] });
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
