// The PostgreSQL store on 1,000,000 annotations, each figure beside its reference in the same run:
// 1. bulk load with addMany (one transaction, COPY straight into the real table) vs a raw COPY of
//    the same rows into a table with the same columns, keys, checks, identity and indexes (the
//    GiST span index included): the physical limit of that schema (target: at least 0.8x it).
//    Beside it, for information, the raw COPY into a bare table (no index, no key, no checks) and
//    the older raw INSERT ... SELECT FROM unnest;
// 2. a window query returning about 100 annotations, p50 (target: under 2 ms), vs the `.annot`
//    SqliteStore on the same timeline (bench/.data/store-1m.annot, made by store.bench.js) when it
//    exists, else vs a raw query fetching as many rows by primary key; the plan is checked to use
//    the GiST index; the same SQL run raw (same index, same connection pool of one) is the second
//    reference (target: p50 <= 1.5x it), and EXPLAIN (ANALYZE, BUFFERS) goes into the details.
// Needs PostgreSQL at ANNOT_PG_URL (default postgres://postgres@127.0.0.1:5432/test). Everything
// it writes lives in its own project and scratch tables, all removed (and vacuumed) at the end.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { finished } from 'node:stream/promises';
import { once } from 'node:events';
import { makeTier } from '../dist/src/model/tier.js';
import { PostgresStore } from '../dist/src/store/postgres.js';
import { ProjectRate, ROW_JSON, WRITE_COLUMNS, columnArrays, encodeAnnotation } from '../dist/src/store/postgres-rows.js';
import { copyLine } from '../dist/src/store/postgres-copy.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { latencies, report } from './lib/harness.js';
import { spanSeconds, timeline } from './lib/timeline.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const URL_ = process.env.ANNOT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.ANNOT_BENCH_PG_ROWS ?? 1_000_000);
const RUN = `bench-${randomBytes(4).toString('hex')}`;
const BARE = `annot_bench_bare_${RUN.slice(6)}`;
const SAME = `annot_bench_same_${RUN.slice(6)}`;

const SPAN_SECONDS = spanSeconds(N);

const admin = new pg.Client(URL_);
await admin.connect();

// --- 1. bulk load ---------------------------------------------------------------------------------

/** The same rows, the same statement shape, into a table with no index, no key and no checks. */
async function rawInsert() {
  await admin.query(`DROP TABLE IF EXISTS public.${BARE}`);
  await admin.query(`CREATE TABLE public.${BARE} (pid integer, ${WRITE_COLUMNS.map(([c, type]) => `${c} ${type.slice(0, -2)}`).join(', ')})`);
  const rate = new ProjectRate(705_600_000, RUN);
  const sql = `INSERT INTO public.${BARE} SELECT 1, * FROM unnest(${WRITE_COLUMNS.map(([, type], i) => `$${i + 1}::${type}`).join(', ')})`;
  const t0 = performance.now();
  await admin.query('BEGIN');
  let rows = [];
  for (const a of timeline(N)) {
    rows.push(encodeAnnotation(a, rate));
    if (rows.length === 5000) {
      await admin.query(sql, columnArrays(rows));
      rows = [];
    }
  }
  if (rows.length > 0) await admin.query(sql, columnArrays(rows));
  await admin.query('COMMIT');
  const ms = performance.now() - t0;
  await admin.query(`DROP TABLE public.${BARE}`);
  return (N / ms) * 1000;
}

/**
 * The same rows as COPY text lines, streamed as addMany streams them, into `table` made by
 * `create`: a bare table (the floor of any bulk load) or a copy of annot.annotations.
 */
async function rawCopy(table, create, columns) {
  await admin.query(`DROP TABLE IF EXISTS public.${table}`);
  await admin.query(create);
  const rate = new ProjectRate(705_600_000, RUN);
  const t0 = performance.now();
  await admin.query('BEGIN');
  await copyTimeline(`COPY public.${table} (${columns}) FROM STDIN`, rate, () => 1);
  await admin.query('COMMIT');
  const ms = performance.now() - t0;
  await admin.query(`DROP TABLE public.${table}`);
  return (N / ms) * 1000;
}

/** The N annotations of the timeline through one COPY statement, 1,000 lines a write; `first(n)` is each line's leading column. */
async function copyTimeline(statement, rate, first) {
  const stream = admin.query(copyFrom(statement));
  let lines = '';
  let n = 0;
  for (const a of timeline(N)) {
    lines += copyLine(first(n), encodeAnnotation(a, rate));
    if (++n % 1000 === 0) {
      const more = stream.write(lines);
      lines = '';
      if (!more) await once(stream, 'drain');
    }
  }
  stream.end(lines);
  await finished(stream);
}

