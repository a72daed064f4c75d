import type { Annotation } from '../model/annotation.js';
import { holds } from '../time/allen.js';
import type { TimeInterval } from '../time/time-interval.js';
import {
  checkLimit, insertionPosition, intervalPosition, resumeKey,
  type IntervalKey, type ReadForm, type ReadItem, type ReadOptions, type ReadPage, type ReadQuery,
} from './read-page.js';
import { intersectsTicks, matchesRelations } from './relation-filter.js';
import { candidateRanges, type CandidateRange } from './sqlite-interval-index.js';
import { ClassRowStream } from './sqlite-interval-scan.js';
import { decode, type KeyRow, type PagedRow } from './sqlite-rows.js';
import { PAGE, type SqliteStatements } from './sqlite-statements.js';
import { WarmWindowIndex, type IndexCursor, type WarmPlace, type WarmRow } from './sqlite-warm-windows.js';
import { hexToId, wireJsonOfRow, type WireRow } from './sqlite-wire-json.js';
import { mergeWindowHits, type CandidateStream, type WindowCandidate } from './window-merge.js';

/** Window reads on one data version before the warm index is built: a one-off query never pays for it. */
const WARM_AFTER = 8;
/** Own changes the warm index catches up with row by row; past this, it is dropped and rebuilt later. */
const MAX_TOUCHED = 4096;
/** Rows inserted since, past which catching up costs more than a rebuild. */
const MAX_NEWER = 4096;
/** Texts made per turn of the event loop while the warm index is being filled: about a millisecond's work. */
const FILL_CHUNK = 256;

const ID_FROM = '{"id":"'.length;
const ID_TO = ID_FROM + 36;

/** The id of a page's item: an annotation's, or the one every wire JSON text opens with. */
function idOfItem(item: Annotation | string | Uint8Array): string {
  if (typeof item === 'string') return item.slice(ID_FROM, ID_TO);
  if (item instanceof Uint8Array) return Buffer.from(item.buffer, item.byteOffset + ID_FROM, ID_TO - ID_FROM).toString('latin1');
  return item.id;
}

/**
 * The `.annot` store's paged read (read-page.ts), and what it keeps between reads:
 *
 * - A listing (no window) is a keyset on the rowid, `seq > ? ORDER BY seq LIMIT n`.
 * - A window is one keyset stream per duration class on the index (dur_class, start_f, rowid),
 *   each `LIMIT`ed, merged into exact (start, end, id) order (window-merge.ts).
 * - Once a connection keeps reading windows (WARM_AFTER), the interval index in memory
 *   (WarmWindowIndex), which skips SQLite's cost per row and keeps the rows' wire JSON as bytes,
 *   so a window read again is a walk and a copy of each row's bytes; kept in step with this
 *   connection's writes (`changed`, `inserted`) and dropped when another connection commits
 *   (`reset`), so no text outlives a change of its row.
 */
export class SqlitePagedReads {
  private warm: WarmWindowIndex | null = null;
  /** Rows this connection changed since the warm index was brought up to date, with where they sat in it. */
  private readonly touched = new Map<number, WarmPlace | null>();
  private insertedSince = false;
  private windowReads = 0;
  /** The pending step of the background fill of the warm index's texts. */
  private filling: NodeJS.Immediate | null = null;

  /** `busy()`: whether the connection is in a transaction held across awaits (no fill step then). */
  constructor(
    private readonly stmt: SqliteStatements,
    private readonly busy: () => boolean,
  ) {}

  /** Stops the background work (the store is closing). */
  stop(): void {
    this.dropWarm();
  }

  /** A row this connection is updating or deleting, with its place in the interval index before the change. */
  changed(seq: number, place: WarmPlace | null): void {
    if (this.warm === null || this.touched.has(seq)) return;
    this.touched.set(seq, place);
    if (this.touched.size > MAX_TOUCHED) this.dropWarm();
  }

  /** This connection is inserting rows (new rowids, above what the warm index has seen). */
  inserted(): void {
    this.insertedSince = true;
  }

  /** Another connection committed: nothing read before is trusted. */
  reset(): void {
    this.dropWarm();
  }

