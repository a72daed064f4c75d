import { createHash } from 'node:crypto';
import type pg from 'pg';
import { annotationEtag, ifMatchSatisfied } from '../digest/etag.js';
import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import { PreconditionFailedError } from '../oplog/errors.js';
import type { Mutation } from '../oplog/mutation.js';
import type { OpLogEntry } from '../oplog/op-log-entry.js';
import { AnnotationNotFoundError, DuplicateAnnotationIdError, TierOverlapError, UnknownTierError } from './errors.js';
import { copyAnnotations, copyRows, copyValuesLine } from './postgres-copy.js';
import { PG_SCHEMA } from './postgres-schema.js';
import {
  SELECT_COLUMNS,
  WRITE_COLUMNS,
  columnArrays,
  decodeAnnotation,
  encodeAnnotation,
  rowSpan,
  type AnnotationRow,
  type ProjectRate,
  type RowValues,
} from './postgres-rows.js';

const T = PG_SCHEMA;
/** Rows per INSERT ... SELECT FROM unnest(...): big enough to amortise a round trip, small enough to stream. */
export const INSERT_CHUNK = 5000;
/** Consecutive additions in a logged batch from which one COPY beats INSERTs. */
const BULK_RUN = 1000;

const NAMES = WRITE_COLUMNS.map(([c]) => c);
/** Rows in array order (WITH ORDINALITY), so insertion order, the order all() keeps, is the batch's. */
const INSERT_SQL = `INSERT INTO ${T}.annotations (pid, ${NAMES.join(', ')}) ` +
  `SELECT $1, ${NAMES.map((c) => `u.${c}`).join(', ')} ` +
  `FROM unnest(${WRITE_COLUMNS.map(([, type], i) => `$${i + 2}::${type}`).join(', ')}) WITH ORDINALITY AS u (${NAMES.join(', ')}, ord) ` +
  'ORDER BY u.ord';
const COPY_OPLOG_SQL = `COPY ${T}.oplog (pid, clock, kind, target_id, payload, actor, received_v, received_r) FROM STDIN`;
const UPDATE_SQL = `UPDATE ${T}.annotations SET ${WRITE_COLUMNS.slice(1).map(([c, type], i) => `${c} = $${i + 3}::${type.slice(0, -2)}`).join(', ')} ` +
  'WHERE pid = $1 AND id = $2::uuid';

/** The name of a tier's exclusion constraint: unique per project and tier, short enough for PostgreSQL's 63 bytes. */
export function overlapConstraintName(pid: number, tier: string): string {
  return `no_overlap_${pid}_${createHash('sha256').update(tier).digest('hex').slice(0, 16)}`;
}

/** A written row, remembered so an exclusion-constraint violation can be traced back to annotations. */
interface Written {
  readonly id: string;
  readonly tier: string;
  readonly span: string;
}

/**
 * An exclusion-constraint violation seen inside a transaction. Naming the annotation already
 * stored needs a query, which an aborted transaction cannot run: the store resolves it after the
 * rollback (resolveOverlap), against the data as it was before the transaction.
 */
export class PendingOverlap extends Error {
  constructor(
    readonly tier: string,
    readonly newSpan: string,
    readonly otherSpan: string,
    readonly written: readonly Written[],
    readonly enabling: boolean,
    readonly pgError: unknown,
  ) {
    super(`exclusion constraint violated in tier ${tier}`);
  }
}

/**
 * The statements of one write transaction of a project, on one client between BEGIN and COMMIT.
 * Each statement sees the effects of the ones before it, so a batch of mutations is checked and
 * applied in order, and a refusal anywhere rolls the whole transaction back.
 */
export class PgWriter {
  private readonly written: Written[] = [];
  private readonly knownTiers = new Set<string>();

  constructor(
    private readonly client: pg.ClientBase,
    private readonly pid: number,
    private readonly rate: ProjectRate,
  ) {}

  /** Inserts new annotations (any number; sent in chunks). */
  async insert(batch: readonly Annotation[]): Promise<number> {
    for (let at = 0; at < batch.length; at += INSERT_CHUNK) {
      const chunk = batch.slice(at, at + INSERT_CHUNK);
      await this.checkTiers(chunk);
      const rows = chunk.map((annotation) => {
        const values = encodeAnnotation(annotation, this.rate);
        this.remember(annotation, values);
        return values;
      });
      await this.run(INSERT_SQL, [this.pid, ...columnArrays(rows)]);
    }
    return batch.length;
  }

