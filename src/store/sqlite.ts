import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync } from 'node:fs';
import { InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import { annotationInterval, type Annotation, type Reference } from '../model/annotation.js';
import { isUuid, normalizeUuid } from '../model/ids.js';
import type { JsonObject } from '../json/json-body.js';
import { makeTier, type Tier } from '../model/tier.js';
import { holds } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { AnnotationNotFoundError, DuplicateAnnotationIdError, KeyMismatchError, StoreFormatError, UnknownTierError } from './errors.js';
import { IntervalQueryShortcuts, type IntervalQueryKind } from './interval-query-shortcuts.js';
import { compareIds } from './ordering.js';
import { matchesIntersects, matchesRelations } from './relation-filter.js';
import { hasWal, inspectAnnotFile, removeReaderSideFiles, type AnnotFileState } from './sqlite-file.js';
import { candidateRanges, durationClass, keyRange, seconds, type CandidateRange } from './sqlite-interval-index.js';
import { migrationPath, runMigrations } from './sqlite-migrations.js';
import { ANNOT_APPLICATION_ID, CREATE_SCHEMA_V1, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';
import type { WireJsonOptions } from '../model/wire-json.js';
import { WIRE_SELECT, hexToId, wireJsonOfWindow, type WireRow } from './sqlite-wire-json.js';
import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import { PreconditionFailedError } from '../oplog/errors.js';
import type { Mutation } from '../oplog/mutation.js';
import { entryFor, type MutationContext, type OpLogEntry } from '../oplog/op-log-entry.js';
import type { OpLoggedStore, OpLogRange } from '../oplog/op-logged-store.js';
import type { AddTierOptions } from './store.js';

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
 * The columns every read selects, in this order (rows are read as arrays). Each value crossing
 * from SQLite costs about as much as the row lookup itself, so a read takes ten values, not
 * seventeen: the strings that repeat from row to row come packed into one JSON array (decoded
 * once per distinct array, see decodeShared), and the id comes as hex text (a Buffer per row
 * cost more than the string, see blobToId).
 */
const SELECT = 'lower(hex(id)), json_array(tier, ref_kind, asset_id, target_id, body_schema_uri, generated_by, attributed_to, json(derived_from)), ' +
  'start_v, start_r, end_v, end_r, generated_at_v, generated_at_r, body, confidence';
type Row = [
  hexId: string, shared: string, startV: number | null, startR: number | null, endV: number | null, endR: number | null,
  generatedAtV: number, generatedAtR: number, body: string, confidence: number | null,
];
type PagedRow = [...Row, seq: number];
type KeyRow = [startF: number, seq: number, startV: number, startR: number, endV: number, endR: number];

/** The columns every write sets, in this order. */
const WRITE_COLUMNS = [
  'tier', 'ref_kind', 'asset_id', 'target_id', 'start_v', 'start_r', 'end_v', 'end_r', 'start_f', 'end_f', 'dur_class',
  'body', 'body_schema_uri', 'generated_by', 'attributed_to', 'derived_from', 'generated_at_v', 'generated_at_r', 'confidence',
];

const RANGE = 'dur_class = ? AND start_f BETWEEN ? AND ? AND end_f BETWEEN ? AND ?';
const PAGE = 512;
/** A batch that grows past this into an empty file drops the two indexes and rebuilds them at commit (a sort, not a million random inserts). */
const BULK_LOAD_ROWS = 20_000;

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
 */
export class SqliteStore extends IntervalQueryShortcuts implements OpLoggedStore {
  readonly kind = 'sqlite';

  private readonly db: Database.Database;
  private readonly stmt: ReturnType<typeof prepareStatements>;
  /** One BEGIN IMMEDIATE wrapper for every write: better-sqlite3 builds a new one per db.transaction() call, which cost ~5% of a create. */
  private readonly runImmediate: (work: () => unknown) => unknown;
  private tierNames = new Set<string>();
  private classes: number[] = [];
  private classSet = new Set<number>();
  private seenDataVersion = -1;
  /** Held while an addMany over an async iterable keeps its transaction open across awaits. */
  private busy: Promise<void> | null = null;

  private constructor(
    readonly path: string,
    db: Database.Database,
    readonly readonly: boolean,
    /** A read-only open of a file nobody else had open: close() removes the side files it made. */
    private readonly cleanSideFiles: boolean,
    private readonly scratch: boolean,
  ) {
    super();
    this.db = db;
    this.stmt = prepareStatements(db);
    this.runImmediate = db.transaction((work: () => unknown) => work()).immediate;
  }

  /** Opens (or creates) the `.annot` file at `path`; `:memory:` gives a private in-memory store. */
  static async open(path: string, options: SqliteStoreOptions = {}): Promise<SqliteStore> {
    const readonly = options.readonly ?? false;
    const inMemory = path === ':memory:';
    if (inMemory && readonly) throw new InvalidInputError('an in-memory store cannot be read-only: it starts empty');
    let state: AnnotFileState;
    if (inMemory) {
      state = { kind: 'fresh' };
    } else if (!existsSync(path)) {
      if (readonly || options.create === false) {
        throw new NotFoundError(`${path}: no such .annot file${readonly ? '' : ' (open it with create: true to make one)'}`);
      }
      state = { kind: 'fresh' };
    } else {
      state = inspectAnnotFile(path);
    }
    if (readonly && state.kind === 'fresh') throw new StoreFormatError(`${path} is not an .annot file: it is empty`);
    // Plan the migrations (and refuse an unreachable version) before anything touches the file.
    const steps = state.kind === 'annot' ? migrationPath(path, state.version) : [];
    if (readonly && steps.length > 0) {
      throw new StoreFormatError(
        `${path}: schema_version ${(state as { version: number }).version} needs upgrading to ${SQLITE_SCHEMA_VERSION}; open it once without readonly to migrate it`,
      );
    }
    const cleanSideFiles = readonly && !hasWal(path);
    const db = new Database(path, { readonly, fileMustExist: readonly });
    try {
      db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      if (options.scratch && !readonly) {
        // Pages of a new file need no journal to roll back; the in-memory journal covers the rest.
        db.pragma('cache_size = -16384');
        db.pragma('journal_mode = MEMORY');
        db.pragma('synchronous = OFF');
      } else {
        db.pragma('cache_size = -65536');
        if (!readonly) {
          db.pragma('journal_mode = WAL');
          // WAL with synchronous=NORMAL cannot corrupt the file; a power cut may lose the last commits.
          db.pragma('synchronous = NORMAL');
        }
      }
      if (state.kind === 'fresh') initialize(db);
      else runMigrations(db, path, steps);
      return new SqliteStore(path, db, readonly, cleanSideFiles, Boolean(options.scratch) && !readonly);
    } catch (error) {
      db.close();
      if (cleanSideFiles) removeReaderSideFiles(path);
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

  async add(annotation: Annotation): Promise<void> {
    await this.addMany([annotation]);
  }

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
      throw error;
    } finally {
      release();
    }
  }

  async get(id: string): Promise<Annotation | null> {
    await this.idle();
    if (!isUuid(id)) return null;
    const row = this.stmt.getById.get(idToBlob(id)) as Row | undefined;
    return row === undefined ? null : decode(row);
  }

  async update(annotation: Annotation): Promise<void> {
    this.writable();
    await this.idle();
    this.updateNow(annotation);
  }

  async delete(id: string): Promise<Annotation | null> {
    this.writable();
    await this.idle();
    return this.deleteNow(id);
  }

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

  async addTier(tier: Tier, _options: AddTierOptions = {}): Promise<void> {
    this.writable();
    await this.idle();
    this.immediate(() => this.addTierNow(tier));
  }

  async getTier(name: string): Promise<Tier | null> {
    await this.idle();
    const row = this.stmt.getTier.get(name) as TierRow | undefined;
    return row === undefined ? null : decodeTier(row);
  }

  async listTiers(): Promise<Tier[]> {
    await this.idle();
    return (this.stmt.listTiers.all() as TierRow[]).map(decodeTier);
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.writable();
    await this.idle();
    this.setMetaNow(key, value);
  }

  async getMeta(key: string): Promise<string | null> {
    await this.idle();
    return (this.stmt.getMeta.get(key) as string | undefined) ?? null;
  }

  async listMeta(): Promise<Record<string, string>> {
    await this.idle();
    const out: Record<string, string> = {};
    for (const [key, value] of this.stmt.listMeta.all() as [string, string][]) out[key] = value;
    return out;
  }

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
   * intersects (or atTier with a tier) as wire JSON texts, straight from the rows: the read fast
   * path of GET /annotations and `annot query` (sqlite-wire-json.ts).
   */
  async intersectsWireJson(query: TimeInterval, tier?: string, options: WireJsonOptions = {}): Promise<string[]> {
    await this.idle();
    const rows: WireRow[] = [];
    for (const r of candidateRanges(query, ['intersects'], this.knownClasses())) {
      const batch = (tier === undefined
        ? this.stmt.wireCandidates.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi)
        : this.stmt.wireTierCandidates.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi, tier)) as WireRow[];
      for (const row of batch) rows.push(row);
    }
    return wireJsonOfWindow(rows, query, options);
  }

  async byTier(tier: string): Promise<Annotation[]> {
    await this.idle();
    return (this.stmt.byTier.all(tier) as Row[]).map((row) => decode(row));
  }

  async atTier(tier: string, query: TimeInterval): Promise<Annotation[]> {
    await this.idle();
    return this.select(candidateRanges(query, ['intersects'], this.knownClasses()), (x) => matchesIntersects(x, query), tier);
  }

  async getAt(key: TimeInterval): Promise<Annotation[]> {
    await this.idle();
    return this.select([keyRange(key)], (x) => x.equals(key));
  }

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

  async deleteAt(key: TimeInterval): Promise<number> {
    this.writable();
    await this.idle();
    return this.immediate(() => this.removeAt(key));
  }

  /** Distinct intervals by value, ordered by start then end: a merge of one rowid-keyed page stream per duration class. */
  async *intervals(): AsyncIterable<TimeInterval> {
    await this.idle();
    const cursors = this.knownClasses().map((c) => new ClassCursor(this.stmt.keyPage, c));
    for (;;) {
      await this.idle();
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
      let additions: ReturnType<SqliteStore['beginBatch']> | null = null;
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

  async latestClock(): Promise<number> {
    await this.idle();
    return (this.stmt.latestClock.get() as number | null) ?? 0;
  }

  async readOpLog({ fromClock = 1, untilClock = Number.MAX_SAFE_INTEGER, limit = Number.MAX_SAFE_INTEGER }: OpLogRange = {}): Promise<OpLogEntry[]> {
    await this.idle();
    const rows = this.stmt.readOps.all(fromClock, untilClock, Math.min(limit, Number.MAX_SAFE_INTEGER)) as OpRow[];
    return rows.map(([clock, kind, target_id, payload, actor, received_at]) => ({
      clock,
      kind: kind as OpLogEntry['kind'],
      target_id,
      payload: JSON.parse(payload) as JsonObject,
      actor,
      received_at: JSON.parse(received_at) as OpLogEntry['received_at'],
    }));
  }

  async close(): Promise<void> {
    await this.idle();
    if (!this.db.open) return;
    // A scratch file becomes a store others read once renamed: WAL like every .annot, then synced.
    if (this.scratch) this.db.pragma('journal_mode = WAL');
    this.db.close();
    if (this.scratch) syncFile(this.path);
    if (this.cleanSideFiles) removeReaderSideFiles(this.path);
  }

  // --- writes -----------------------------------------------------------------------------------

  /**
   * Inserts of one transaction. Into an empty file, past BULK_LOAD_ROWS the indexes are dropped and
   * rebuilt by finish(), inside the same transaction: a duplicate id then shows up as the unique
   * index failing to build, and the whole batch rolls back as usual.
   */
  private beginBatch(): { insert(annotation: Annotation): void; finish(): number } {
    this.refresh();
    // Whether the file was empty before this batch is asked only once the batch is big enough to
    // matter (then the file holds exactly this batch's rows): one query less per single create.
    let added = 0;
    let dropped = false;
    return {
      insert: (annotation: Annotation) => {
        this.checkTier(annotation);
        try {
          this.stmt.insert.run(this.encode(annotation));
        } catch (error) {
          if (isUniqueViolation(error)) throw duplicate(annotation.id);
          throw error;
        }
        added++;
        if (added === BULK_LOAD_ROWS && (this.stmt.count.get() as number) === BULK_LOAD_ROWS) {
          this.db.exec('DROP INDEX annotations_id; DROP INDEX annotations_interval');
          dropped = true;
        }
      },
      finish: () => {
        if (dropped) {
          try {
            this.db.exec(CREATE_ID_INDEX);
          } catch (error) {
            if (!isUniqueViolation(error)) throw error;
            const twice = this.db.prepare('SELECT id FROM annotations GROUP BY id HAVING count(*) > 1 LIMIT 1').pluck().get() as Buffer;
            throw duplicate(blobToId(twice));
          }
          this.db.exec(CREATE_INTERVAL_INDEX);
        }
        return added;
      },
    };
  }

  /** Deletes every row at exactly `key` (by value, any rate) and returns how many. */
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
    const params = this.encode(annotation).slice(1);
    params.push(idToBlob(annotation.id));
    const { changes } = this.stmt.update.run(params);
    if (changes === 0) throw new AnnotationNotFoundError(`update: the store holds no annotation ${annotation.id}; add it instead`);
  }

  private deleteNow(id: string): Annotation | null {
    if (!isUuid(id)) return null;
    const row = this.stmt.deleteById.get(idToBlob(id)) as Row | undefined;
    return row === undefined ? null : decode(row);
  }

  private setMetaNow(key: string, value: string): void {
    if (typeof key !== 'string' || typeof value !== 'string') throw new InvalidInputError('setMeta: key and value must be strings');
    this.stmt.setMeta.run(key, value);
  }

  private removeAt(key: TimeInterval): number {
    const range = keyRange(key);
    let removed = 0;
    for (const row of this.stmt.keyCandidates.all(range.durClass, range.startLo, range.startHi, range.endLo, range.endHi) as KeyRow[]) {
      const interval = new TimeInterval(new RationalTime(row[2], row[3]), new RationalTime(row[4], row[5]));
      if (!interval.equals(key)) continue;
      this.stmt.deleteBySeq.run(row[1]);
      removed++;
    }
    return removed;
  }

  private encode(annotation: Annotation): unknown[] {
    const { reference, provenance } = annotation;
    const derived = provenance.was_derived_from;
    const common = [
      JSON.stringify(annotation.body), annotation.body_schema_uri, provenance.was_generated_by, provenance.was_attributed_to,
      derived.length === 0 ? '[]' : JSON.stringify(derived), provenance.generated_at_time.v, provenance.generated_at_time.r,
      annotation.confidence,
    ];
    if (reference.kind === 'annotation') {
      return [idToBlob(annotation.id), annotation.tier, 'annotation', null, reference.target_id, null, null, null, null, null, null, null, ...common];
    }
    const { start, end } = reference.interval;
    const { startF, endF } = seconds(reference.interval);
    const durClass = durationClass(startF, endF);
    if (!this.classSet.has(durClass)) {
      this.stmt.addClass.run(durClass);
      this.classSet.add(durClass);
      this.classes = [...this.classSet].sort((a, b) => a - b);
    }
    return [idToBlob(annotation.id), annotation.tier, 'media', reference.asset_id, null, start.v, start.r, end.v, end.r, startF, endF, durClass, ...common];
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
    const hits: Hit[] = [];
    for (const r of ranges) {
      const rows = (tier === undefined
        ? this.stmt.candidates.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi)
        : this.stmt.tierCandidates.all(r.durClass, r.startLo, r.startHi, r.endLo, r.endHi, tier)) as Row[];
      for (const row of rows) {
        const interval = new TimeInterval(new RationalTime(row[2] as number, row[3] as number), new RationalTime(row[4] as number, row[5] as number));
        if (keep(interval)) hits.push({ annotation: decode(row, interval), interval, startF: (row[2] as number) / (row[3] as number), endF: (row[4] as number) / (row[5] as number) });
      }
    }
    return hits.sort(compareHits).map((hit) => hit.annotation);
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
    this.classSet = new Set(this.stmt.listClasses.all() as number[]);
    this.classes = [...this.classSet].sort((a, b) => a - b);
    this.tierNames = new Set(this.stmt.listTierNames.all() as string[]);
  }

  /** Runs `work` in one BEGIN IMMEDIATE transaction (a savepoint when one is already open). */
  private immediate<T>(work: () => T): T {
    return this.runImmediate(work) as T;
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

const CREATE_ID_INDEX = 'CREATE UNIQUE INDEX annotations_id ON annotations (id)';
const CREATE_INTERVAL_INDEX = 'CREATE INDEX annotations_interval ON annotations (dur_class, start_f)';

function initialize(db: Database.Database): void {
  db.transaction(() => {
    // Another process may have created the file between our check and this write lock.
    const exists = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta'").get() !== undefined;
    if (exists) return;
    db.exec(CREATE_SCHEMA_V1);
    db.pragma(`application_id = ${ANNOT_APPLICATION_ID}`);
    const stamp = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    stamp.run('schema_version', String(SQLITE_SCHEMA_VERSION));
    stamp.run('created_at', new Date().toISOString());
  }).immediate();
}

type TierRow = [name: string, stereotype: string, parent: string | null, metadata: string];
type OpRow = [clock: number, kind: string, target_id: string | null, payload: string, actor: string, received_at: string];

function prepareStatements(db: Database.Database) {
  const insertColumns = ['id', ...WRITE_COLUMNS];
  return {
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    latestClock: db.prepare('SELECT max(clock) FROM oplog').pluck(),
    appendOp: db.prepare('INSERT INTO oplog (clock, kind, target_id, payload, actor, received_at) VALUES (?, ?, ?, ?, ?, ?)'),
    readOps: db.prepare('SELECT clock, kind, target_id, payload, actor, received_at FROM oplog WHERE clock >= ? AND clock <= ? ORDER BY clock LIMIT ?').raw(),
    getFileMeta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
    insert: db.prepare(`INSERT INTO annotations (${insertColumns.join(', ')}) VALUES (${insertColumns.map(() => '?').join(', ')})`),
    update: db.prepare(`UPDATE annotations SET ${WRITE_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`),
    getById: db.prepare(`SELECT ${SELECT} FROM annotations WHERE id = ?`).raw(),
    deleteById: db.prepare(`DELETE FROM annotations WHERE id = ? RETURNING ${SELECT}`).raw(),
    deleteBySeq: db.prepare('DELETE FROM annotations WHERE seq = ?'),
    count: db.prepare('SELECT count(*) FROM annotations').pluck(),
    page: db.prepare(`SELECT ${SELECT}, seq FROM annotations WHERE seq > ? ORDER BY seq LIMIT ?`).raw(),
    byTier: db.prepare(`SELECT ${SELECT} FROM annotations WHERE tier = ? ORDER BY seq`).raw(),
    candidates: db.prepare(`SELECT ${SELECT} FROM annotations WHERE ${RANGE}`).raw(),
    tierCandidates: db.prepare(`SELECT ${SELECT} FROM annotations WHERE ${RANGE} AND tier = ?`).raw(),
    wireCandidates: db.prepare(`SELECT ${WIRE_SELECT} FROM annotations WHERE ${RANGE}`).raw(),
    wireTierCandidates: db.prepare(`SELECT ${WIRE_SELECT} FROM annotations WHERE ${RANGE} AND tier = ?`).raw(),
    keyCandidates: db.prepare(`SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations WHERE ${RANGE}`).raw(),
    keyPage: db.prepare(
      'SELECT start_f, seq, start_v, start_r, end_v, end_r FROM annotations ' +
        'WHERE dur_class = ? AND (start_f, seq) > (?, ?) ORDER BY start_f, seq LIMIT ?',
    ).raw(),
    addClass: db.prepare('INSERT OR IGNORE INTO interval_classes (class) VALUES (?)'),
    listClasses: db.prepare('SELECT class FROM interval_classes').pluck(),
    listTierNames: db.prepare('SELECT name FROM tiers').pluck(),
    getTier: db.prepare('SELECT name, stereotype, parent, metadata FROM tiers WHERE name = ?').raw(),
    listTiers: db.prepare('SELECT name, stereotype, parent, metadata FROM tiers ORDER BY seq').raw(),
    upsertTier: db.prepare(
      'INSERT INTO tiers (name, stereotype, parent, metadata) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (name) DO UPDATE SET stereotype = excluded.stereotype, parent = excluded.parent, metadata = excluded.metadata',
    ),
    setMeta: db.prepare('INSERT INTO user_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    getMeta: db.prepare('SELECT value FROM user_meta WHERE key = ?').pluck(),
    listMeta: db.prepare('SELECT key, value FROM user_meta ORDER BY key').raw(),
  };
}

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

// --- row codec ----------------------------------------------------------------------------------

/** A UUID as its 16 bytes. Ids reaching the store are valid lower-case UUIDs (makeAnnotation checks). */
function idToBlob(id: string): Buffer {
  return Buffer.from(normalizeUuid(id).replace(/-/g, ''), 'hex');
}

function blobToId(blob: Buffer): string {
  return hexToId(blob.toString('hex'));
}

interface Shared {
  readonly tier: string;
  readonly refKind: string;
  readonly assetId: string | null;
  readonly targetId: string | null;
  readonly bodySchemaUri: string;
  readonly generatedBy: string;
  readonly attributedTo: string;
  readonly derivedFrom: readonly string[];
}

/**
 * The repeating strings of a row, decoded once per distinct text: rows of one import share their
 * tier, asset, schema and provenance agents, so a window query decodes them about once. The frozen
 * was_derived_from array is shared between the annotations that have equal ones (it is immutable).
 * Bounded: cleared when it holds too many distinct texts.
 */
const sharedCache = new Map<string, Shared>();
const SHARED_CACHE_LIMIT = 4096;

function decodeShared(text: string): Shared {
  let shared = sharedCache.get(text);
  if (shared === undefined) {
    const [tier, refKind, assetId, targetId, bodySchemaUri, generatedBy, attributedTo, derivedFrom] = JSON.parse(text) as [
      string, string, string | null, string | null, string, string, string, string[],
    ];
    shared = { tier, refKind, assetId, targetId, bodySchemaUri, generatedBy, attributedTo, derivedFrom: Object.freeze(derivedFrom) };
    if (sharedCache.size >= SHARED_CACHE_LIMIT) sharedCache.clear();
    sharedCache.set(text, shared);
  }
  return shared;
}

/**
 * A row back into the frozen record makeAnnotation would build. Rows were checked when written,
 * so they are not re-validated; that keeps a window query close to the cost of the fetch itself.
 */
function decode(row: Row | PagedRow, knownInterval?: TimeInterval): Annotation {
  const shared = decodeShared(row[1]);
  let reference: Reference;
  if (shared.refKind === 'media') {
    const interval = knownInterval ?? new TimeInterval(new RationalTime(row[2] as number, row[3] as number), new RationalTime(row[4] as number, row[5] as number));
    reference = Object.freeze({ kind: 'media', asset_id: shared.assetId as string, interval });
  } else {
    reference = Object.freeze({ kind: 'annotation', target_id: shared.targetId as string });
  }
  return Object.freeze({
    id: hexToId(row[0]),
    tier: shared.tier,
    reference,
    body: deepFreeze(JSON.parse(row[8])) as JsonObject,
    body_schema_uri: shared.bodySchemaUri,
    provenance: Object.freeze({
      was_generated_by: shared.generatedBy,
      was_attributed_to: shared.attributedTo,
      was_derived_from: shared.derivedFrom,
      generated_at_time: new RationalTime(row[6], row[7]),
    }),
    confidence: row[9],
  });
}

function deepFreeze(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

function decodeTier(row: TierRow): Tier {
  return makeTier({ name: row[0], stereotype: row[1] as Tier['stereotype'], parent: row[2], metadata: JSON.parse(row[3]) as Record<string, unknown> });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function duplicate(id: string): DuplicateAnnotationIdError {
  return new DuplicateAnnotationIdError(`annotation id ${id} is already in the store (or twice in the batch); ids are unique`);
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
