/**
 * The PostgreSQL store: a project of a PostgreSQL database as an op-logged AnnotationStore
 * (PostgresStore.open with a `postgres://...?project=` URL). It keeps pg out of programs that import
 * only `annot`.
 *
 * @packageDocumentation
 * @module annot/postgres
 */

import pg from 'pg';
import { InvalidInputError } from '../errors/annot-error.js';
import { annotationInterval, type Annotation } from '../model/annotation.js';
import { isUuid } from '../model/ids.js';
import type { JsonObject } from '../json/json-body.js';
import type { Tier } from '../model/tier.js';
import type { Mutation, MutationKind } from '../oplog/mutation.js';
import { entryFor, type MutationContext, type OpLogEntry } from '../oplog/op-log-entry.js';
import type { OpLoggedStore, OpLogRange } from '../oplog/op-logged-store.js';
import { holds } from '../time/allen.js';
import { RationalTime } from '../time/rational-time.js';
import { TimeInterval } from '../time/time-interval.js';
import { DuplicateAnnotationIdError, KeyMismatchError } from './errors.js';
import { IntervalQueryShortcuts, type IntervalQueryKind } from './interval-query-shortcuts.js';
import { candidateBounds, matchesIntersects, matchesRelations } from './relation-filter.js';
import { storeFailure, type StoreTarget } from './postgres-failure.js';
import { storePool } from './postgres-pool.js';
import { openProject } from './postgres-project.js';
import { PG_SCHEMA } from './postgres-schema.js';
import { parseStoreUrl } from './postgres-url.js';
import { ProjectRate, ROW_JSON, SELECT_COLUMNS, clampInt8, decodeAnnotation, decodeTier, decodeTuple, spanText, type AnnotationRow, type TierRow } from './postgres-rows.js';
import { PendingOverlap, PgWriter, overlapConstraintName, resolveOverlap } from './postgres-writer.js';
import {
  checkLimit, compareIntervalKeys, inForm, insertionPosition, intervalKeyOf, intervalPosition, resumeKey,
  type IntervalKey, type ReadForm, type ReadItem, type ReadOptions, type ReadPage, type ReadQuery,
} from './read-page.js';
import type { AddTierOptions } from './store.js';

export { parseStoreUrl, redactStoreUrl, type StoreUrl } from './postgres-url.js';

/**
 * The default project rate: 705,600,000 ticks a second (a "flick"). Every common audio sample
 * rate (8k ... 192k, 44.1k, 22.05k) and frame rate (24, 25, 30, 48, 50, 60, 90, 120, and the
 * NTSC 30000/1001 family) divides it, as do millisecond and 1/10000 s clocks, so times from real
 * media normalise exactly; int8 ticks at this rate still span about 400 years.
 */
export const DEFAULT_PROJECT_RATE = 705_600_000;

/** Options of PostgresStore.open. */
export interface PostgresStoreOptions {
  /** The project to open. Default: the URL's `?project=`, else 'default'. */
  project?: string;
  /**
   * Create the project when the database does not hold it (and annot's schema in an empty
   * database). False makes a missing project a ProjectNotFoundError with a did-you-mean, which is
   * what every read wants: reading never creates. Default true.
   */
  create?: boolean;
  /**
   * The rate a new project normalises every interval to. An existing project keeps the rate it
   * was created with; naming another one is a ProjectRateMismatchError. Default DEFAULT_PROJECT_RATE.
   */
  rate?: number;
  /** A pool to use instead of one made from the URL; close() leaves it open. */
  pool?: pg.Pool;
  /** Connections in the pool the store makes. Default 8. */
  maxConnections?: number;
}

const T = PG_SCHEMA;
const PAGE = 1000;

/**
 * An AnnotationStore (and OpLoggedStore) in PostgreSQL, for many writers and millions of
 * annotations. The layout is in postgres-schema.ts: several projects share one database, each
 * row scoped by the project's number; every interval is normalised exactly to the project's
 * rate, so windows are answered by a GiST index on int8range spans, then rechecked with the
 * exact rational relations every store uses; reads return each time at the rate it was given.
 *
 * Writes are transactions on a pooled connection (addMany, setAt and deleteAt included), so a
 * refused batch leaves nothing behind. The op-log lives in the same database: applyLogged takes
 * the project's clock row lock, applies the batch and appends its entries in one transaction, so
 * every process and machine using the project shares one strictly increasing clock.
 * `addTier(tier, {enforceNoOverlap: true})` adds a per-tier exclusion constraint, so the database
 * itself refuses an overlapping write (TierOverlapError, naming both annotations).
 */
