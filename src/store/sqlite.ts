import Database from 'better-sqlite3';
import { InvalidInputError } from '../errors/annot-error.js';
import { annotationInterval, type Annotation } from '../model/annotation.js';
import { isUuid } from '../model/ids.js';
import type { Tier } from '../model/tier.js';
import { holds } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { AnnotationNotFoundError, DuplicateAnnotationIdError, KeyMismatchError, UnknownTierError } from './errors.js';
import { IntervalQueryShortcuts, type IntervalQueryKind } from './interval-query-shortcuts.js';
import { matchesIntersects, matchesRelations } from './relation-filter.js';
import { removeReaderSideFiles, syncFile } from './sqlite-file.js';
import { busyAsInUse, openAnnotDatabase, type OpenedDatabase } from './sqlite-open.js';
import { writeFailure } from '../io/write-failure.js';
import { candidateRanges, keyRange, type CandidateRange } from './sqlite-interval-index.js';
import { distinctIntervals } from './sqlite-interval-scan.js';
import { decodeOpRow, selectWindow } from './sqlite-reads.js';
import { DUR_CLASS_PARAM, decode, decodeTier, encodeRow, idToBlob, type KeyRow, type OpRow, type PagedRow, type Row, type TierRow } from './sqlite-rows.js';
import { SqlitePagedReads } from './sqlite-paged-reads.js';
import { PAGE, prepareStatements, type SqliteStatements } from './sqlite-statements.js';
import { beginInsertBatch, type InsertBatch } from './sqlite-writes.js';
import type { ReadForm, ReadItem, ReadOptions, ReadPage, ReadQuery } from './read-page.js';
import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import { PreconditionFailedError } from '../oplog/errors.js';
import type { Mutation } from '../oplog/mutation.js';
import { entryFor, type MutationContext, type OpLogEntry } from '../oplog/op-log-entry.js';
import type { OpLoggedStore, OpLogRange } from '../oplog/op-logged-store.js';
import type { AddTierOptions } from './store.js';

/** Options of SqliteStore.open. */
export interface SqliteStoreOptions {
  /** Open without write access (and never create, migrate or change the file). Default false. */
  readonly?: boolean;
  /** Create the file when it does not exist. Default true unless readonly. */
  create?: boolean;
  /** How long a write waits for another connection's write lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * The file is a scratch file that nobody reads before it is complete (`annot convert` writes a
   * temporary file and renames it into place): no WAL, no syncs and a small page cache while it is
   * filled, then one sync on close. A crash leaves a temporary file to delete, never a damaged
   * store. Default false.
   */
  scratch?: boolean;
}

/**
 * The `.annot` file: an AnnotationStore in one SQLite file (better-sqlite3, WAL, busy timeout), with
 * the layout of sqlite-schema.ts and the interval index of sqlite-interval-index.ts. Every write
 * is one transaction (addMany, setAt and deleteAt included), so a failed batch leaves nothing
 * behind and another process never sees half of one. Two processes can share a file: each sees
 * the other's commits (caches are checked against `PRAGMA data_version`), and a writer waits up to
 * the busy timeout for the other's write lock.
 *
 * The file is checked before anything is written to it: a text file, a truncated file, another
 * application's SQLite database or a file stamped with a newer schema version is a
 * StoreFormatError, and the file keeps every byte. An older schema version is migrated forward.
 *
 * The class holds the connection, its caches and the transaction discipline, and composes the
 * parts: the file checks (sqlite-file.ts), schema and migrations (sqlite-schema.ts,
 * sqlite-migrations.ts), the statements (sqlite-statements.ts), the row codec (sqlite-rows.ts),
 * reads (sqlite-reads.ts, and the paged read with its caches in sqlite-paged-reads.ts), inserts
 * (sqlite-writes.ts) and the interval index (sqlite-interval-index.ts, sqlite-interval-scan.ts).
 */
export class SqliteStore extends IntervalQueryShortcuts implements OpLoggedStore {
  /** What kind of store this is: 'memory', 'mapping', 'sqlite' or 'postgres'. */
  readonly kind = 'sqlite';

  private readonly db: Database.Database;
  private readonly stmt: SqliteStatements;
  /** One BEGIN IMMEDIATE wrapper for every write: better-sqlite3 builds a new one per db.transaction() call, which cost ~5% of a create. */
  private readonly runImmediate: (work: () => unknown) => unknown;
  private tierNames = new Set<string>();
  private classes: number[] = [];
  private classSet = new Set<number>();
  private seenDataVersion = -1;
  /** The paged read, with the texts and the interval index it keeps between reads. */
  private readonly reads: SqlitePagedReads;
  /** Held while an addMany over an async iterable keeps its transaction open across awaits. */
  private busy: Promise<void> | null = null;

