import type pg from 'pg';
import { StoreFormatError } from './errors.js';

/**
 * The PostgreSQL layout, all of it in one schema (`annot`) so it can share a database with
 * anything else. Every row is scoped by `pid`, the number of its project in `projects`: several
 * projects share the tables without seeing each other.
 *
 * - meta: database-wide facts, `schema_version` first.
 * - projects: name, the rate every interval of the project is normalised to (fixed at creation),
 *   and `clock`, the op-log's Lamport counter (its row lock serialises the writers of a project).
 * - tiers: registration order in `seq`; `enforce_no_overlap` mirrors the exclusion constraint.
 * - annotations: the original `(v, r)` of each endpoint (what reads return), the same endpoints as
 *   integer ticks at the project rate (`start_n`, `end_n`, exact by construction) and `span`, the
 *   int8range the GiST index and the no-overlap constraints work on. A proper interval's span is
 *   `[start, end)`; a point's is `[t, t]`, which PostgreSQL stores as `[t, t+1)`: ticks are whole
 *   numbers, so that range shares time with exactly the intervals that hold the point, and a
 *   point is found instead of turning into an empty range. `span` is NULL for an AnnotationRef.
 * - user_meta: setMeta/getMeta per project.
 * - oplog: one row per logged mutation, `(pid, clock)` unique.
 */
export const PG_SCHEMA = 'annot';
export const PG_SCHEMA_VERSION = 1;

/** Index over (pid, span): needs btree_gist for the integer column; without it, span alone. */
const SPAN_INDEX_WITH_PID = `CREATE INDEX annotations_span ON ${PG_SCHEMA}.annotations USING gist (pid, span)`;
const SPAN_INDEX_ALONE = `CREATE INDEX annotations_span ON ${PG_SCHEMA}.annotations USING gist (span)`;

const CREATE_V1 = `
CREATE TABLE ${PG_SCHEMA}.meta (
  key text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE ${PG_SCHEMA}.projects (
  pid integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  rate bigint NOT NULL CHECK (rate > 0),
  clock bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${PG_SCHEMA}.tiers (
  pid integer NOT NULL REFERENCES ${PG_SCHEMA}.projects (pid) ON DELETE CASCADE,
  name text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  stereotype text NOT NULL,
  parent text,
  metadata json NOT NULL,
  enforce_no_overlap boolean NOT NULL DEFAULT false,
  PRIMARY KEY (pid, name)
);
CREATE TABLE ${PG_SCHEMA}.user_meta (
  pid integer NOT NULL REFERENCES ${PG_SCHEMA}.projects (pid) ON DELETE CASCADE,
  key text NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (pid, key)
);
CREATE TABLE ${PG_SCHEMA}.annotations (
  pid integer NOT NULL,
  id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  tier text NOT NULL,
  ref_kind text NOT NULL CHECK (ref_kind IN ('media', 'annotation')),
  asset_id text,
  target_id uuid,
  start_v bigint,
  start_r bigint,
  end_v bigint,
  end_r bigint,
  start_n bigint,
  end_n bigint,
  span int8range,
  body json NOT NULL,
  body_schema_uri text NOT NULL,
  generated_by text NOT NULL,
  attributed_to text NOT NULL,
  derived_from json NOT NULL,
  generated_at_v bigint NOT NULL,
  generated_at_r bigint NOT NULL,
  confidence double precision,
  PRIMARY KEY (pid, id),
  CHECK ((ref_kind = 'media') = (span IS NOT NULL)),
  CHECK (start_n <= end_n)
);
CREATE INDEX annotations_seq ON ${PG_SCHEMA}.annotations (pid, seq);
CREATE INDEX annotations_tier ON ${PG_SCHEMA}.annotations (pid, tier, seq);
CREATE INDEX annotations_key ON ${PG_SCHEMA}.annotations (pid, start_n, end_n) WHERE start_n IS NOT NULL;
CREATE TABLE ${PG_SCHEMA}.oplog (
  pid integer NOT NULL REFERENCES ${PG_SCHEMA}.projects (pid) ON DELETE CASCADE,
  clock bigint NOT NULL,
  kind text NOT NULL,
  target_id text,
  payload json NOT NULL,
  actor text NOT NULL,
  received_v bigint NOT NULL,
  received_r bigint NOT NULL,
  PRIMARY KEY (pid, clock)
);
`;

