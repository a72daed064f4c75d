import { performance } from 'node:perf_hooks';
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
import { WarmIndexBuild } from './sqlite-warm-build.js';
import type { IndexCursor, WarmPlace, WarmRow, WarmWindowIndex } from './sqlite-warm-windows.js';
import { hexToId, wireJsonOfRow, type WireRow } from './sqlite-wire-json.js';
import { mergeWindowHits, type CandidateStream, type WindowCandidate } from './window-merge.js';

/** Window reads on one data version before the warm index is built: a one-off query never pays for it. */
const WARM_AFTER = 8;
/** Own changes the warm index catches up with row by row; past this, it is dropped and rebuilt later. */
const MAX_TOUCHED = 4096;
/** Rows inserted since, past which catching up costs more than a rebuild. */
const MAX_NEWER = 4096;
/** Texts made per turn of the event loop while the warm index is being filled: about a millisecond's work. */
const FILL_CHUNK = 128;
/**
 * The background fill waits until no window was read for this long: a busy server makes the texts
 * of the windows it is asked for as it answers them, and the fill would only take its time.
 */
const FILL_WHEN_IDLE_MS = 100;

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
  /** The warm index being read, a chunk per turn of the event loop; reads go to SQLite meanwhile. */
  private building: WarmIndexBuild | null = null;
  /** Those waiting for the build to end (warmUp): told whether the index is warm. */
  private buildWaiters: Array<(warm: boolean) => void> = [];
  /**
   * Rows this connection changed since the warm index was brought up to date (or since its build
   * started), with every place they sat in the interval index before each change.
   */
  private readonly touched = new Map<number, WarmPlace[]>();
  private insertedSince = false;
  private windowReads = 0;
  /** The pending step of the background build of the warm index, or of the fill of its texts. */
  private filling: NodeJS.Immediate | null = null;
  /** The fill's wait for a pause in the window reads. */
  private fillPause: NodeJS.Timeout | null = null;
  /** When the last window read came (performance.now()). */
  private lastWindowRead = 0;

  /** `busy()`: whether the connection is in a transaction held across awaits (no fill step then). */
  constructor(
    private readonly stmt: SqliteStatements,
    private readonly busy: () => boolean,
  ) {}

  /** Stops the background work (the store is closing). */
  stop(): void {
    this.dropWarm();
  }

  /**
   * Builds the warm index now, in the background, rather than after WARM_AFTER window reads (a
   * server about to answer them); resolves once it is built (true), or when the build was given
   * up (false: another connection committed, or this one changed too much meanwhile).
   */
  warmUp(classes: readonly number[]): Promise<boolean> {
    if (this.warm !== null) return Promise.resolve(true);
    if (this.building === null) this.startBuild(classes);
    // Someone waits for it: the build keeps the process alive until it ends.
    this.filling?.ref();
    return new Promise((resolve) => this.buildWaiters.push(resolve));
  }

  /** A row this connection is updating or deleting, with its place in the interval index before the change. */
  changed(seq: number, place: WarmPlace | null): void {
    if (this.warm === null && this.building === null) return;
    let places = this.touched.get(seq);
    if (places === undefined) {
      places = [];
      this.touched.set(seq, places);
    }
    if (place !== null) places.push(place);
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
    this.lastWindowRead = performance.now();
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
    return mergeWindowHits(this.windowStreams(ranges, from, query.tier, count, classes), keep, after, count, (seq) => this.idOf(seq));
  }

  private windowStreams(ranges: readonly CandidateRange[], from: number, tier: string | undefined, count: number, classes: readonly number[]): CandidateStream[] {
    const warm = this.warmIndex(classes);
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

  /**
   * The warm index, brought up to date with this connection's writes; null before it is built.
   * The WARM_AFTER-th window read starts its build in the background (startBuild).
   */
  private warmIndex(classes: readonly number[]): WarmWindowIndex | null {
    if (this.warm === null) {
      if (this.building === null && ++this.windowReads >= WARM_AFTER) this.startBuild(classes);
      return null;
    }
    if (this.touched.size > 0 || this.insertedSince) this.catchUp(this.warm);
    return this.warm;
  }

  /**
   * Reads the interval index into memory a chunk per turn of the event loop (sqlite-warm-build.ts),
   * then catches up with what this connection wrote meanwhile and starts filling the texts. Only
   * numbers are read: the texts are made in the background, and by any read that needs one
   * first, so no read waits for all of them.
   */
  private startBuild(classes: readonly number[]): void {
    const build = new WarmIndexBuild(classes, this.stmt.maxSeq.get() as number);
    this.building = build;
    this.touched.clear();
    this.insertedSince = false;
    const step = (): void => {
      this.filling = setImmediate(() => {
        this.filling = null;
        if (this.building !== build) return;
        // Not inside a transaction held across awaits: its rows may yet be rolled back.
        if (this.busy() || !build.step(this.stmt.warmClassPage)) {
          step();
          return;
        }
        this.building = null;
        this.warm = build.index;
        this.catchUp(build.index);
        if (this.warm === build.index) this.fillTexts(build.index, null);
        this.settleWaiters(this.warm === build.index);
      });
      // Unless someone waits for it (warmUp), a build does not keep the process alive.
      if (this.buildWaiters.length === 0) this.filling.unref();
    };
    step();
  }

  private settleWaiters(warm: boolean): void {
    const waiters = this.buildWaiters;
    this.buildWaiters = [];
    for (const resolve of waiters) resolve(warm);
  }

  /**
   * Applies this connection's writes since the last read to the warm index: each changed row taken
   * out of every place it had (and out of the place it has now, where a build may have read it
   * after the change) and put back as it is now; new rows added.
   */
  private catchUp(warm: WarmWindowIndex): void {
    const since = warm.maxSeq;
    if (this.touched.size > 0) {
      for (const [seq, places] of this.touched) for (const place of places) warm.remove(seq, place);
      for (const row of this.stmt.warmBySeqs.all(JSON.stringify([...this.touched.keys()])) as WarmRow[]) {
        warm.remove(row[2], { durClass: row[0], startF: row[1] });
        warm.add(row);
      }
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

  /**
   * One step of the background fill, once window reads pause (FILL_WHEN_IDLE_MS): the next chunk of
   * missing texts, then the next step, until all are made or the budget is nearly spent.
   */
  private fillTexts(warm: WarmWindowIndex, from: IndexCursor | null): void {
    this.filling = setImmediate(() => {
      this.filling = null;
      if (this.warm !== warm) return;
      if (this.busy()) {
        this.fillTexts(warm, from);
        return;
      }
      const quietFor = performance.now() - this.lastWindowRead;
      if (quietFor < FILL_WHEN_IDLE_MS) {
        this.fillPause = setTimeout(() => {
          this.fillPause = null;
          this.fillTexts(warm, from);
        }, FILL_WHEN_IDLE_MS - quietFor).unref();
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
    if (this.fillPause !== null) clearTimeout(this.fillPause);
    this.filling = null;
    this.fillPause = null;
    this.warm = null;
    this.building = null;
    this.settleWaiters(false);
    this.touched.clear();
    this.insertedSince = false;
    this.windowReads = 0;
  }
}