  read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>, classes: readonly number[]): ReadPage<ReadItem<F>> {
    const limit = checkLimit(options.limit);
    const resume = resumeKey(query, options.after);
    if (query.window === undefined) return this.listing(query, resume as number | null, limit, options.form);
    const hits = this.windowHits(query, resume as IntervalKey | null, limit + 1, classes);
    const page = hits.slice(0, limit);
    const items = this.itemsOf(page, options.form);
    if (hits.length <= limit) return { items, next: null };
    const last = page[page.length - 1];
    return { items, next: intervalPosition(query, { start: last.interval.start, end: last.interval.end, id: idOfItem(items[items.length - 1]) }) };
  }

  /** A page of the insertion order, all tiers or one: the rowid keyset. */
  private listing<F extends ReadForm>(query: ReadQuery, after: number | null, limit: number, form: F): ReadPage<ReadItem<F>> {
    const from = after ?? 0;
    const { tier } = query;
    let items: ReadItem<F>[];
    let seqs: number[];
    if (form !== 'objects') {
      const rows = (tier === undefined ? this.stmt.wirePage.all(from, limit + 1) : this.stmt.wirePageOnTier.all(from, tier, limit + 1)) as WireRow[];
      const texts = rows.map((row) => wireJsonOfRow(row, { seconds: true }));
      items = (form === 'wire-bytes' ? texts.map((text) => Buffer.from(text, 'utf8')) : texts) as ReadItem<F>[];
      seqs = rows.map((row) => row[18]);
    } else {
      const rows = (tier === undefined ? this.stmt.page.all(from, limit + 1) : this.stmt.pageOnTier.all(from, tier, limit + 1)) as PagedRow[];
      items = rows.map((row) => decode(row)) as ReadItem<F>[];
      seqs = rows.map((row) => row[10]);
    }
    if (items.length <= limit) return { items, next: null };
    return { items: items.slice(0, limit), next: insertionPosition(query, seqs[limit - 1]) };
  }

  private windowHits(query: ReadQuery, after: IntervalKey | null, count: number, classes: readonly number[]): WindowCandidate[] {
    const window = query.window as TimeInterval;
    const relation = query.relation ?? 'intersects';
    if (relation !== 'intersects') holds(relation, window, window); // an unknown name throws its teaching error here
    const keep = relation === 'intersects'
      ? intersectsTicks(window)
      : (candidate: WindowCandidate) => matchesRelations(candidate.interval, window, [relation]);
    const ranges = candidateRanges(window, [relation], classes);
    // Every row after the key starts at or after it; its float start is a lower bound (monotone rounding).
    const from = after === null ? -Number.MAX_VALUE : after.start.v / after.start.r;
    return mergeWindowHits(this.windowStreams(ranges, from, query.tier, count), keep, after, count, (seq) => this.idOf(seq));
  }

  private windowStreams(ranges: readonly CandidateRange[], from: number, tier: string | undefined, count: number): CandidateStream[] {
    const warm = this.warmIndex();
    if (warm !== null) return warm.streams(ranges, from, tier);
    return ranges.map((range) => {
      const fetch = (afterStart: number, afterSeq: number, n: number): KeyRow[] => (tier === undefined
        ? this.stmt.windowPage.all(range.durClass, afterStart, afterSeq, range.startHi, range.endLo, range.endHi, n)
        : this.stmt.windowPageOnTier.all(range.durClass, afterStart, afterSeq, range.startHi, range.endLo, range.endHi, tier, n)) as KeyRow[];
      return new ClassRowStream(fetch, Math.max(range.startLo, from), Math.min(count, PAGE));
    });
  }

  /** The page's items, in order: texts kept by the warm index (the missing ones read and built in one query), or decoded rows. */
  private itemsOf<F extends ReadForm>(hits: readonly WindowCandidate[], form: F): ReadItem<F>[] {
    if (form === 'objects') {
      if (hits.length === 0) return [];
      const rows = new Map<number, PagedRow>();
      for (const row of this.stmt.rowsBySeqs.all(JSON.stringify(hits.map((hit) => hit.seq))) as PagedRow[]) rows.set(row[10], row);
      return hits.map((hit) => decode(rows.get(hit.seq) as PagedRow, hit.interval)) as ReadItem<F>[];
    }
    const texts = this.textsOf(hits);
    if (form === 'wire-bytes') return texts.map((text): Uint8Array => (typeof text === 'string' ? Buffer.from(text, 'utf8') : text)) as ReadItem<F>[];
    return texts.map((text): string => (typeof text === 'string' ? text : text.toString('utf8'))) as ReadItem<F>[];
  }

  /** Each hit's wire JSON: the bytes the warm index keeps, else the text built from its row (and kept when the hit has a holder). */
  private textsOf(hits: readonly WindowCandidate[]): Array<Buffer | string> {
    const texts: Array<Buffer | string | undefined> = new Array(hits.length);
    let missing: number[] | null = null;
    for (let i = 0; i < hits.length; i++) {
      const hit = hits[i];
      const bytes = hit.holder?.bytes(hit.at);
      texts[i] = bytes;
      if (bytes === undefined) (missing ??= []).push(hit.seq);
    }
    if (missing === null) return texts as Buffer[];
    const built = new Map<number, string>();
    for (const row of this.stmt.wireBySeqs.all(JSON.stringify(missing)) as WireRow[]) built.set(row[18], wireJsonOfRow(row, { seconds: true }));
    for (let i = 0; i < hits.length; i++) {
      if (texts[i] !== undefined) continue;
      const hit = hits[i];
      const text = built.get(hit.seq) as string;
      texts[i] = hit.holder === null ? text : hit.holder.remember(hit.at, text);
    }
    return texts as Array<Buffer | string>;
  }

  /** A row's id, for ordering exact ties. */
  private idOf(seq: number): string {
    return hexToId(this.stmt.idBySeq.get(seq) as string);
  }

  /** The warm index, built after WARM_AFTER window reads and brought up to date with this connection's writes; null before. */
  private warmIndex(): WarmWindowIndex | null {
    if (this.warm === null) {
      if (++this.windowReads < WARM_AFTER) return null;
      // Numbers only: the texts are made in the background, a chunk per turn of the event loop, and
      // by any read that needs one first, so no read waits for all of them.
      this.warm = WarmWindowIndex.build(this.stmt.warmRows.iterate() as Iterable<WarmRow>);
      this.touched.clear();
      this.insertedSince = false;
      this.fillTexts(this.warm, null);
      return this.warm;
    }
    if (this.touched.size > 0 || this.insertedSince) this.catchUp(this.warm);
    return this.warm;
  }

  /** Applies this connection's writes since the last read to the warm index: changed rows re-read, new rows added. */
  private catchUp(warm: WarmWindowIndex): void {
    const since = warm.maxSeq;
    if (this.touched.size > 0) {
      for (const [seq, place] of this.touched) if (place !== null) warm.remove(seq, place);
      for (const row of this.stmt.warmBySeqs.all(JSON.stringify([...this.touched.keys()])) as WarmRow[]) warm.add(row);
    }
    if (this.insertedSince) {
      const newer = this.stmt.warmNewer.all(since, MAX_NEWER + 1) as WarmRow[];
      if (newer.length > MAX_NEWER) {
        this.dropWarm();
        return;
      }
      for (const row of newer) if (!this.touched.has(row[2])) warm.add(row);
    }
    this.touched.clear();
    this.insertedSince = false;
  }

  /** One step of the background fill: the next chunk of missing texts, then the next step, until all are made or the budget is nearly spent. */
  private fillTexts(warm: WarmWindowIndex, from: IndexCursor | null): void {
    this.filling = setImmediate(() => {
      this.filling = null;
      if (this.warm !== warm) return;
      if (this.busy()) {
        this.fillTexts(warm, from);
        return;
      }
      if (this.touched.size > 0 || this.insertedSince) this.catchUp(warm);
      if (this.warm !== warm || warm.textsNearlyFull) return;
      const { rows, next } = warm.missingTexts(from, FILL_CHUNK);
      if (rows.length > 0) {
        const texts = new Map<number, string>();
        for (const row of this.stmt.wireBySeqs.all(JSON.stringify(rows.map((missing) => missing.seq))) as WireRow[]) texts.set(row[18], wireJsonOfRow(row, { seconds: true }));
        for (const { holder, at, seq } of rows) {
          const text = texts.get(seq);
          if (text !== undefined) holder.remember(at, text);
        }
      }
      if (next !== null) this.fillTexts(warm, next);
    }).unref();
  }

  private dropWarm(): void {
    if (this.filling !== null) clearImmediate(this.filling);
    this.filling = null;
    this.warm = null;
    this.touched.clear();
    this.insertedSince = false;
    this.windowReads = 0;
  }
}