/** One forward step of the ladder: `apply` runs in the open transaction and stamps `to`. */
export interface PgMigrationStep {
  readonly from: number;
  readonly to: number;
  readonly description: string;
  apply(client: pg.ClientBase): Promise<void>;
}

/** Forward migrations, oldest first. Version 1 is the first layout, so there are none yet. */
export const PG_MIGRATIONS: readonly PgMigrationStep[] = [];

/** Serialises schema creation and migration across every process opening the database at once. */
const SCHEMA_LOCK = 0x616e6e6f74; // "annot"

/**
 * Creates the layout in an empty database, or checks and migrates the one there, inside one
 * transaction under an advisory lock: two processes opening a fresh database together create it
 * once. A newer schema version, a version the ladder cannot reach, or an `annot` schema that is
 * not ours is a StoreFormatError, and nothing is changed.
 */
export async function ensurePgSchema(client: pg.ClientBase, where: string, migrations: readonly PgMigrationStep[] = PG_MIGRATIONS): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    const { rows } = await client.query<{ meta: string | null }>(`SELECT to_regclass('${PG_SCHEMA}.meta')::text AS meta`);
    let version: number;
    if (rows[0].meta === null) {
      await refuseForeignSchema(client, where);
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${PG_SCHEMA}`);
      await client.query(CREATE_V1);
      await client.query(await hasBtreeGist(client) ? SPAN_INDEX_WITH_PID : SPAN_INDEX_ALONE);
      await client.query(`INSERT INTO ${PG_SCHEMA}.meta (key, value) VALUES ('schema_version', $1), ('created_at', now()::text)`, [String(PG_SCHEMA_VERSION)]);
      version = PG_SCHEMA_VERSION;
    } else {
      version = await storedVersion(client, where);
      for (const step of pgMigrationPath(where, version, PG_SCHEMA_VERSION, migrations)) {
        await step.apply(client);
        const after = await storedVersion(client, where);
        if (after !== step.to) {
          throw new StoreFormatError(`${where}: migration "${step.description}" left schema_version at ${after} instead of ${step.to}; nothing was changed`);
        }
        version = after;
      }
    }
    await client.query('COMMIT');
    return version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The steps from `from` to `to`, or a StoreFormatError when the database is newer or unreachable. */
export function pgMigrationPath(where: string, from: number, to: number, migrations: readonly PgMigrationStep[] = PG_MIGRATIONS): PgMigrationStep[] {
  if (from > to) {
    throw new StoreFormatError(
      `${where}: the annot schema has schema_version ${from}, newer than this build (which reads up to ${to}); upgrade annot to open it (migrations only go forward)`,
    );
  }
  const path: PgMigrationStep[] = [];
  for (let at = from; at < to; ) {
    const step = migrations.find((s) => s.from === at);
    if (step === undefined) throw new StoreFormatError(`${where}: schema_version ${from} cannot be upgraded to ${to}: no migration leaves version ${at}`);
    path.push(step);
    at = step.to;
  }
  return path;
}

async function storedVersion(client: pg.ClientBase, where: string): Promise<number> {
  const { rows } = await client.query<{ value: string }>(`SELECT value FROM ${PG_SCHEMA}.meta WHERE key = 'schema_version'`);
  const version = rows.length === 0 ? NaN : Number(rows[0].value);
  if (!Number.isSafeInteger(version) || version < 1) {
    throw new StoreFormatError(`${where}: ${PG_SCHEMA}.meta holds no valid schema_version (${rows.length === 0 ? 'none' : JSON.stringify(rows[0].value)}); this is not an annot database`);
  }
  return version;
}

async function refuseForeignSchema(client: pg.ClientBase, where: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    'SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN (\'r\', \'v\', \'p\') ORDER BY 1',
    [PG_SCHEMA],
  );
  if (rows.length > 0) {
    throw new StoreFormatError(
      `${where}: schema "${PG_SCHEMA}" exists without annot's meta table (tables: ${rows.map((r) => r.name).join(', ')}); it belongs to something else, so annot leaves it alone`,
    );
  }
}

/** Installs btree_gist when it can (it is a trusted extension); false when the database refuses. */
async function hasBtreeGist(client: pg.ClientBase): Promise<boolean> {
  await client.query('SAVEPOINT btree_gist');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gist');
    await client.query('RELEASE SAVEPOINT btree_gist');
    return true;
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT btree_gist');
    return false;
  }
}