  /**
   * Inserts a stream of new annotations with one COPY straight into the table (postgres-copy.ts).
   * Tiers are checked against the project's tiers as read before and after the COPY; the first
   * annotation on an unregistered tier is the one named, and the caller's rollback takes back
   * every row. Only rows of tiers that forbid overlaps are remembered (to name the two
   * annotations of a refused overlap): a million rows are not held in memory for nothing.
   */
  async bulkInsert(annotations: Iterable<Annotation> | AsyncIterable<Annotation>): Promise<number> {
    const { rows } = await this.client.query<{ name: string; no_overlap: boolean }>(`SELECT name, enforce_no_overlap AS no_overlap FROM ${T}.tiers WHERE pid = $1`, [this.pid]);
    const guarded = new Set<string>();
    for (const row of rows) {
      this.knownTiers.add(row.name);
      if (row.no_overlap) guarded.add(row.name);
    }
    const strays = new Map<string, string>();
    let count: number;
    try {
      count = await copyAnnotations(this.client, this.pid, annotations, (annotation) => {
        if (!this.knownTiers.has(annotation.tier) && !strays.has(annotation.tier)) strays.set(annotation.tier, annotation.id);
        const values = encodeAnnotation(annotation, this.rate);
        if (guarded.has(annotation.tier)) this.remember(annotation, values);
        return values;
      });
    } catch (error) {
      throw this.writeFailure(error);
    }
    await this.refuseStrays(strays);
    return count;
  }

  /** The first annotation on a tier the project has not registered (a tier added meanwhile by another writer counts). */
  private async refuseStrays(strays: Map<string, string>): Promise<void> {
    if (strays.size === 0) return;
    const { rows: late } = await this.client.query<{ name: string }>(`SELECT name FROM ${T}.tiers WHERE pid = $1 AND name = ANY($2::text[])`, [this.pid, [...strays.keys()]]);
    for (const row of late) {
      this.knownTiers.add(row.name);
      strays.delete(row.name);
    }
    const [tier, id] = [...strays.entries()][0] ?? [];
    if (tier !== undefined) {
      throw new UnknownTierError(`annotation ${id} names tier "${tier}", which the store has not registered; add the tier first (addTier)`);
    }
  }

  /** Replaces the annotation with the same id; AnnotationNotFoundError when there is none. */
  async update(annotation: Annotation): Promise<void> {
    await this.checkTiers([annotation]);
    const values = encodeAnnotation(annotation, this.rate);
    this.remember(annotation, values);
    const result = await this.run(UPDATE_SQL, [this.pid, ...values]);
    if (result.rowCount === 0) throw new AnnotationNotFoundError(`update: the store holds no annotation ${annotation.id}; add it instead`);
  }

  async delete(id: string): Promise<Annotation | null> {
    const { rows } = await this.client.query<AnnotationRow>(
      `DELETE FROM ${T}.annotations WHERE pid = $1 AND id = $2::uuid RETURNING ${SELECT_COLUMNS}`,
      [this.pid, id],
    );
    return rows.length === 0 ? null : decodeAnnotation(rows[0]);
  }

  /** The annotation, row-locked until the transaction ends (so an If-Match check holds at commit). */
  async getForUpdate(id: string): Promise<Annotation | null> {
    const { rows } = await this.client.query<AnnotationRow>(
      `SELECT ${SELECT_COLUMNS} FROM ${T}.annotations WHERE pid = $1 AND id = $2::uuid FOR UPDATE`,
      [this.pid, id],
    );
    return rows.length === 0 ? null : decodeAnnotation(rows[0]);
  }

  /** Ids of the annotations at exactly ticks [start, end), row-locked. */
  async idsAt(start: bigint, end: bigint): Promise<string[]> {
    const { rows } = await this.client.query<{ id: string }>(
      `SELECT id::text AS id FROM ${T}.annotations WHERE pid = $1 AND start_n = $2 AND end_n = $3 FOR UPDATE`,
      [this.pid, String(start), String(end)],
    );
    return rows.map((r) => r.id);
  }

  async deleteIds(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.client.query(`DELETE FROM ${T}.annotations WHERE pid = $1 AND id = ANY($2::uuid[])`, [this.pid, ids]);
    return result.rowCount ?? 0;
  }