class LoadOnly extends Error {}

const NAMES = WRITE_COLUMNS.map(([c]) => c).join(', ');

/**
 * The path addMany took before (issue 23 §6): COPY into a temporary staging table, then one
 * INSERT ... SELECT ... ORDER BY into a table of the same schema. Run with ANNOT_BENCH_PG_STAGED=1.
 */
async function stagedCopy() {
  await admin.query(`DROP TABLE IF EXISTS public.${SAME}`);
  await admin.query(`CREATE TABLE public.${SAME} (LIKE annot.annotations INCLUDING ALL)`);
  const rate = new ProjectRate(705_600_000, RUN);
  const t0 = performance.now();
  await admin.query('BEGIN');
  await admin.query(`CREATE TEMP TABLE annot_stage (ord int8, ${WRITE_COLUMNS.map(([c, type]) => `${c} ${type.slice(0, -2)}`).join(', ')}) ON COMMIT DROP`);
  await copyTimeline(`COPY pg_temp.annot_stage (ord, ${NAMES}) FROM STDIN`, rate, (n) => n);
  await admin.query(`INSERT INTO public.${SAME} (pid, ${NAMES}) SELECT 1, ${NAMES} FROM pg_temp.annot_stage ORDER BY ord`);
  await admin.query('COMMIT');
  const ms = performance.now() - t0;
  await admin.query(`DROP TABLE public.${SAME}`);
  return (N / ms) * 1000;
}
/** A bare table: the written columns, nothing else. */
const bareCopy = () =>
  rawCopy(BARE, `CREATE TABLE public.${BARE} (pid integer, ${WRITE_COLUMNS.map(([c, type]) => `${c} ${type.slice(0, -2)}`).join(', ')})`, `pid, ${NAMES}`);
/** annot.annotations as it is: columns, primary key, checks, the seq identity and every index, the GiST span index included. */
const sameSchemaCopy = () => rawCopy(SAME, `CREATE TABLE public.${SAME} (LIKE annot.annotations INCLUDING ALL)`, `pid, ${NAMES}`);

