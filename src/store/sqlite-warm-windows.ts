import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import type { CandidateRange } from './sqlite-interval-index.js';
import type { CandidateStream, WindowCandidate } from './window-merge.js';

/** An interval row as the warm index holds it: `[dur_class, start_f, seq, start_v, start_r, end_v, end_r, tier]`. */
export type WarmRow = [durClass: number, startF: number, seq: number, startV: number, startR: number, endV: number, endR: number, tier: string];

/** The columns a WarmRow is selected as. */
export const WARM_SELECT = 'dur_class, start_f, seq, start_v, start_r, end_v, end_r, tier';

/** Where a row sat in the index before a change: enough to find it again. */
export interface WarmPlace {
  readonly durClass: number;
  readonly startF: number;
}

const COLUMNS = 7;
const [START_F, SEQ, START_V, START_R, END_V, END_R, TIER] = [0, 1, 2, 3, 4, 5, 6];

/**
 * One duration class's rows in (start_f, seq) order, as columns of numbers (times are safe
 * integers, exact in a double): about 60 bytes a row, so a million rows fit in 60 MB.
 */
class ClassColumns {
  length = 0;
  private columns: Float64Array[] = Array.from({ length: COLUMNS }, () => new Float64Array(16));

  get capacity(): number {
    return this.columns[0].length;
  }

  at(column: number, i: number): number {
    return this.columns[column][i];
  }

  /** The first position whose (start_f, seq) is at or after the given pair. */
  lowerBound(startF: number, seq: number): number {
    const starts = this.columns[START_F];
    const seqs = this.columns[SEQ];
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < startF || (starts[mid] === startF && seqs[mid] < seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(values: readonly number[]): void {
    if (this.length === this.capacity) this.grow();
    const at = this.lowerBound(values[START_F], values[SEQ]);
    for (let c = 0; c < COLUMNS; c++) {
      const column = this.columns[c];
      column.copyWithin(at + 1, at, this.length);
      column[at] = values[c];
    }
    this.length++;
  }

  /** Removes the row (startF, seq); false when it is not here. */
  remove(startF: number, seq: number): boolean {
    const at = this.lowerBound(startF, seq);
    if (at >= this.length || this.columns[SEQ][at] !== seq) return false;
    for (const column of this.columns) column.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }

  private grow(): void {
    this.columns = this.columns.map((column) => {
      const bigger = new Float64Array(column.length * 2);
      bigger.set(column);
      return bigger;
    });
  }
}

/**
 * The `.annot` interval index held in memory, for a store that answers window reads over and
 * over (a server): the same (dur_class, start_f, rowid) order as the SQLite index, read once, then
 * kept in step with the store's own writes (`change` and `add`, applied by the store before its
 * next read) and dropped by the store when another connection commits. Its streams feed the same
 * merge as the SQL ones (window-merge.ts), so both give the same hits in the same order; this one
 * only skips better-sqlite3's cost per row (about a microsecond, most of a window's time).
 */
export class WarmWindowIndex {
  private readonly classes = new Map<number, ClassColumns>();
  private readonly tierIds = new Map<string, number>();
  private rows = 0;
  /** The largest rowid the index has seen: rows above it were inserted since. */
  maxSeq = 0;

  get size(): number {
    return this.rows;
  }

  static build(rows: Iterable<WarmRow>): WarmWindowIndex {
    const index = new WarmWindowIndex();
    for (const row of rows) index.add(row);
    return index;
  }

  add(row: WarmRow): void {
    let columns = this.classes.get(row[0]);
    if (columns === undefined) {
      columns = new ClassColumns();
      this.classes.set(row[0], columns);
    }
    columns.insert([row[1], row[2], row[3], row[4], row[5], row[6], this.tierId(row[7])]);
    this.rows++;
    if (row[2] > this.maxSeq) this.maxSeq = row[2];
  }

  /** Removes the row that sat at `place` (nothing when it was never indexed). */
  remove(seq: number, place: WarmPlace): void {
    if (this.classes.get(place.durClass)?.remove(place.startF, seq)) this.rows--;
  }

  /**
   * One stream per candidate range: the class's rows from the first whose start is at or after
   * both the range's start and `fromStartF`, up to the range's last start, passing the range's
   * end bounds and the tier. A tier the index has never seen has no rows.
   */
  streams(ranges: readonly CandidateRange[], fromStartF: number, tier: string | undefined): CandidateStream[] {
    const tierId = tier === undefined ? undefined : this.tierIds.get(tier);
    if (tier !== undefined && tierId === undefined) return [];
    const streams: CandidateStream[] = [];
    for (const range of ranges) {
      const columns = this.classes.get(range.durClass);
      if (columns !== undefined && columns.length > 0) streams.push(new ColumnStream(columns, range, Math.max(range.startLo, fromStartF), tierId));
    }
    return streams;
  }

  private tierId(name: string): number {
    let id = this.tierIds.get(name);
    if (id === undefined) {
      id = this.tierIds.size;
      this.tierIds.set(name, id);
    }
    return id;
  }
}

/** A class's rows within one candidate range, as the window merge reads them. */
class ColumnStream implements CandidateStream {
  private i: number;
  private current: WindowCandidate | null = null;

  constructor(
    private readonly columns: ClassColumns,
    private readonly range: CandidateRange,
    fromStartF: number,
    private readonly tierId: number | undefined,
  ) {
    this.i = columns.lowerBound(fromStartF, -1);
  }

  head(): WindowCandidate | null {
    if (this.current !== null) return this.current;
    const { columns, range } = this;
    for (; this.i < columns.length; this.i++) {
      const startF = columns.at(START_F, this.i);
      if (startF > range.startHi) return null;
      const endF = columns.at(END_V, this.i) / columns.at(END_R, this.i);
      if (endF < range.endLo || endF > range.endHi) continue;
      if (this.tierId !== undefined && columns.at(TIER, this.i) !== this.tierId) continue;
      const start = new RationalTime(columns.at(START_V, this.i), columns.at(START_R, this.i));
      const end = new RationalTime(columns.at(END_V, this.i), columns.at(END_R, this.i));
      this.current = { startF, seq: columns.at(SEQ, this.i), interval: new TimeInterval(start, end) };
      return this.current;
    }
    return null;
  }

  advance(): void {
    this.current = null;
    this.i++;
  }
}