export class PostgresStore extends IntervalQueryShortcuts implements OpLoggedStore {
  /** What kind of store this is: 'memory', 'mapping', 'sqlite' or 'postgres'. */
  readonly kind = 'postgres';

  private closed = false;

  /** The project's name. */
  readonly project: string;
  /** Where the store lives, without credentials, for messages. */
  readonly where: string;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly ownsPool: boolean,
    /** What failure messages may say about the server (never its credentials). */
    private readonly target: StoreTarget & { readonly project: string },
    private readonly pid: number,
    private readonly projectRate: ProjectRate,
  ) {
    super();
    this.project = target.project;
    this.where = target.where;
  }

  /** The rate every interval of this project is normalised to. */
  get rate(): number {
    return this.projectRate.rate;
  }

  /**
   * Connects, creates or migrates the layout, and opens the project (creating it unless
   * `create: false`). `url` is a `postgres://` URL; its `?project=` query parameter names the
   * project unless options do. A connection that fails is a typed error naming what is wrong
   * (database, role, password, address, timeout); no message carries the URL's password.
   */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const target = parseStoreUrl(url, options.project);
    const rate = options.rate;
    if (rate !== undefined && !(Number.isSafeInteger(rate) && rate > 0)) {
      throw new InvalidInputError(`rate: expected a positive whole number of ticks per second, got ${String(rate)}`);
    }
    const ownsPool = options.pool === undefined;
    const pool = options.pool ?? storePool({ connectionString: target.connectionString, max: options.maxConnections ?? 8, connectionTimeoutMillis: target.connectTimeoutMs });
    // An idle pooled connection that the server drops must not crash the process; the next query reconnects.
    if (ownsPool) pool.on('error', () => undefined);
    try {
      const client = await pool.connect();
      try {
        const project = await openProject(client, target, { create: options.create ?? true, rate, defaultRate: DEFAULT_PROJECT_RATE });
        return new PostgresStore(pool, ownsPool, target, project.pid, new ProjectRate(project.rate, target.project));
      } finally {
        client.release();
      }
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => undefined);
      throw storeFailure(error, target);
    }
  }

  /**
   * Adds an annotation (DuplicateAnnotationIdError when its id is taken, UnknownTierError when its tier is not registered).
   */
  async add(annotation: Annotation): Promise<void> {
    await this.write((w) => w.insert([annotation]));
  }

  /** One transaction, streamed through COPY as the iterable yields: all of it is written, or none. */
  async addMany(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number> {
    return this.write((w) => w.bulkInsert(annotations));
  }

  /** The annotation with this id, or null. */
  async get(id: string): Promise<Annotation | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.query<AnnotationRow>(`SELECT ${SELECT_COLUMNS} FROM ${T}.annotations WHERE pid = $1 AND id = $2::uuid`, [this.pid, id]);
    return rows.length === 0 ? null : decodeAnnotation(rows[0]);
  }

  /**
   * Replaces the annotation with the same id, keeping its place in insertion order (AnnotationNotFoundError when absent).
   */
  async update(annotation: Annotation): Promise<void> {
    await this.write((w) => w.update(annotation));
  }

  /** Removes the annotation with this id; returns it, or null when there was none. */
  async delete(id: string): Promise<Annotation | null> {
    if (!isUuid(id)) return null;
    return this.write((w) => w.delete(id));
  }

  /** Number of annotations, interval-less ones included. */
  async count(): Promise<number> {
    const { rows } = await this.query<{ n: string }>(`SELECT count(*) AS n FROM ${T}.annotations WHERE pid = $1`, [this.pid]);
    return Number(rows[0].n);
  }

  /** Every annotation in insertion order, a page at a time by sequence number (writes between pages are fine). */
  async *all(): AsyncIterable<Annotation> {
    let after = '0';
    for (;;) {
      const tuples = await this.tuples(
        `(SELECT * FROM ${T}.annotations WHERE pid = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}) AS page`, 'seq', [this.pid, after],
      );
      for (const tuple of tuples) yield decodeTuple(tuple);
      if (tuples.length < PAGE) return;
      after = String(tuples[tuples.length - 1][17]);
    }
  }

  /** Registers a tier, or replaces the one of the same name (its parent must be registered first). */
  async addTier(tier: Tier, options: AddTierOptions = {}): Promise<void> {
    await this.write((w) => w.addTier(tier, options.enforceNoOverlap ?? false));
  }

  /** The tier of this name, or null. */
  async getTier(name: string): Promise<Tier | null> {
    const { rows } = await this.query<TierRow>(`SELECT name, stereotype, parent, metadata FROM ${T}.tiers WHERE pid = $1 AND name = $2`, [this.pid, name]);
    return rows.length === 0 ? null : decodeTier(rows[0]);
  }

  /** Every registered tier. */
  async listTiers(): Promise<Tier[]> {
    const { rows } = await this.query<TierRow>(`SELECT name, stereotype, parent, metadata FROM ${T}.tiers WHERE pid = $1 ORDER BY seq`, [this.pid]);
    return rows.map(decodeTier);
  }

  /** Whether the database refuses overlapping annotations in the tier (addTier with enforceNoOverlap). */
  async isNoOverlapEnforced(name: string): Promise<boolean> {
    const { rows } = await this.query<{ on: boolean }>(`SELECT enforce_no_overlap AS on FROM ${T}.tiers WHERE pid = $1 AND name = $2`, [this.pid, name]);
    return rows[0]?.on ?? false;
  }

  /** Sets a metadata value of the store (a string under a key). */
  async setMeta(key: string, value: string): Promise<void> {
    if (typeof key !== 'string' || typeof value !== 'string') {
      throw new InvalidInputError(`setMeta: key and value must be strings, got ${typeof key} and ${typeof value}`);
    }
    await this.write((w) => w.setMeta(key, value));
  }

  /** The metadata value under this key, or null. */
  async getMeta(key: string): Promise<string | null> {
    const { rows } = await this.query<{ value: string }>(`SELECT value FROM ${T}.user_meta WHERE pid = $1 AND key = $2`, [this.pid, key]);
    return rows[0]?.value ?? null;
  }

  /** Every metadata key and value. */
  async listMeta(): Promise<Record<string, string>> {
    const { rows } = await this.query<{ key: string; value: string }>(`SELECT key, value FROM ${T}.user_meta WHERE pid = $1 ORDER BY key`, [this.pid]);
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /** The annotations whose interval stands in one of the relations to the query, in interval order. */
  protected async queryWindow(query: TimeInterval, relations: IntervalQueryKind): Promise<Annotation[]> {
    if (relations !== 'intersects') {
      for (const relation of relations) holds(relation, query, query); // an unknown name throws its teaching error here
    }
    return this.window(query, relations);
  }

  /** One keyset page (read-page.ts): a row comparison and a LIMIT on (start_n, end_n, id), or on seq for a listing. */
  async read<F extends ReadForm>(query: ReadQuery, options: ReadOptions<F>): Promise<ReadPage<ReadItem<F>>> {
    const limit = checkLimit(options.limit);
    const resume = resumeKey(query, options.after);
    if (query.window === undefined) {
      const { annotations, ranks } = await this.listingPage(query, resume as number | null, limit + 1);
      const next = annotations.length > limit ? insertionPosition(query, ranks[limit - 1]) : null;
      return { items: inForm(annotations.slice(0, limit), options.form), next };
    }
    const hits = await this.windowPage(query, resume as IntervalKey | null, limit + 1);
    const page = hits.slice(0, limit);
    const next = hits.length > limit ? intervalPosition(query, intervalKeyOf(page[page.length - 1])) : null;
    return { items: inForm(page, options.form), next };
  }

  /** Every annotation on the tier, interval-less ones included, in insertion order. */
  async byTier(tier: string): Promise<Annotation[]> {
    return (await this.tuples(`${T}.annotations WHERE pid = $1 AND tier = $2`, 'seq', [this.pid, tier])).map(decodeTuple);
  }

  /** Annotations on the tier that intersect the query, in interval order. */
  async atTier(tier: string, query: TimeInterval): Promise<Annotation[]> {
    return this.window(query, 'intersects', tier);
  }

  /** The annotations at exactly this interval (by rational value). */
  async getAt(key: TimeInterval): Promise<Annotation[]> {
    const ticks = this.keyTicks(key);
    if (ticks === null) return [];
    const tuples = await this.tuples(`${T}.annotations WHERE pid = $1 AND start_n = $2 AND end_n = $3`, 'id', [this.pid, String(ticks[0]), String(ticks[1])]);
    return tuples.map(decodeTuple);
  }

  /** Replaces the annotations at exactly this interval with these (each must have that interval). */
  async setAt(key: TimeInterval, annotations: readonly Annotation[]): Promise<void> {
    const seen = new Set<string>();
    for (const annotation of annotations) {
      const interval = annotationInterval(annotation);
      if (interval === null || !interval.equals(key)) {
        throw new KeyMismatchError(
          `setAt ${key.toString()}: annotation ${annotation.id} ${interval === null ? 'has no interval (an AnnotationRef)' : `is at ${interval.toString()}`}; ` +
            'every annotation written under a key must sit at exactly that interval',
        );
      }
      if (seen.has(annotation.id)) throw new DuplicateAnnotationIdError(`setAt ${key.toString()}: annotation id ${annotation.id} appears twice in the list`);
      seen.add(annotation.id);
    }
    const ticks = this.keyTicks(key);
    // A key between two ticks holds nothing, and nothing can be written at it (encode refuses it).
    if (ticks === null) {
      if (annotations.length > 0) {
        this.projectRate.exact(key.start);
        this.projectRate.exact(key.end);
      }
      return;
    }
    await this.write(async (w) => {
      const current = new Set(await w.idsAt(ticks[0], ticks[1]));
      const elsewhere = [...(await w.existing([...seen]))].filter((id) => !current.has(id));
      if (elsewhere.length > 0) {
        throw new DuplicateAnnotationIdError(
          `setAt ${key.toString()}: annotation id ${elsewhere[0]} is already in the store at another interval; delete or update it there`,
        );
      }
      await w.deleteIds([...current].filter((id) => !seen.has(id)));
      for (const annotation of annotations) if (current.has(annotation.id)) await w.update(annotation);
      await w.insert(annotations.filter((annotation) => !current.has(annotation.id)));
    });
  }

  /** Removes the annotations at exactly this interval; returns how many. */
  async deleteAt(key: TimeInterval): Promise<number> {
    const ticks = this.keyTicks(key);
    if (ticks === null) return 0;
    const result = await this.query(`DELETE FROM ${T}.annotations WHERE pid = $1 AND start_n = $2 AND end_n = $3`, [this.pid, String(ticks[0]), String(ticks[1])]);
    return result.rowCount ?? 0;
  }

  /** Distinct intervals by value, ordered by start then end, each spelt as its earliest annotation spells it. */
  async *intervals(): AsyncIterable<TimeInterval> {
    let after: [string, string] | null = null;
    for (;;) {
      const result: pg.QueryResult<KeyRow> = await this.query<KeyRow>(
        `SELECT DISTINCT ON (start_n, end_n) start_n, end_n, start_v, start_r, end_v, end_r FROM ${T}.annotations ` +
          `WHERE pid = $1 AND start_n IS NOT NULL ${after === null ? '' : 'AND (start_n, end_n) > ($2, $3)'} ` +
          `ORDER BY start_n, end_n, seq LIMIT ${PAGE}`,
        after === null ? [this.pid] : [this.pid, ...after],
      );
      const rows: KeyRow[] = result.rows;
      for (const row of rows) {
        yield new TimeInterval(new RationalTime(Number(row.start_v), Number(row.start_r)), new RationalTime(Number(row.end_v), Number(row.end_r)));
      }
      if (rows.length < PAGE) return;
      const last: KeyRow = rows[rows.length - 1];
      after = [last.start_n, last.end_n];
    }
  }

  /** Applies mutations as one op-log batch, all or nothing, and returns their op-log entries. */
  async applyLogged(mutations: readonly Mutation[], context: MutationContext): Promise<OpLogEntry[]> {
    return this.write(async (w) => {
      const clock = await w.lockClock();
      await w.applyAll(mutations);
      const entries = mutations.map((mutation, i): OpLogEntry => ({ clock: clock + i + 1, ...entryFor(mutation, context) }));
      await w.appendLog(entries);
      return entries;
    });
  }

  /** The Lamport clock of the latest op-log entry (0 when there is none). */
  async latestClock(): Promise<number> {
    const { rows } = await this.query<{ clock: string }>(`SELECT clock FROM ${T}.projects WHERE pid = $1`, [this.pid]);
    return Number(rows[0].clock);
  }

  /** Op-log entries in clock order, within the range. */
  async readOpLog({ fromClock = 1, untilClock, limit }: OpLogRange = {}): Promise<OpLogEntry[]> {
    const { rows } = await this.query<OpLogRow>(
      `SELECT clock, kind, target_id, payload, actor, received_v, received_r FROM ${T}.oplog ` +
        'WHERE pid = $1 AND clock >= $2 AND ($3::int8 IS NULL OR clock <= $3) ORDER BY clock LIMIT $4',
      [this.pid, fromClock, untilClock ?? null, limit ?? null],
    );
    return rows.map((row) => ({
      clock: Number(row.clock),
      kind: row.kind,
      target_id: row.target_id,
      payload: row.payload,
      actor: row.actor,
      received_at: { v: Number(row.received_v), r: Number(row.received_r) },
    }));
  }

  /**
   * Deletes the whole project (annotations, tiers, metadata, op-log, its no-overlap constraints)
   * and closes the store. Other projects in the database are untouched.
   */
  async dropProject(): Promise<void> {
    this.checkOpen();
    const client = await this.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ name: string }>(`SELECT name FROM ${T}.tiers WHERE pid = $1 AND enforce_no_overlap`, [this.pid]);
      for (const { name } of rows) await client.query(`ALTER TABLE ${T}.annotations DROP CONSTRAINT IF EXISTS ${overlapConstraintName(this.pid, name)}`);
      await client.query(`DELETE FROM ${T}.annotations WHERE pid = $1`, [this.pid]);
      await client.query(`DELETE FROM ${T}.projects WHERE pid = $1`, [this.pid]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw storeFailure(error, this.target);
    } finally {
      client.release();
    }
    await this.close();
  }

  /** Releases the pool the store made (a pool passed in options stays open). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.end();
  }

  // --- internals --------------------------------------------------------------------------------

  /**
   * Candidates from the GiST index, then the exact recheck. A window's ticks are the query
   * rounded outward when it falls between ticks. For `intersects` the span of an exact query is
   * the query itself (points included: see postgres-schema.ts). For a set of relations, the
   * bounds candidateBounds gives (`start <= A`, `end >= B`, ...) become one range the span of every
   * candidate overlaps: ticks are whole numbers, so a span holds [start, max(start, end - 1)],
   * which meets [min(A, B - 1), max(A, B - 1)]; the other two bounds are plain filters.
   */
  private async window(query: TimeInterval, relations: IntervalQueryKind, tier?: string): Promise<Annotation[]> {
    const values: unknown[] = [this.pid];
    const where = this.windowConditions(query, relations, tier, values);
    if (where === null) return [];
    const tuples = await this.tuples(`${T}.annotations WHERE ${where.join(' AND ')}`, 'start_n, end_n, id', values);
    const keep = windowFilter(query, relations);
    const hits: Annotation[] = [];
    for (const tuple of tuples) {
      const annotation = decodeTuple(tuple);
      if (keep(annotationInterval(annotation) as TimeInterval)) hits.push(annotation);
    }
    return hits;
  }

  /** The WHERE conditions of a window query (their values pushed onto `values`, which starts with the pid); null when nothing can match. */
  private windowConditions(query: TimeInterval, relations: IntervalQueryKind, tier: string | undefined, values: unknown[]): string[] | null {
    const bounds = candidateBounds(query, relations);
    if (bounds === null) return null;
    const rate = this.projectRate;
    const where: string[] = ['pid = $1'];
    const param = (value: unknown): string => `$${values.push(value)}`;
    const exactStart = relations === 'intersects' ? rate.exactOrNull(query.start) : null;
    const exactEnd = relations === 'intersects' ? rate.exactOrNull(query.end) : null;
    if (exactStart !== null && exactEnd !== null && clampInt8(exactStart) === exactStart && clampInt8(exactEnd) === exactEnd) {
      where.push(`span && ${param(spanText(exactStart, exactEnd))}::int8range`);
    } else {
      const a = bounds.startMax === null ? null : clampInt8(rate.floor(bounds.startMax));
      const b = bounds.endMin === null ? null : clampInt8(rate.ceil(bounds.endMin) - 1n);
      const lo = b === null ? null : a === null || b < a ? b : a;
      const hi = a === null ? null : b === null || a > b ? a : b;
      where.push(`span && int8range(${param(lo === null ? null : String(lo))}::int8, ${param(hi === null ? null : String(hi))}::int8, '[]')`);
      if (bounds.startMin !== null) where.push(`start_n >= ${param(String(clampInt8(rate.ceil(bounds.startMin))))}::int8`);
      if (bounds.endMax !== null) where.push(`end_n <= ${param(String(clampInt8(rate.floor(bounds.endMax))))}::int8`);
    }
    if (tier !== undefined) where.push(`tier = ${param(tier)}`);
    return where;
  }

  /**
   * The first `count` hits of a window read after `after`, in (start_n, end_n, id) order, which is
   * the exact order (ticks at one rate, uuids by bytes as their lower-case text sorts). Every
   * page after the first is a keyset on the btree (pid, start_n, end_n),
   * `(start_n, end_n, id) > key ... LIMIT`, which starts at the key, so it costs O(limit)
   * however far it is (see keysetConditions for the first). Rows the exact recheck drops are
   * made up by reading on from the last row read.
   */
  private async windowPage(query: ReadQuery, after: IntervalKey | null, count: number): Promise<Annotation[]> {
    const window = query.window as TimeInterval;
    const relation = query.relation ?? 'intersects';
    if (relation !== 'intersects') holds(relation, window, window); // an unknown name throws its teaching error here
    const relations: IntervalQueryKind = relation === 'intersects' ? 'intersects' : [relation];
    const keep = windowFilter(window, relations);
    const hits: Annotation[] = [];
    for (let key = after; hits.length < count;) {
      const values: unknown[] = [this.pid];
      const where = this.keysetConditions(window, relations, query.tier, key, values);
      if (where === null) break;
      const wanted = count - hits.length;
      const tuples = await this.tuples(`(SELECT * FROM ${T}.annotations WHERE ${where.join(' AND ')} ORDER BY start_n, end_n, id LIMIT $${values.push(wanted)}) AS page`, 'start_n, end_n, id', values);
      for (const tuple of tuples) {
        const annotation = decodeTuple(tuple);
        const read = intervalKeyOf(annotation);
        if ((key === null || compareIntervalKeys(read, key) > 0) && keep(annotationInterval(annotation) as TimeInterval)) hits.push(annotation);
        key = read;
      }
      if (tuples.length < wanted) break;
    }
    return hits;
  }

  /**
   * A page's conditions on the btree (pid, start_n, end_n): the window's bounds as tick ranges (a
   * hull, exact or looser: ticks are whole numbers) and, after the first page, the row comparison
   * after the key. The first page also has the GiST condition, so the planner takes whichever
   * index costs less for this window: a small window far into the project through the GiST, a
   * large one in btree order up to the LIMIT. Null when nothing can match.
   */
  private keysetConditions(query: TimeInterval, relations: IntervalQueryKind, tier: string | undefined, key: IntervalKey | null, values: unknown[]): string[] | null {
    const where = key === null ? this.windowConditions(query, relations, tier, values) : ['pid = $1', this.afterCondition(key, values)];
    const bounds = candidateBounds(query, relations);
    if (where === null || bounds === null) return null;
    const rate = this.projectRate;
    const param = (value: bigint): string => `$${values.push(String(clampInt8(value)))}::int8`;
    where.push('start_n IS NOT NULL');
    if (bounds.startMin !== null) where.push(`start_n >= ${param(rate.ceil(bounds.startMin))}`);
    if (bounds.startMax !== null) where.push(`start_n <= ${param(rate.floor(bounds.startMax))}`);
    if (bounds.endMin !== null) where.push(`end_n >= ${param(rate.ceil(bounds.endMin))}`);
    if (bounds.endMax !== null) where.push(`end_n <= ${param(rate.floor(bounds.endMax))}`);
    if (key !== null && tier !== undefined) where.push(`tier = $${values.push(tier)}`);
    return where;
  }

  /** `(start_n, end_n, id) > key`; a key between ticks (not one this store gave out) gets a looser bound, and the exact comparison in windowPage decides. */
  private afterCondition(key: IntervalKey, values: unknown[]): string {
    const param = (value: unknown): string => `$${values.push(value)}`;
    const start = this.projectRate.exactOrNull(key.start);
    const end = this.projectRate.exactOrNull(key.end);
    if (start !== null && end !== null && isUuid(key.id)) {
      const startTicks = param(String(clampInt8(start)));
      return `start_n >= ${startTicks}::int8 AND (start_n, end_n, id) > (${startTicks}::int8, ${param(String(clampInt8(end)))}::int8, ${param(key.id)}::uuid)`;
    }
    return `(start_n, end_n) >= (${param(String(clampInt8(this.projectRate.floor(key.start))))}::int8, ${param(String(clampInt8(this.projectRate.floor(key.end))))}::int8)`;
  }

  /** A page of the insertion order, all tiers or one: the keyset on seq, as all() reads it. */
  private async listingPage(query: ReadQuery, after: number | null, count: number): Promise<{ annotations: Annotation[]; ranks: number[] }> {
    const values: unknown[] = [this.pid, after ?? 0];
    const tier = query.tier === undefined ? '' : `AND tier = $${values.push(query.tier)}`;
    const limit = `LIMIT $${values.push(count)}`;
    const tuples = await this.tuples(`(SELECT * FROM ${T}.annotations WHERE pid = $1 AND seq > $2 ${tier} ORDER BY seq ${limit}) AS page`, 'seq', values);
    return { annotations: tuples.map(decodeTuple), ranks: tuples.map((tuple) => Number(tuple[17])) };
  }

  /** A key's ticks at the project rate, or null when it falls between ticks (so no row sits at it). */
  private keyTicks(key: TimeInterval): [bigint, bigint] | null {
    const start = this.projectRate.exactOrNull(key.start);
    const end = this.projectRate.exactOrNull(key.end);
    return start === null || end === null ? null : [start, end];
  }

  /** The rows of `SELECT ... FROM <from>` as ROW_JSON arrays in `orderBy` order, fetched as one json_agg value. */
  private async tuples(from: string, orderBy: string, values: unknown[]): Promise<unknown[][]> {
    const { rows } = await this.query<{ rows: unknown[][] }>(`SELECT coalesce(json_agg(${ROW_JSON} ORDER BY ${orderBy}), '[]') AS rows FROM ${from}`, values);
    return rows[0].rows;
  }

  /**
   * Reads run as named prepared statements: each pooled connection parses and plans a read's SQL
   * once, then only binds and executes it (a window query's planning was a fair share of its time).
   */
  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    this.checkOpen();
    const name = statementName(text);
    const query = name === null ? this.pool.query<R>(text, values) : this.pool.query<R>({ name, text, values });
    return query.catch((error: unknown) => {
      throw storeFailure(error, this.target);
    });
  }

  /** Runs fn in one transaction on a pooled connection; any refusal rolls everything back. */
  private async write<R>(fn: (writer: PgWriter) => Promise<R>): Promise<R> {
    this.checkOpen();
    const client = await this.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await fn(new PgWriter(client, this.pid, this.projectRate));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error;
      }
      if (error instanceof PendingOverlap && broken === undefined) throw await resolveOverlap(error, client, this.pid);
      throw storeFailure(error, this.target);
    } finally {
      client.release(broken);
    }
  }

  /** A pooled connection; a server that cannot be reached is a typed error, as at open. */
  private async connect(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw storeFailure(error, this.target);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new InvalidInputError(`the PostgreSQL store for project "${this.project}" at ${this.where} is closed; open it again`);
  }
}

/** Statement names by SQL text; reads have a handful of shapes, so the map stays small. */
const STATEMENT_NAMES = new Map<string, string>();
const MAX_STATEMENTS = 64;

/** The exact recheck of a window's candidates. */
function windowFilter(query: TimeInterval, relations: IntervalQueryKind): (interval: TimeInterval) => boolean {
  return relations === 'intersects'
    ? (interval: TimeInterval) => matchesIntersects(interval, query)
    : (interval: TimeInterval) => matchesRelations(interval, query, relations);
}

function statementName(text: string): string | null {
  let name = STATEMENT_NAMES.get(text);
  if (name === undefined) {
    if (STATEMENT_NAMES.size >= MAX_STATEMENTS) return null;
    name = `annot_read_${STATEMENT_NAMES.size}`;
    STATEMENT_NAMES.set(text, name);
  }
  return name;
}

interface KeyRow {
  start_n: string;
  end_n: string;
  start_v: string;
  start_r: string;
  end_v: string;
  end_r: string;
}

interface OpLogRow {
  clock: string;
  kind: MutationKind;
  target_id: string | null;
  payload: JsonObject;
  actor: string;
  received_v: string;
  received_r: string;
}
