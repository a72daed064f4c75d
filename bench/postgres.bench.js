// The PostgreSQL store on 1,000,000 annotations, each figure beside its reference in the same run:
// 1. bulk load with addMany (one transaction) vs a raw INSERT ... SELECT FROM unnest of the same
//    rows into a bare table without indexes (target: at least 50,000 annotations/s);
// 2. a window query returning about 100 annotations, p50 (target: under 2 ms), vs the `.annot`
//    SqliteStore on the same timeline (bench/.data/store-1m.annot, made by store.bench.js) when it
//    exists, else vs a raw query fetching as many rows by primary key; the plan is checked to use
//    the GiST index.
// Needs PostgreSQL at ANNOT_PG_URL (default postgres://postgres@127.0.0.1:5432/test). Everything
// it writes lives in its own project and a scratch table, both removed (and vacuumed) at the end.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeTier } from '../dist/src/model/tier.js';
import { PostgresStore } from '../dist/src/store/postgres.js';
import { ProjectRate, WRITE_COLUMNS, columnArrays, encodeAnnotation } from '../dist/src/store/postgres-rows.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { latencies, report } from './lib/harness.js';
import { spanSeconds, timeline } from './lib/timeline.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const URL_ = process.env.ANNOT_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = Number(process.env.ANNOT_BENCH_PG_ROWS ?? 1_000_000);
const RUN = `bench-${randomBytes(4).toString('hex')}`;
const BARE = `annot_bench_bare_${RUN.slice(6)}`;

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

const rawPerS = await rawInsert();
const store = await PostgresStore.open(URL_, { project: RUN });
try {
  for (const name of ['sections', 'lines', 'words']) await store.addTier(makeTier({ name }));
  const t0 = performance.now();
  await store.addMany(timeline(N));
  const ourPerS = (N / (performance.now() - t0)) * 1000;
  // This server runs with autovacuum off: do what autovacuum would (statistics, visibility map) before querying.
  await admin.query('VACUUM (ANALYZE) annot.annotations');
  report({
    name: `PostgreSQL bulk load of ${N.toLocaleString('en-US')} annotations (addMany, one transaction)`,
    figure: ourPerS,
    unit: 'annotations/s',
    reference: 'raw INSERT ... SELECT FROM unnest of the same rows into a bare table',
    referenceFigure: rawPerS,
    higherIsBetter: true,
    targetText: '>= 50,000 annotations/s',
    met: ourPerS >= 50_000,
  });

  // --- 2. window query ------------------------------------------------------------------------------

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
    targetText: 'p50 < 2 ms',
    met: ours.p50 < 2,
    extra: {
      p99_ms: ours.p99.toFixed(2),
      reference_p99_ms: reference.p99.toFixed(2),
      raw_pk_p50_ms: byKey.p50.toFixed(2),
      plan_uses_gist_index: usesGist,
    },
  });
  if (!usesGist) console.log(`window query plan: ${plan}`);
} finally {
  await store.dropProject();
  await admin.query(`DROP TABLE IF EXISTS public.${BARE}`);
  await admin.query('VACUUM annot.annotations'); // reclaim the deleted million rows (and their index entries) now
  await admin.end();
}