  private readonly opened: OpenedDatabase;

  private constructor(
    /** The path of the `.annot` file. */
    readonly path: string,
    opened: OpenedDatabase,
    /** Whether the file was opened without write access. */
    readonly readonly: boolean,
    private readonly scratch: boolean,
    private readonly busyTimeoutMs: number,
  ) {
    super();
    this.opened = opened;
    const db = opened.db;
    this.db = db;
    this.stmt = prepareStatements(db);
    this.reads = new SqlitePagedReads(this.stmt, () => this.busy !== null);
    this.runImmediate = db.transaction((work: () => unknown) => work()).immediate;
  }

  /**
   * Opens (or creates) the `.annot` file at `path`; `:memory:` gives a private in-memory store.
   * The opening itself (checks, creation, the file a replaced path names, set-up) is sqlite-open.ts.
   */
  static async open(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    const readonly = options.readonly ?? false;
    const opened = openAnnotDatabase(path, {
      readonly,
      create: options.create ?? !readonly,
      scratch: Boolean(options.scratch),
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
    });
    try {
      return new SqliteStore(path, opened, readonly, Boolean(options.scratch) && !readonly, options.busyTimeoutMs ?? 5000);
    } catch (error) {
      opened.db.close();
      opened.closed();
      throw error;
    }
  }

  /** A consistent copy of the whole file (SQLite's online backup: every page, op-log and metadata included). */
  async copyTo(target: string): Promise<void> {
    await this.idle();
    await this.db.backup(target);
  }

  /** The file's schema version. */
  get schemaVersion(): number {
    return Number(this.stmt.getFileMeta.get('schema_version'));
  }

  /**
   * Adds an annotation (DuplicateAnnotationIdError when its id is taken, UnknownTierError when its tier is not registered).
   */
  async add(annotation: Annotation): Promise<void> {
    await this.addMany([annotation]);
  }

