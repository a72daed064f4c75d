import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { WarmWindowIndex, type WarmRow } from './sqlite-warm-windows.js';

/** Rows per query of a build step. */
const PAGE_ROWS = 256;
/** A build step's time: a request that waits behind a step waits at most about this long. */
const STEP_MS = 3;

/**
 * The warm index (sqlite-warm-windows.ts) built a chunk at a time, in (dur_class, start_f, rowid)
 * order, so that the event loop turns between chunks: a server that starts reading windows keeps
 * answering (from SQLite) while its index is read, where one synchronous read of a 100,000-row
 * file stalled every request for a third of a second. Only rows that existed when the build
 * started are read (rowid <= maxSeq); whatever changes meanwhile is applied afterwards, as for
 * a built index (SqlitePagedReads.catchUp).
 */
export class WarmIndexBuild {
  readonly index = new WarmWindowIndex();
  private classAt = 0;
  private startF = -Number.MAX_VALUE;
  private seq = -1;

  /** `classes`: the duration classes present when the build starts; `maxSeq`: the largest rowid then. */
  constructor(
    private readonly classes: readonly number[],
    private readonly maxSeq: number,
  ) {}

  /** Reads pages into the index for about STEP_MS; true once every class has been read. */
  step(page: Database.Statement): boolean {
    const until = performance.now() + STEP_MS;
    while (this.classAt < this.classes.length && performance.now() < until) {
      const rows = page.all(this.classes[this.classAt], this.startF, this.seq, this.maxSeq, PAGE_ROWS) as WarmRow[];
      for (const row of rows) this.index.add(row);
      if (rows.length < PAGE_ROWS) {
        this.classAt++;
        this.startF = -Number.MAX_VALUE;
        this.seq = -1;
      } else {
        const last = rows[rows.length - 1];
        this.startF = last[1];
        this.seq = last[2];
      }
    }
    if (this.classAt < this.classes.length) return false;
    // Rows above maxSeq were inserted after the start: the catch-up reads them.
    this.index.maxSeq = Math.max(this.index.maxSeq, this.maxSeq);
    return true;
  }
}
