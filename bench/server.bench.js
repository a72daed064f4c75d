// `annot serve` under load, measured with wrk (https://github.com/wg/wrk) beside its references in
// the same run:
// 0. GET /health: the server's own overhead, for reading the figures below.
// 1. GET /annotations?start=S&end=S+10 (a random 10-second window) for 10 seconds over a
//    100,000-annotation store, same wrk settings for every reference. Two densities: one
//    annotation every 0.5 s (about 20 per window; target: at least 40% of a bare node:http
//    hello-world) and ten a second (about 100 per window; target: at least 0.35x a bare node:http
//    server in its own process sending the very same response bytes, p99 under 10 ms). A second
//    reference for the 100-row window: a node:http server in its own process answering each
//    window with raw better-sqlite3 and JSON.stringify of the rows.
// 2. Paging a 1,000,000-annotation .annot file to the end over HTTP (GET /annotations?limit=1000
//    and a whole-store window, following Link: rel="next"): the last page must cost what the
//    first does, within 2x (keyset pages: a LIMIT from the last key, never a scan from the start).
// 3. POST /annotations (each with its op-log entry) on an .annot file for 10 seconds vs the
//    issue's floor of 2,000 creates/s; the in-process service rate is reported beside it.
// The servers run in this process; wrk runs in its own. Install wrk with `apt-get install wrk`.
// The machine is shared: each window figure and its reference are measured in ROUNDS alternating
// rounds (SECONDS in all for each), so a change of load hits both; the load average is reported.
import { spawnSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeAnnotation, mediaRef } from '../dist/src/model/annotation.js';
import { makeTier } from '../dist/src/model/tier.js';
import { isOpLoggedStore } from '../dist/src/oplog/op-logged-store.js';
import { startServer } from '../dist/src/server/serve.js';
import { AnnotationService } from '../dist/src/service/annotation-service.js';
import { MemoryStore } from '../dist/src/store/memory.js';
import { SqliteStore } from '../dist/src/store/sqlite.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { median, report } from './lib/harness.js';

const N = Number(process.env.ANNOT_BENCH_SERVER_ROWS ?? 100_000);
const SECONDS = Number(process.env.ANNOT_BENCH_SERVER_SECONDS ?? 10);
const ROUNDS = Number(process.env.ANNOT_BENCH_SERVER_ROUNDS ?? 5);
const PAGED_ROWS = Number(process.env.ANNOT_BENCH_PAGED_ROWS ?? 1_000_000);
/** Which parts to run (all by default): windows, paging, creates. */
const PARTS = new Set((process.env.ANNOT_BENCH_SERVER_PARTS ?? 'windows,paging,creates').split(','));
const THREADS = 2;
const CONNECTIONS = 32;
const GENERATED_AT = new RationalTime(1_700_000_000_000, 1000);
const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-server-'));

if (spawnSync('wrk', ['--version']).error) {
  console.log('server.bench: wrk is not installed (apt-get install wrk); skipped');
  process.exit(0);
}