  /** Which of the ids the project holds. */
  async existing(ids: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.client.query<{ id: string }>(
      `SELECT id::text AS id FROM ${T}.annotations WHERE pid = $1 AND id = ANY($2::uuid[])`,
      [this.pid, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Upserts a tier (keeping its registration place) and makes the database enforce, or stop
   * enforcing, no overlap in it. The constraint is added or dropped only when that changes: an
   * ALTER TABLE locks the whole table, and addTier without options is common.
   */
  async addTier(tier: Tier, enforceNoOverlap: boolean): Promise<void> {
    if (tier.parent !== null) {
      const { rowCount } = await this.client.query(`SELECT 1 FROM ${T}.tiers WHERE pid = $1 AND name = $2`, [this.pid, tier.parent]);
      if (rowCount === 0) {
        throw new UnknownTierError(`tier "${tier.name}" names parent "${tier.parent}", which the store has not registered; add the parent tier first`);
      }
    }
    await this.client.query(
      `INSERT INTO ${T}.tiers (pid, name, stereotype, parent, metadata, enforce_no_overlap) VALUES ($1, $2, $3, $4, $5, $6) ` +
        'ON CONFLICT (pid, name) DO UPDATE SET stereotype = excluded.stereotype, parent = excluded.parent, ' +
        'metadata = excluded.metadata, enforce_no_overlap = excluded.enforce_no_overlap',
      [this.pid, tier.name, tier.stereotype, tier.parent, JSON.stringify(tier.metadata), enforceNoOverlap],
    );
    this.knownTiers.add(tier.name);
    const name = overlapConstraintName(this.pid, tier.name);
    // Two writers switching the same tier's rule at once: the second sees what the first did.
    await this.client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
    const { rowCount } = await this.client.query(
      'SELECT 1 FROM pg_constraint WHERE conname = $1 AND conrelid = $2::regclass',
      [name, `${T}.annotations`],
    );
    const present = rowCount !== 0;
    if (enforceNoOverlap && !present) {
      const literal = this.client.escapeLiteral(tier.name);
      try {
        await this.client.query(
          `ALTER TABLE ${T}.annotations ADD CONSTRAINT ${name} EXCLUDE USING gist (span WITH &&) WHERE (pid = ${this.pid} AND tier = ${literal})`,
        );
      } catch (error) {
        throw this.overlapFrom(error, [tier.name], true);
      }
    } else if (!enforceNoOverlap && present) {
      await this.client.query(`ALTER TABLE ${T}.annotations DROP CONSTRAINT ${name}`);
    }
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.client.query(
      `INSERT INTO ${T}.user_meta (pid, key, value) VALUES ($1, $2, $3) ON CONFLICT (pid, key) DO UPDATE SET value = excluded.value`,
      [this.pid, key, value],
    );
  }

  /**
   * Applies logged mutations in order. A long run of additions (an import) goes through one COPY
   * instead of a statement per annotation; each mutation still sees the effects of those before it.
   */
  async applyAll(mutations: readonly Mutation[]): Promise<void> {
    let run: Annotation[] = [];
    const flush = async () => {
      if (run.length >= BULK_RUN) await this.bulkInsert(run);
      else if (run.length > 0) await this.insert(run);
      run = [];
    };
    for (const mutation of mutations) {
      if (mutation.kind === 'add_annotation') {
        run.push(mutation.annotation);
        continue;
      }
      await flush();
      await this.apply(mutation);
    }
    await flush();
  }

  /** Applies one logged mutation with the checks of checkBatch, If-Match against the row as locked now. */
  async apply(mutation: Mutation): Promise<void> {
    switch (mutation.kind) {
      case 'add_tier':
        return this.addTier(mutation.tier, mutation.enforceNoOverlap ?? false);
      case 'add_annotation':
        await this.insert([mutation.annotation]);
        return;
      case 'update_annotation':
        if (mutation.ifMatch !== undefined) await this.precondition(mutation.annotation.id, mutation.ifMatch);
        return this.update(mutation.annotation);
      case 'delete_annotation': {
        if (mutation.ifMatch !== undefined) await this.precondition(mutation.id, mutation.ifMatch);
        const removed = await this.delete(mutation.id);
        if (removed === null) throw new AnnotationNotFoundError(`annotation ${mutation.id} not found`);
        return;
      }
      case 'set_meta':
        return this.setMeta(mutation.key, mutation.value);
    }
  }

  /** The project's clock, its row locked until commit: every writer of the project queues here. */
  async lockClock(): Promise<number> {
    const { rows } = await this.client.query<{ clock: string }>(`SELECT clock FROM ${T}.projects WHERE pid = $1 FOR UPDATE`, [this.pid]);
    return Number(rows[0].clock);
  }

  async appendLog(entries: readonly OpLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    if (entries.length >= BULK_RUN) {
      // An import's log: one COPY, not a statement whose arrays PostgreSQL must unpack.
      await copyRows(this.client, COPY_OPLOG_SQL, entries, (e) =>
        copyValuesLine([this.pid, e.clock, e.kind, e.target_id, JSON.stringify(e.payload), e.actor, e.received_at.v, e.received_at.r]),
      );
    } else {
      await this.insertLog(entries);
    }
    await this.client.query(`UPDATE ${T}.projects SET clock = $2 WHERE pid = $1`, [this.pid, entries[entries.length - 1].clock]);
  }

  private async insertLog(entries: readonly OpLogEntry[]): Promise<void> {
    await this.client.query(
      `INSERT INTO ${T}.oplog (pid, clock, kind, target_id, payload, actor, received_v, received_r) ` +
        'SELECT $1, * FROM unnest($2::int8[], $3::text[], $4::text[], $5::json[], $6::text[], $7::int8[], $8::int8[])',
      [
        this.pid,
        entries.map((e) => e.clock), entries.map((e) => e.kind), entries.map((e) => e.target_id), entries.map((e) => JSON.stringify(e.payload)),
        entries.map((e) => e.actor), entries.map((e) => e.received_at.v), entries.map((e) => e.received_at.r),
      ],
    );
  }

  private async precondition(id: string, ifMatch: string): Promise<void> {
    const current = await this.getForUpdate(id);
    if (current === null) throw new AnnotationNotFoundError(`annotation ${id} not found`);
    const etag = annotationEtag(current);
    if (!ifMatchSatisfied(ifMatch, etag)) throw new PreconditionFailedError(id, etag, ifMatch);
  }

  private async checkTiers(batch: readonly Annotation[]): Promise<void> {
    const unknown = new Set<string>();
    for (const annotation of batch) if (!this.knownTiers.has(annotation.tier)) unknown.add(annotation.tier);
    if (unknown.size === 0) return;
    const { rows } = await this.client.query<{ name: string }>(
      `SELECT name FROM ${T}.tiers WHERE pid = $1 AND name = ANY($2::text[])`,
      [this.pid, [...unknown]],
    );
    for (const row of rows) this.knownTiers.add(row.name);
    const stray = batch.find((annotation) => !this.knownTiers.has(annotation.tier));
    if (stray !== undefined) {
      throw new UnknownTierError(`annotation ${stray.id} names tier "${stray.tier}", which the store has not registered; add the tier first (addTier)`);
    }
  }

  private remember(annotation: Annotation, values: RowValues): void {
    const span = rowSpan(values);
    if (span !== null) this.written.push({ id: annotation.id, tier: annotation.tier, span });
  }

  private async run(sql: string, values: unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.client.query(sql, values);
    } catch (error) {
      throw this.writeFailure(error);
    }
  }

  /** A refused write as our error: a duplicate id, or an overlap in a tier that forbids them. */
  private writeFailure(error: unknown): unknown {
    const code = (error as { code?: string }).code;
    if (code === '23505' && (error as { constraint?: string }).constraint === 'annotations_pkey') {
      const id = /\(pid, id\)=\(\d+, ([0-9a-f-]+)\)/.exec(String((error as { detail?: string }).detail))?.[1];
      return new DuplicateAnnotationIdError(`annotation id ${id ?? '(unknown)'} is already in the store (or twice in the batch); ids are unique`, { cause: error });
    }
    if (code === '23P01') return this.overlapFrom(error, [...new Set(this.written.map((w) => w.tier))], false);
    return error;
  }

  /** Turns PostgreSQL's exclusion violation into a PendingOverlap the store resolves after rollback. */
  private overlapFrom(error: unknown, tiers: readonly string[], enabling: boolean): unknown {
    if ((error as { code?: string }).code !== '23P01') return error;
    const constraint = (error as { constraint?: string }).constraint;
    const tier = tiers.find((name) => overlapConstraintName(this.pid, name) === constraint);
    const keys = /\(span\)=\((.*)\) conflicts with (?:existing )?key \(span\)=\((.*)\)\.?$/.exec(String((error as { detail?: string }).detail));
    if (tier === undefined || keys === null) return new TierOverlapError(tier ?? '(unknown)', null, null, { cause: error, enabling });
    return new PendingOverlap(tier, keys[1], keys[2], [...this.written], enabling, error);
  }
}

/**
 * Names the two annotations of an exclusion violation, read after the rollback: the one being
 * written (the latest written row with the conflicting span) and the one it hit (a stored row,
 * else an earlier row of the same batch).
 */
export async function resolveOverlap(pending: PendingOverlap, query: pg.Pool | pg.ClientBase, pid: number): Promise<TierOverlapError> {
  const stored = async (span: string, not: string | null): Promise<string | null> => {
    const { rows } = await query.query<{ id: string }>(
      `SELECT id::text AS id FROM ${T}.annotations WHERE pid = $1 AND tier = $2 AND span = $3::int8range AND ($4::uuid IS NULL OR id <> $4::uuid) ORDER BY seq LIMIT 1`,
      [pid, pending.tier, span, not],
    );
    return rows[0]?.id ?? null;
  };
  const inTier = pending.written.filter((w) => w.tier === pending.tier);
  let id: string | null;
  if (pending.enabling) {
    id = await stored(pending.newSpan, null);
  } else {
    id = [...inTier].reverse().find((w) => w.span === pending.newSpan)?.id ?? null;
  }
  const other = (await stored(pending.otherSpan, id)) ?? inTier.find((w) => w.span === pending.otherSpan && w.id !== id)?.id ?? null;
  return new TierOverlapError(pending.tier, id, other, { cause: pending.pgError, enabling: pending.enabling });
}
