import type { CandidateRange } from './sqlite-interval-index.js';
import { WindowCandidate, type CandidateStream, type TextHolder } from './window-merge.js';

/** An interval row as the warm index holds it: `[dur_class, start_f, seq, start_v, start_r, end_v, end_r, tier]`. */
export type WarmRow = [durClass: number, startF: number, seq: number, startV: number, startR: number, endV: number, endR: number, tier: string];

/** The columns a WarmRow is selected as. */
export const WARM_SELECT = 'dur_class, start_f, seq, start_v, start_r, end_v, end_r, tier';

/** Where a row sat in the index before a change: enough to find it again. */
export interface WarmPlace {
  readonly durClass: number;
  readonly startF: number;
}

/** The most bytes of wire JSON the index keeps (64 MiB, about 150,000 annotations); past it, it forgets them all and starts again. */
const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/**
 * One duration class's rows in (start_f, seq) order, as columns: numbers in typed arrays (times
 * are safe integers, exact in a double; about 60 bytes a row, so a million rows fit in 60 MB),
 * and each row's wire JSON once a read has built it, as UTF-8 bytes: outside V8's heap (a
 * collection never walks or moves them) and ready to be copied into an answer as they are.
 * A row's bytes are never written again (a change forgets them), so a reader may keep them.
 */
class ClassColumns implements TextHolder {
  length = 0;
  startF = new Float64Array(16);
  seq = new Float64Array(16);
  startV = new Float64Array(16);
  startR = new Float64Array(16);
  endV = new Float64Array(16);
  endR = new Float64Array(16);
  tier = new Uint32Array(16);
  readonly texts: Array<Buffer | undefined> = [];

  constructor(private readonly budget: TextBudget) {}