/** Runs wrk against a URL and returns requests/s and latency percentiles (ms). */
function wrk(url, script, seconds = SECONDS) {
  return new Promise((resolve, reject) => {
    const scriptFile = join(scratch, `script-${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(scriptFile, script);
    const child = spawn('wrk', [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-s', scriptFile, url]);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
      const percentile = (p) => {
        const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(out);
        if (!match) return NaN;
        return Number(match[1]) * { us: 0.001, ms: 1, s: 1000 }[match[2]];
      };
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
      if (!Number.isFinite(rps)) reject(new Error(`wrk output not understood:\n${out}`));
      else resolve({ rps, p50: percentile(50), p99: percentile(99), non2xx });
    });
  });
}

/**
 * wrk against each target in turn, ROUNDS times, SECONDS in all per target: requests/s over all
 * rounds, and the median and largest of the rounds' p99 latencies. Alternating rounds put a
 * shared machine's changes of load on every target alike.
 */
async function interleaved(targets) {
  const runs = targets.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { url, script }] of targets.entries()) runs[i].push(await wrk(url, script, Math.max(1, Math.round(SECONDS / ROUNDS))));
  }
  return runs.map((rounds) => {
    const p99s = rounds.map((r) => r.p99).sort((a, b) => a - b);
    return {
      rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
      p99: p99s[Math.floor(p99s.length / 2)],
      p99Max: p99s[p99s.length - 1],
      p50: median(rounds.map((r) => r.p50)),
      non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    };
  });
}

/**
 * Waits until this process (the server under test) is idle: its CPU time over 250 ms under 10%
 * of that, so work it does in the background after the first requests (the interval index's
 * texts, sqlite-paged-reads.ts) is done before a steady state is measured. At most 60 s.
 */
async function settled() {
  const start = performance.now();
  while (performance.now() - start < 60_000) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const used = process.cpuUsage(before);
    if ((used.user + used.system) / 1000 < 25) break;
  }
  return performance.now() - start;
}

/** The 1-, 5- and 15-minute load averages, for reading a figure taken on a shared machine. */
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');

/** A random window of `width` seconds inside [0, span) per request. */
const windowScript = (span, width) => `
math.randomseed(${Date.now() % 100000})
request = function()
  local s = math.random(0, ${Math.max(0, span - width)})
  return wrk.format("GET", "/annotations?start=" .. s .. "&end=" .. (s + ${width}))
end
`;

/** A store of N words, `perSecond` of them a second, 0.4 s each at a 1 kHz rate; SQLite in memory (serve's default) when it has the op-log. */
async function filledStore(perSecond) {
  let store = await SqliteStore.open(':memory:');
  if (!isOpLoggedStore(store)) {
    await store.close();
    store = new MemoryStore();
  }
  await store.addTier(makeTier({ name: 'words' }));
  const stepMs = 1000 / perSecond;
  function* words() {
    for (let i = 0; i < N; i++) {
      const start = Math.round(i * stepMs);
      yield makeAnnotation({
        tier: 'words',
        reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(start, 1000), new RationalTime(start + 400, 1000))),
        body: { text: `w${i}` },
        body_schema_uri: 'annot://schema/word/v1',
        provenance: { was_generated_by: 'bench', generated_at_time: GENERATED_AT },
      });
    }
  }
  await store.addMany(words());
  return { store, spanSeconds: Math.floor(N / perSecond) };
}

// 1. reads
const hello = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end('{"hello":"world"}');
});
await new Promise((resolve) => hello.listen(0, '127.0.0.1', resolve));
const helloUrl = `http://127.0.0.1:${hello.address().port}`;

// The fixed cost of the server itself (fastify, routing, error handling, no store work), for
// reading the window figures: what is left between the two is the query and its JSON.
{
  const server = await startServer({ store: new MemoryStore(), log: (line) => console.error(line) });
  const [run, helloRun] = await interleaved([
    { url: server.url, script: `request = function() return wrk.format("GET", "/health") end\n` },
    { url: helloUrl, script: windowScript(1000, 10) },
  ]);
  await server.close();
  report({
    name: 'serve GET /health (server overhead only)',
    figure: run.rps,
    unit: 'req/s',
    reference: 'node:http hello-world',
    referenceFigure: helloRun.rps,
    higherIsBetter: true,
    extra: { p50_ms: run.p50, p99_ms: run.p99, load_average: load() },
  });
}

/** A node:http server in a child process running `source` (which defines `handle(request, response)`); resolves with its URL and a stop(). */
async function childServer(source) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `${source}
import { createServer } from 'node:http';
const server = createServer((request, response) => handle(request, response));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`], { stdio: ['ignore', 'pipe', 'inherit'], cwd: new URL('..', import.meta.url).pathname });
  const [chunk] = await once(child.stdout, 'data');
  return { url: `http://127.0.0.1:${String(chunk).trim()}`, stop: () => { child.kill(); return once(child, 'exit'); } };
}

/** Raw better-sqlite3 + JSON.stringify of the same rows: the store's table in a file, queried on its interval index (informational). */
async function rawSqliteRun(perSecond, spanSeconds) {
  const file = join(scratch, `raw-${perSecond}.annot`);
  const fileStore = await SqliteStore.open(file, { create: true });
  await fileStore.addTier(makeTier({ name: 'words' }));
  await fileStore.addMany((await filledStore(perSecond)).store.all());
  await fileStore.close();
  const rawServer = await childServer(`import Database from 'better-sqlite3';
const db = new Database(${JSON.stringify(file)}, { readonly: true });
const dur = db.prepare('SELECT class FROM interval_classes').pluck().get();
const select = db.prepare('SELECT * FROM annotations WHERE dur_class = ? AND start_f BETWEEN ? AND ? AND end_f > ? ORDER BY start_f');
function handle(request, response) {
  const url = new URL(request.url, 'http://x');
  const start = Number(url.searchParams.get('start'));
  const end = Number(url.searchParams.get('end'));
  const rows = select.all(dur, start - 1, end, start);
  const body = JSON.stringify(rows, (key, value) => (Buffer.isBuffer(value) ? value.toString('hex') : value));
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
}`);
  const run = await wrk(rawServer.url, windowScript(spanSeconds, 10));
  await rawServer.stop();
  return run;
}

for (const perSecond of PARTS.has('windows') ? [2, 10] : []) {
  const { store, spanSeconds } = await filledStore(perSecond);
  const server = await startServer({ store, log: (line) => console.error(line) });
  const sampleBytes = await (await fetch(`${server.url}/annotations?start=100&end=110`)).text();
  const sample = JSON.parse(sampleBytes);
  const dense = perSecond === 10;
  const windows = windowScript(spanSeconds, 10);
  // The figure is a server's steady state: one that has been answering windows (its interval
  // index built in memory and its texts made, sqlite-paged-reads.ts). The first requests, which
  // build it, and the background work after them are timed apart.
  const warmStart = performance.now();
  for (let i = 0; i < 16; i++) await (await fetch(`${server.url}/annotations?start=${i * 10}&end=${i * 10 + 10}`)).arrayBuffer();
  const warmUpMs = performance.now() - warmStart;
  const settleMs = await settled();
  // The very same response bytes from a bare node:http server in its own process, or hello-world.
  const bytesServer = dense ? await childServer(`const body = Buffer.from(${JSON.stringify(sampleBytes)});
function handle(request, response) { response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); response.end(body); }`) : null;
  const [run, reference] = await interleaved([{ url: server.url, script: windows }, { url: bytesServer?.url ?? helloUrl, script: windows }]);
  await bytesServer?.stop();
  await server.close();
  const rawSqlite = dense ? await rawSqliteRun(perSecond, spanSeconds) : null;
  report({
    name: `serve GET /annotations, 10-s window of ${sample.length} over ${N.toLocaleString('en-US')} (${store.kind})`,
    figure: run.rps,
    unit: 'req/s',
    reference: dense ? 'node:http server in its own process sending the same response bytes' : 'node:http hello-world',
    referenceFigure: reference.rps,
    higherIsBetter: true,
    target: dense ? undefined : 0.4,
    targetText: dense ? '>= 0.35x the same-bytes server, p99 < 10 ms' : '>= 40% of hello-world',
    ...(dense ? { met: run.rps >= 0.35 * reference.rps && run.p99 < 10 } : {}),
    extra: {
      response_bytes: Buffer.byteLength(sampleBytes),
      p50_ms: run.p50,
      p99_ms: run.p99,
      p99_ms_worst_round: run.p99Max,
      reference_p99_ms: reference.p99,
      first_16_requests_ms: Math.round(warmUpMs),
      then_busy_ms: Math.round(settleMs),
      ...(dense ? { raw_sqlite_json_rps: Math.round(rawSqlite.rps), raw_sqlite_json_p99_ms: rawSqlite.p99, ratio_to_raw_sqlite_json: (run.rps / rawSqlite.rps).toFixed(3) } : {}),
      non_2xx: run.non2xx,
      wrk: `-t${THREADS} -c${CONNECTIONS}, ${ROUNDS} alternating rounds of ${Math.max(1, Math.round(SECONDS / ROUNDS))}s each`,
      load_average: load(),
    },
  });
}
await new Promise((resolve) => hello.close(resolve));

// 2. paging a large store to the end
if (PARTS.has('paging')) {
  const file = join(scratch, 'paged.annot');
  const pagedStore = await SqliteStore.open(file, { create: true });
  await pagedStore.addTier(makeTier({ name: 'words' }));
  function* words() {
    for (let i = 0; i < PAGED_ROWS; i++) {
      yield makeAnnotation({
        tier: 'words',
        reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(i * 100, 1000), new RationalTime(i * 100 + 400, 1000))),
        body: { text: `w${i}` },
        body_schema_uri: 'annot://schema/word/v1',
        provenance: { was_generated_by: 'bench', generated_at_time: GENERATED_AT },
      });
    }
  }
  await pagedStore.addMany(words());
  const server = await startServer({ store: pagedStore, log: (line) => console.error(line) });
  const span = Math.ceil(PAGED_ROWS / 10) + 1;
  for (const [what, first] of [['the listing', '/annotations?limit=1000'], ['a window over the whole store', `/annotations?start=0&end=${span}&limit=1000`]]) {
    const get = async (path) => {
      const t0 = performance.now();
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      return { ms: performance.now() - t0, next: /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null };
    };
    const walkStart = performance.now();
    let pages = 0;
    let last = first;
    for (let path = first; path !== null; pages++) {
      last = path;
      path = (await get(path)).next;
    }
    const walkSeconds = (performance.now() - walkStart) / 1000;
    // The first and the last page again, alternately, so both see the same machine.
    const firstMs = [];
    const lastMs = [];
    for (let i = 0; i < 15; i++) {
      firstMs.push((await get(first)).ms);
      lastMs.push((await get(last)).ms);
    }
    report({
      name: `serve: last page of 1,000 vs the first, paging ${what} of ${PAGED_ROWS.toLocaleString('en-US')} annotations (.annot file)`,
      figure: median(lastMs),
      unit: 'ms',
      reference: 'the first page',
      referenceFigure: median(firstMs),
      higherIsBetter: false,
      target: 2,
      targetText: '<= 2x the first page',
      extra: { pages, walk_s: walkSeconds.toFixed(1), mean_page_ms: ((walkSeconds * 1000) / pages).toFixed(2), load_average: load() },
    });
  }
  await server.close();
  // The same without the in-memory index: a fresh connection's first reads are the SQL keyset (a LIMIT per duration class).
  const cold = await SqliteStore.open(file, { readonly: true });
  const window = { window: new TimeInterval(new RationalTime(0, 1), new RationalTime(span, 1)) };
  // Where the last page starts: walk to the end once.
  let lastAfter = null;
  for (let page = await cold.read(window, { limit: 1000, form: 'wire-json' }); page.next !== null; page = await cold.read(window, { after: lastAfter, limit: 1000, form: 'wire-json' })) {
    lastAfter = page.next;
  }
  await cold.close();
  const firstMs = [];
  const lastMs = [];
  for (let i = 0; i < 3; i++) {
    // Three of each on fresh connections: fewer reads than it takes to build the index in memory.
    const reader = await SqliteStore.open(file, { readonly: true });
    await reader.read({ window: new TimeInterval(new RationalTime(0, 1), new RationalTime(1, 1)) }, { limit: 1, form: 'wire-json' }); // statements and pages warmed alike
    let t0 = performance.now();
    await reader.read(window, { limit: 1000, form: 'wire-json' });
    firstMs.push(performance.now() - t0);
    t0 = performance.now();
    await reader.read(window, { after: lastAfter, limit: 1000, form: 'wire-json' });
    lastMs.push(performance.now() - t0);
    await reader.close();
  }
  report({
    name: `SqliteStore.read: last page of 1,000 vs the first, a window over ${PAGED_ROWS.toLocaleString('en-US')} annotations, SQL keyset (no index in memory)`,
    figure: median(lastMs),
    unit: 'ms',
    reference: 'the first page',
    referenceFigure: median(firstMs),
    higherIsBetter: false,
    target: 2,
    targetText: '<= 2x the first page',
    extra: { load_average: load() },
  });
  await pagedStore.close();
}