const rawPerS = await rawInsert();
const copyPerS = await bareCopy();
// The store first: it creates the schema in an empty database, which the same-schema copy copies.
const store = await PostgresStore.open(URL_, { project: RUN });
try {
  for (const name of ['sections', 'lines', 'words']) await store.addTier(makeTier({ name }));
  const schemaPerS = await sameSchemaCopy();
  const stagedPerS = process.env.ANNOT_BENCH_PG_STAGED ? await stagedCopy() : null;
  const t0 = performance.now();
  await store.addMany(timeline(N));
  const ourPerS = (N / (performance.now() - t0)) * 1000;
  // This server runs with autovacuum off: do what autovacuum would (statistics, visibility map) before querying.
  await admin.query('VACUUM (ANALYZE) annot.annotations');
  report({
    name: `PostgreSQL bulk load of ${N.toLocaleString('en-US')} annotations (addMany, one transaction)`,
    figure: ourPerS,
    unit: 'annotations/s',
    reference: 'raw COPY of the same rows into a table of the same schema (keys, checks, indexes)',
    referenceFigure: schemaPerS,
    higherIsBetter: true,
    targetText: '>= 0.8x raw COPY into the same schema',
    met: ourPerS >= 0.8 * schemaPerS,
    extra: {
      raw_copy_bare_table_per_s: Math.round(copyPerS),
      ratio_to_bare_copy: (ourPerS / copyPerS).toFixed(2),
      raw_unnest_insert_per_s: Math.round(rawPerS),
      ratio_to_unnest: (ourPerS / rawPerS).toFixed(2),
      ...(stagedPerS === null ? {} : { previous_path_staged_copy_then_insert_select_per_s: Math.round(stagedPerS), previous_path_ratio_to_same_schema: (stagedPerS / schemaPerS).toFixed(2) }),
    },
  });

  // --- 2. window query (ANNOT_BENCH_PG_LOAD_ONLY=1 skips it) ---------------------------------------
  if (process.env.ANNOT_BENCH_PG_LOAD_ONLY) throw new LoadOnly();

  const windows = Array.from({ length: 250 }, (_, i) => {
    const start = Math.floor((((i * 7919) % 997) / 997) * (SPAN_SECONDS - 20)) * 1000;
    return new TimeInterval(new RationalTime(start, 1000), new RationalTime(start + 10_000, 1000));
  });
  const sizes = [];
  const ours = await latencies(async (i) => {
    const hits = await store.intersects(windows[i % windows.length]);
    sizes[i % windows.length] = hits.length;
  }, { runs: 500, warmup: 50 });
  const rowsPerWindow = Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);

  const { rows: pidRows } = await admin.query('SELECT pid FROM annot.projects WHERE name = $1', [RUN]);
  const pid = pidRows[0].pid;
  const w = windows[3];
  const ticks = (t) => (BigInt(t.v) * 705_600_000n) / BigInt(t.r);
  const plan = (await admin.query(
    `EXPLAIN SELECT * FROM annot.annotations WHERE pid = $1 AND span && $2::int8range ORDER BY start_n, end_n, id`,
    [pid, `[${ticks(w.start)},${ticks(w.end)})`],
  )).rows.map((r) => r['QUERY PLAN']).join(' | ');
  const usesGist = plan.includes('annotations_span');

  // The store's own window SQL, run raw on a pool of one with a named statement: what the store adds on top of it.
  const windowSql = `SELECT coalesce(json_agg(${ROW_JSON} ORDER BY start_n, end_n, id), '[]') AS rows FROM annot.annotations WHERE pid = $1 AND span && $2::int8range`;
  const spanOf = (t) => `[${ticks(t.start)},${ticks(t.end)})`;
  const rawPool = new pg.Pool({ connectionString: URL_, max: 1 });
  const rawSql = await latencies(async (i) => {
    await rawPool.query({ name: 'bench_window', text: windowSql, values: [pid, spanOf(windows[i % windows.length])] });
  }, { runs: 500, warmup: 50 });
  await rawPool.end();
  const analyze = (await admin.query(`EXPLAIN (ANALYZE, BUFFERS) ${windowSql}`, [pid, spanOf(w)])).rows.map((r) => r['QUERY PLAN'].trim()).join(' | ');

  const sample = (await admin.query(`SELECT id FROM annot.annotations WHERE pid = $1 ORDER BY random() LIMIT 20000`, [pid])).rows.map((r) => r.id);
  const pool = new pg.Pool({ connectionString: URL_, max: 1 });
  const byKey = await latencies(async (i) => {
    const from = (i * 997) % (sample.length - rowsPerWindow);
    await pool.query('SELECT * FROM annot.annotations WHERE pid = $1 AND id = ANY($2::uuid[])', [pid, sample.slice(from, from + rowsPerWindow)]);
  }, { runs: 500, warmup: 50 });
  await pool.end();

  let annot = null;
  const annotFile = join(root, 'bench', '.data', 'store-1m.annot');
  if (existsSync(join(root, 'dist', 'src', 'store', 'sqlite.js')) && existsSync(annotFile)) {
    const { SqliteStore } = await import('../dist/src/store/sqlite.js');
    const file = await SqliteStore.open(annotFile, { readonly: true });
    if ((await file.count()) === N) annot = await latencies((i) => file.intersects(windows[i % windows.length]), { runs: 500, warmup: 50 });
    await file.close();
  }
  const reference = annot ?? byKey;
  report({
    name: `PostgreSQL window query (10 s, ~${rowsPerWindow} of ${N.toLocaleString('en-US')} annotations), p50`,
    figure: ours.p50,
    unit: 'ms',
    reference: annot ? '.annot SqliteStore, same timeline and windows' : `raw pg query of ${rowsPerWindow} rows by primary key`,
    referenceFigure: reference.p50,
    higherIsBetter: false,
    targetText: 'p50 < 2 ms and <= 1.5x the same SQL raw',
    met: ours.p50 < 2 && ours.p50 <= 1.5 * rawSql.p50,
    extra: {
      p99_ms: ours.p99.toFixed(2),
      same_sql_raw_p50_ms: rawSql.p50.toFixed(2),
      ratio_to_same_sql_raw: (ours.p50 / rawSql.p50).toFixed(2),
      explain_analyze: JSON.stringify(analyze.replace(/,/g, ';')),
      reference_p99_ms: reference.p99.toFixed(2),
      raw_pk_p50_ms: byKey.p50.toFixed(2),
      plan_uses_gist_index: usesGist,
    },
  });
  if (!usesGist) console.log(`window query plan: ${plan}`);
} catch (error) {
  if (!(error instanceof LoadOnly)) throw error;
} finally {
  await store.dropProject();
  await admin.query(`DROP TABLE IF EXISTS public.${BARE}`);
  await admin.query(`DROP TABLE IF EXISTS public.${SAME}`);
  await admin.query('VACUUM annot.annotations'); // reclaim the deleted million rows (and their index entries) now
  await admin.end();
}