  /** The first position whose (start_f, seq) is at or after the given pair. */
  lowerBound(startF: number, seq: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.startF[mid] < startF || (this.startF[mid] === startF && this.seq[mid] < seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(startF: number, seq: number, startV: number, startR: number, endV: number, endR: number, tier: number): void {
    if (this.length === this.startF.length) this.grow();
    const n = this.length;
    // Rows read in index order (a build) go at the end: no search, no move.
    const atEnd = n === 0 || this.startF[n - 1] < startF || (this.startF[n - 1] === startF && this.seq[n - 1] < seq);
    const at = atEnd ? n : this.lowerBound(startF, seq);
    if (at < n) {
      for (const column of this.numberColumns()) column.copyWithin(at + 1, at, n);
      this.texts.splice(at, 0, undefined);
    } else {
      this.texts.push(undefined);
    }
    this.startF[at] = startF;
    this.seq[at] = seq;
    this.startV[at] = startV;
    this.startR[at] = startR;
    this.endV[at] = endV;
    this.endR[at] = endR;
    this.tier[at] = tier;
    this.length = n + 1;
  }

  /** Removes the row (startF, seq); false when it is not here. */
  remove(startF: number, seq: number): boolean {
    const at = this.lowerBound(startF, seq);
    if (at >= this.length || this.seq[at] !== seq) return false;
    for (const column of this.numberColumns()) column.copyWithin(at, at + 1, this.length);
    const [bytes] = this.texts.splice(at, 1);
    if (bytes !== undefined) this.budget.bytes -= bytes.length;
    this.length--;
    return true;
  }

  bytes(at: number): Buffer | undefined {
    return this.texts[at];
  }

  remember(at: number, text: string): Buffer {
    const bytes = Buffer.from(text, 'utf8');
    if (this.budget.bytes + bytes.length > MAX_TEXT_BYTES) this.budget.forgetAll();
    this.texts[at] = bytes;
    this.budget.bytes += bytes.length;
    return bytes;
  }

  forgetTexts(): void {
    this.texts.fill(undefined);
  }

  private numberColumns(): Array<Float64Array | Uint32Array> {
    return [this.startF, this.seq, this.startV, this.startR, this.endV, this.endR, this.tier];
  }

  private grow(): void {
    const bigger = <A extends Float64Array | Uint32Array>(column: A): A => {
      const grown = new (column.constructor as new (length: number) => A)(column.length * 2);
      grown.set(column);
      return grown;
    };
    this.startF = bigger(this.startF);
    this.seq = bigger(this.seq);
    this.startV = bigger(this.startV);
    this.startR = bigger(this.startR);
    this.endV = bigger(this.endV);
    this.endR = bigger(this.endR);
    this.tier = bigger(this.tier);
  }
}

/** Where a walk over the index in its order resumes: a class and a (start_f, rowid) in it. */
export interface IndexCursor {
  readonly durClass: number;
  readonly startF: number;
  readonly seq: number;
}

/** A row whose text is not kept yet: where to keep it, and its rowid. */
export interface MissingText {
  readonly holder: TextHolder;
  readonly at: number;
  readonly seq: number;
}

/** The bytes of text the index holds, shared by its classes. */
interface TextBudget {
  bytes: number;
  forgetAll(): void;
}

/**
 * The `.annot` interval index held in memory, for a store that answers window reads over and
 * over (a server): the same (dur_class, start_f, rowid) order as the SQLite index, read once, then
 * kept in step with the store's own writes (`remove` and `add`, applied by the store before its
 * next read) and dropped by the store when another connection commits. Its streams feed the same
 * merge as the SQL ones (window-merge.ts), so both give the same hits in the same order; this one
 * skips better-sqlite3's cost per row (about a microsecond, most of a window's time) and keeps
 * the rows' texts beside them, so a window read again is a walk over a few arrays and a copy.
 */
export class WarmWindowIndex implements TextBudget {
  private readonly classes = new Map<number, ClassColumns>();
  private readonly tierIds = new Map<string, number>();
  private rows = 0;
  bytes = 0;
  /** The largest rowid the index has seen: rows above it were inserted since. */
  maxSeq = 0;

  get size(): number {
    return this.rows;
  }

  add([durClass, startF, seq, startV, startR, endV, endR, tier]: WarmRow): void {
    let columns = this.classes.get(durClass);
    if (columns === undefined) {
      columns = new ClassColumns(this);
      this.classes.set(durClass, columns);
    }
    columns.insert(startF, seq, startV, startR, endV, endR, this.tierId(tier));
    this.rows++;
    if (seq > this.maxSeq) this.maxSeq = seq;
  }

  /** Removes the row that sat at `place` (nothing when it was never indexed). */
  remove(seq: number, place: WarmPlace): void {
    if (this.classes.get(place.durClass)?.remove(place.startF, seq)) this.rows--;
  }

  forgetAll(): void {
    for (const columns of this.classes.values()) columns.forgetTexts();
    this.bytes = 0;
  }

  /** Whether the kept texts are near the budget, past which keeping more would only push others out. */
  get textsNearlyFull(): boolean {
    return this.bytes > MAX_TEXT_BYTES * 0.9;
  }

  /**
   * Up to `count` rows without a kept text, in index order from `from` (the start when null), and
   * where the next search resumes (null once the whole index has been walked). Positions hold
   * until the index next changes, so the caller keeps the texts before yielding.
   */
  missingTexts(from: IndexCursor | null, count: number): { rows: MissingText[]; next: IndexCursor | null } {
    const rows: MissingText[] = [];
    const classes = [...this.classes.keys()].sort((a, b) => a - b);
    for (const durClass of classes) {
      if (from !== null && durClass < from.durClass) continue;
      const columns = this.classes.get(durClass) as ClassColumns;
      let at = from !== null && durClass === from.durClass ? columns.lowerBound(from.startF, from.seq) : 0;
      for (; at < columns.length; at++) {
        if (rows.length === count) return { rows, next: { durClass, startF: columns.startF[at], seq: columns.seq[at] } };
        if (columns.bytes(at) === undefined) rows.push({ holder: columns, at, seq: columns.seq[at] });
      }
    }
    return { rows, next: null };
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
    const { columns, range, tierId } = this;
    const { startF: starts, endV, endR } = columns;
    for (let i = this.i; i < columns.length; i++) {
      const startF = starts[i];
      if (startF > range.startHi) break;
      const endF = endV[i] / endR[i];
      if (endF < range.endLo || endF > range.endHi || (tierId !== undefined && columns.tier[i] !== tierId)) continue;
      this.i = i;
      this.current = new WindowCandidate(startF, columns.seq[i], columns.startV[i], columns.startR[i], endV[i], endR[i], columns, i);
      return this.current;
    }
    this.i = columns.length;
    return null;
  }

  advance(): void {
    this.current = null;
    this.i++;
  }
}