// 3. creates on an .annot file
const file = join(scratch, 'creates.annot');
const fileStore = await SqliteStore.open(file, { create: true });
if (!PARTS.has('creates')) {
  await fileStore.close();
} else if (!isOpLoggedStore(fileStore)) {
  console.log('server.bench: this build\'s SqliteStore has no op-log yet; POST /annotations on an .annot file skipped');
} else {
  const service = new AnnotationService(fileStore);
  await service.addTier({ name: 'words', stereotype: 'NONE' }, 'bench');
  const input = {
    tier: 'words',
    reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: { v: 1000, r: 1000 }, end: { v: 1400, r: 1000 } } },
    body: { text: 'hello' },
    body_schema_uri: 'annot://schema/word/v1',
  };
  // In-process service rate: the same work without HTTP, one create at a time.
  const inProcessCount = 2000;
  const t0 = performance.now();
  for (let i = 0; i < inProcessCount; i++) await service.createAnnotation(input, 'bench');
  const inProcessRate = (inProcessCount / (performance.now() - t0)) * 1000;

  const before = await service.latestClock();
  const server = await startServer({ store: fileStore, log: (line) => console.error(line) });
  const run = await wrk(
    `${server.url}/annotations`,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '${JSON.stringify(input)}'\n`,
  );
  const logged = (await (await fetch(`${server.url}/oplog/latest-clock`)).json()).clock - before;
  await server.close();
  report({
    name: 'serve POST /annotations with op-log entry, .annot file',
    figure: run.rps,
    unit: 'creates/s',
    reference: "the issue's floor",
    referenceFigure: 2000,
    higherIsBetter: true,
    target: 1,
    targetText: '>= 2,000 creates/s',
    extra: { p50_ms: run.p50, p99_ms: run.p99, non_2xx: run.non2xx, op_log_entries: logged, in_process_service_creates_per_s: Math.round(inProcessRate) },
  });
}

rmSync(scratch, { recursive: true, force: true });