  /** Adds annotations all or nothing, in one transaction; returns how many were added. */
  async addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number> {
    this.writable();
    await this.idle();
    if (Symbol.iterator in annotations) {
      const source = annotations as Iterable<Annotation>;
      return this.immediate(() => {
        const batch = this.beginBatch();
        for (const annotation of source) batch.insert(annotation);
        return batch.finish();
      });
    }
    const release = this.lock();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const batch = this.beginBatch();
      for await (const annotation of annotations as AsyncIterable<Annotation>) batch.insert(annotation);
      const added = batch.finish();
      this.db.exec('COMMIT');
      return added;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw this.failure(error);
    } finally {
      release();
    }
  }

  /** The annotation with this id, or null. */
  async get(id: string): Promise<Annotation | null> {
    await this.idle();
    if (!isUuid(id)) return null;
    const row = this.stmt.getById.get(idToBlob(id)) as Row | undefined;
    return row === undefined ? null : decode(row);
  }

  /**
   * Replaces the annotation with the same id, keeping its place in insertion order (AnnotationNotFoundError when absent).
   */
  async update(annotation: Annotation): Promise<void> {
    this.writable();
    await this.idle();
    this.updateNow(annotation);
  }

  /** Removes the annotation with this id; returns it, or null when there was none. */
  async delete(id: string): Promise<Annotation | null> {
    this.writable();
    await this.idle();
    return this.deleteNow(id);
  }

  /** Number of annotations, interval-less ones included. */
  async count(): Promise<number> {
    await this.idle();
    return this.stmt.count.get() as number;
  }

  /** Every annotation in insertion order, read a page at a time by rowid (so writes between pages are allowed). */
  async *all(): AsyncIterable<Annotation> {
    let after = 0;
    for (;;) {
      await this.idle();
      const rows = this.stmt.page.all(after, PAGE) as PagedRow[];
      for (const row of rows) yield decode(row);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1][10];
    }
  }

  /** Registers a tier, or replaces the one of the same name (its parent must be registered first). */
  async addTier(tier: Tier, _options: AddTierOptions = {}): Promise<void> {
    this.writable();
    await this.idle();
    this.immediate(() => this.addTierNow(tier));
  }

  /** The tier of this name, or null. */
  async getTier(name: string): Promise<Tier | null> {
    await this.idle();
    const row = this.stmt.getTier.get(name) as TierRow | undefined;
    return row === undefined ? null : decodeTier(row);
  }

  /** Every registered tier. */
  async listTiers(): Promise<Tier[]> {
    await this.idle();
    return (this.stmt.listTiers.all() as TierRow[]).map(decodeTier);
  }

  /** Sets a metadata value of the store (a string under a key). */
  async setMeta(key: string, value: string): Promise<void> {
    this.writable();
    await this.idle();
    this.setMetaNow(key, value);
  }

  /** The metadata value under this key, or null. */
  async getMeta(key: string): Promise<string | null> {
    await this.idle();
    return (this.stmt.getMeta.get(key) as string | undefined) ?? null;
  }

  /** Every metadata key and value. */
  async listMeta(): Promise<Record<string, string>> {
    await this.idle();
    const out: Record<string, string> = {};
    for (const [key, value] of this.stmt.listMeta.all() as [string, string][]) out[key] = value;
    return out;
  }

  /** The annotations whose interval stands in one of the relations to the query, in interval order. */
  protected async queryWindow(query: TimeInterval, relations: IntervalQueryKind): Promise<Annotation[]> {
    await this.idle();
    if (relations === 'intersects') {
      return this.select(candidateRanges(query, ['intersects'], this.knownClasses()), (x) => matchesIntersects(x, query));
    }
    for (const relation of relations) holds(relation, query, query); // an unknown name throws its teaching error here
    if (relations.length === 0) return [];
    return this.select(candidateRanges(query, relations, this.knownClasses()), (x) => matchesRelations(x, query, relations));
  }

  /**
   * Reads the interval index into memory now, in the background, for a caller about to read
   * windows over and over (a server): true once it is warm (sqlite-paged-reads.ts).
   */
  async warmUp(): Promise<boolean> {
    await this.idle();
    return this.reads.warmUp(this.knownClasses());
  }

  /** One keyset page (read-page.ts): a LIMIT per duration class on the interval index, or on the rowid for a listing (sqlite-paged-reads.ts). */
  async read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>> {
    await this.idle();
    return this.reads.read(query, options, this.knownClasses());
  }

  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  async byTier(tier: string): Promise<Annotation[]> {
    await this.idle();
    return (this.stmt.byTier.all(tier) as Row[]).map((row) => decode(row));
  }

  /** The tier's annotations referring to `targetId` (referring-reads.ts): compared in SQL, only matches decoded. */
  async referringTo(tier: string, targetId: string): Promise<Annotation[]> {
    await this.idle();
    return (this.stmt.referringTo.all(tier, targetId) as Row[]).map((row) => decode(row));
  }

  /** Annotations on the tier that intersect the query, in interval order. */
  async atTier(tier: string, query: TimeInterval): Promise<Annotation[]> {
    await this.idle();
    return this.select(candidateRanges(query, ['intersects'], this.knownClasses()), (x) => matchesIntersects(x, query), tier);
  }

  /** The annotations at exactly this interval (by rational value). */
  async getAt(key: TimeInterval): Promise<Annotation[]> {
    await this.idle();
    return this.select([keyRange(key)], (x) => x.equals(key));
  }

  /** Replaces the annotations at exactly this interval with these (each must have that interval). */
  async setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void> {
    this.writable();
    await this.idle();
    const seen = new Set<string>();
    for (const annotation of annotations) {
      const interval = annotationInterval(annotation);
      if (interval === null || !interval.equals(key)) {
        throw new KeyMismatchError(
          `setAt ${key.toString()}: annotation ${annotation.id} ${interval === null ? 'has no interval' : `sits at ${interval.toString()}`}, not at the key`,
        );
      }
      if (seen.has(annotation.id)) throw new DuplicateAnnotationIdError(`setAt ${key.toString()}: annotation id ${annotation.id} appears twice in the list`);
      seen.add(annotation.id);
    }
    this.immediate(() => {
      this.removeAt(key);
      const batch = this.beginBatch();
      for (const annotation of annotations) batch.insert(annotation);
      batch.finish();
    });
  }

  /** Removes the annotations at exactly this interval; returns how many. */
  async deleteAt(key: TimeInterval): Promise<number> {
    this.writable();
    await this.idle();
    return this.immediate(() => this.removeAt(key));
  }

  /** Distinct intervals by value, ordered by start then end: a merge of one rowid-keyed page stream per duration class. */
  async *intervals(): AsyncIterable<TimeInterval> {
    await this.idle();
    yield* distinctIntervals(this.stmt.keyPage, this.knownClasses(), () => this.idle());
  }

  /**
   * Applies the batch and appends its entries in one BEGIN IMMEDIATE transaction: the write lock
   * is taken before the latest clock is read, so processes sharing the file (an `annot serve` and
   * an `annot mcp`) never hand out one clock twice, and a refused mutation rolls back the whole
   * batch, log included.
   */
  async applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]> {
    this.writable();
    await this.idle();
    return this.immediate(() => {
      this.refresh();
      let clock = (this.stmt.latestClock.get() as number | null) ?? 0;
      const appended: OpLogEntry[] = [];
      // Consecutive additions (an import) share one insert batch; anything else closes it first.
      let additions: InsertBatch | null = null;
      for (const mutation of mutations) {
        if (mutation.kind === 'add_annotation') {
          additions ??= this.beginBatch();
          additions.insert(mutation.annotation);
        } else {
          additions?.finish();
          additions = null;
          this.applyNow(mutation);
        }
        const draft = entryFor(mutation, context);
        clock += 1;
        this.stmt.appendOp.run(clock, draft.kind, draft.target_id, JSON.stringify(draft.payload), draft.actor, JSON.stringify(draft.received_at));
        appended.push({ clock, ...draft });
      }
      additions?.finish();
      return appended;
    });
  }

  /** The Lamport clock of the latest op-log entry (0 when there is none). */
  async latestClock(): Promise<number> {
    await this.idle();
    return (this.stmt.latestClock.get() as number | null) ?? 0;
  }

  /** Op-log entries in clock order, within the range. */
  async readOpLog({ fromClock = 1, untilClock = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER }: OpLogRange = {}): Promise<OpLogEntry[]> {
    await this.idle();
    const rows = this.stmt.readOps.all(fromClock, untilClock, Math.min(limit, Number.MAX_SAFE_INTEGER)) as OpRow[];
    return rows.map(decodeOpRow);
  }

  /** Releases what the store holds open (a file, a connection pool); the store is not used after. */
  async close(): Promise<void> {
    await this.idle();
    this.reads.stop();
    if (!this.db.open) return;
    // A scratch file becomes a store others read once renamed: WAL like every .annot, then synced.
    try {
      if (this.scratch) this.db.pragma('journal_mode = WAL');
      this.db.close();
      if (this.scratch) syncFile(this.path);
    } catch (error) {
      if (this.db.open) this.db.close();
      throw (this.readonly ? undefined : writeFailure(error, this.path)) ?? error;
    } finally {
      this.opened.closed();
    }
    if (this.opened.cleanSideFiles) removeReaderSideFiles(this.path);
  }

  // --- writes -----------------------------------------------------------------------------------

  /** Inserts of one transaction (sqlite-writes.ts), checking each annotation's tier. */
  private beginBatch(): InsertBatch {
    this.refresh();
    this.reads.inserted();
    return beginInsertBatch(this.db, this.stmt, { check: (a) => this.checkTier(a), encode: (a) => this.encode(a) });
  }

  // --- synchronous writes, run inside the caller's transaction ------------------------------------

  private applyNow(mutation: Mutation): void {
    switch (mutation.kind) {
      case 'add_tier':
        return this.addTierNow(mutation.tier);
      case 'add_annotation': {
        const batch = this.beginBatch();
        batch.insert(mutation.annotation);
        batch.finish();
        return;
      }
      case 'update_annotation':
        if (mutation.ifMatch !== undefined) this.checkPrecondition(mutation.annotation.id, mutation.ifMatch);
        return this.updateNow(mutation.annotation);
      case 'delete_annotation':
        if (mutation.ifMatch !== undefined) this.checkPrecondition(mutation.id, mutation.ifMatch);
        if (this.deleteNow(mutation.id) === null) throw new AnnotationNotFoundError(`annotation ${mutation.id} not found`);
        return;
      case 'set_meta':
        return this.setMetaNow(mutation.key, mutation.value);
    }
  }

  private checkPrecondition(id: string, ifMatch: string): void {
    const row = isUuid(id) ? (this.stmt.getById.get(idToBlob(id)) as Row | undefined) : undefined;
    if (row === undefined) throw new AnnotationNotFoundError(`annotation ${id} not found`);
    const etag = annotationEtag(decode(row));
    if (!ifMatchSatisfied(ifMatch, etag)) throw new PreconditionFailedError(id, etag, ifMatch);
  }

  private addTierNow(tier: Tier): void {
    if (tier.parent !== null && this.stmt.getTier.get(tier.parent) === undefined) {
      throw new UnknownTierError(`tier "${tier.name}" names parent "${tier.parent}", which the store has not registered; add the parent tier first`);
    }
    this.stmt.upsertTier.run(tier.name, tier.stereotype, tier.parent, JSON.stringify(tier.metadata));
    this.tierNames.add(tier.name);
  }

  private updateNow(annotation: Annotation): void {
    this.refresh();
    this.checkTier(annotation);
    const blob = idToBlob(annotation.id);
    const key = this.stmt.keyById.get(blob) as [seq: number, durClass: number | null, startF: number | null] | undefined;
    if (key === undefined) throw new AnnotationNotFoundError(`update: the store holds no annotation ${annotation.id}; add it instead`);
    this.reads.changed(key[0], key[1] === null ? null : { durClass: key[1], startF: key[2] as number });
    const params = this.encode(annotation).slice(1);
    params.push(blob);
    this.stmt.update.run(params);
  }

  private deleteNow(id: string): Annotation | null {
    if (!isUuid(id)) return null;
    this.refresh();
    const row = this.stmt.deleteById.get(idToBlob(id)) as [...Row, seq: number, durClass: number | null, startF: number | null] | undefined;
    if (row === undefined) return null;
    this.reads.changed(row[10], row[11] === null ? null : { durClass: row[11], startF: row[12] as number });
    return decode(row as unknown as Row);
  }

  private setMetaNow(key: string, value: string): void {
    if (typeof key !== 'string' || typeof value !== 'string') throw new InvalidInputError('setMeta: key and value must be strings');
    this.stmt.setMeta.run(key, value);
  }

  /** Deletes every row at exactly `key` (by value, any rate) and returns how many. */
  private removeAt(key: TimeInterval): number {
    this.refresh();
    const range = keyRange(key);
    let removed = 0;
    for (const row of this.stmt.keyCandidates.all(range.durClass, range.startLo, range.startHi, range.endLo, range.endHi) as KeyRow[]) {
      const interval = new TimeInterval(new RationalTime(row[2], row[3]), new RationalTime(row[4], row[5]));
      if (!interval.equals(key)) continue;
      this.reads.changed(row[1], { durClass: range.durClass, startF: row[0] });
      this.stmt.deleteBySeq.run(row[1]);
      removed++;
    }
    return removed;
  }

  /** The row values of sqlite-rows.ts, registering a duration class the file has not seen. */
  private encode(annotation: Annotation): unknown[] {
    const values = encodeRow(annotation);
    const durClass = values[DUR_CLASS_PARAM] as number | null;
    if (durClass !== null && !this.classSet.has(durClass)) {
      this.stmt.addClass.run(durClass);
      this.classSet.add(durClass);
      this.classes = [...this.classSet].sort((a, b) => a - b);
    }
    return values;
  }

  private checkTier(annotation: Annotation): void {
    if (this.tierNames.has(annotation.tier)) return;
    if (this.stmt.getTier.get(annotation.tier) !== undefined) {
      this.tierNames.add(annotation.tier);
      return;
    }
    throw new UnknownTierError(
      `annotation ${annotation.id} names tier "${annotation.tier}", which the store has not registered; add the tier first (addTier)`,
    );
  }

  private writable(): void {
    if (this.readonly) throw new InvalidInputError(`${this.path} is open read-only; open it without readonly to change it`);
  }

  // --- reads ------------------------------------------------------------------------------------

  private select(ranges: readonly CandidateRange[], keep: (interval: TimeInterval) => boolean, tier?: string): Annotation[] {
    return selectWindow(this.stmt, ranges, keep, tier);
  }

  /** The duration classes present, re-read when another connection has committed since we last looked. */
  private knownClasses(): number[] {
    this.refresh();
    return this.classes;
  }

  private refresh(): void {
    const version = this.stmt.dataVersion.get() as number;
    if (version === this.seenDataVersion) return;
    this.seenDataVersion = version;
    this.reads.reset();
    this.classSet = new Set(this.stmt.listClasses.all() as number[]);
    this.classes = [...this.classSet].sort((a, b) => a - b);
    this.tierNames = new Set(this.stmt.listTierNames.all() as string[]);
  }

  /**
   * Runs `work` in one BEGIN IMMEDIATE transaction (a savepoint when one is already open). A write
   * the disk refuses (full, over the file size limit, read-only) is one typed error naming the file.
   */
  private immediate<T>(work: () => T): T {
    try {
      return this.runImmediate(work) as T;
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** A write the disk refused (full, over the file size limit, read-only) or another writer's lock past the timeout, as one typed error naming the file. */
  private failure(error: unknown): unknown {
    return writeFailure(error, this.path) ?? busyAsInUse(error, this.path, this.busyTimeoutMs);
  }

  /** Waits while an async addMany holds the connection's transaction. */
  private async idle(): Promise<void> {
    while (this.busy !== null) await this.busy;
  }

  private lock(): () => void {
    let release!: () => void;
    this.busy = new Promise<void>((resolve) => {
      release = () => {
        this.busy = null;
        resolve();
      };
    });
    return release;
  }
}

