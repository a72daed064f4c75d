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
// 2. POST /annotations (each with its op-log entry) on an .annot file for 10 seconds vs the
//    issue's floor of 2,000 creates/s; the in-process service rate is reported beside it.
// The servers run in this process; wrk runs in its own. Install wrk with `apt-get install wrk`.
import { spawnSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
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
import { report } from './lib/harness.js';

const N = Number(process.env.ANNOT_BENCH_SERVER_ROWS ?? 100_000);
const SECONDS = Number(process.env.ANNOT_BENCH_SERVER_SECONDS ?? 10);
const THREADS = 2;
const CONNECTIONS = 32;
const GENERATED_AT = new RationalTime(1_700_000_000_000, 1000);
const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-server-'));

if (spawnSync('wrk', ['--version']).error) {
  console.log('server.bench: wrk is not installed (apt-get install wrk); skipped');
  process.exit(0);
}

/** Runs wrk against a URL and returns requests/s and latency percentiles (ms). */
function wrk(url, script) {
  return new Promise((resolve, reject) => {
    const scriptFile = join(scratch, `script-${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(scriptFile, script);
    const child = spawn('wrk', [`-t${THREADS}`, `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', '-s', scriptFile, url]);
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
const helloRun = await wrk(helloUrl, windowScript(1000, 10));
await new Promise((resolve) => hello.close(resolve));

// The fixed cost of the server itself (fastify, routing, error handling, no store work), for
// reading the window figures: what is left between the two is the query and its JSON.
{
  const server = await startServer({ store: new MemoryStore(), log: (line) => console.error(line) });
  const run = await wrk(server.url, `request = function() return wrk.format("GET", "/health") end\n`);
  await server.close();
  report({
    name: 'serve GET /health (server overhead only)',
    figure: run.rps,
    unit: 'req/s',
    reference: 'node:http hello-world',
    referenceFigure: helloRun.rps,
    higherIsBetter: true,
    extra: { p50_ms: run.p50, p99_ms: run.p99 },
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

for (const perSecond of [2, 10]) {
  const { store, spanSeconds } = await filledStore(perSecond);
  const server = await startServer({ store, log: (line) => console.error(line) });
  const sampleBytes = await (await fetch(`${server.url}/annotations?start=100&end=110`)).text();
  const sample = JSON.parse(sampleBytes);
  const run = await wrk(server.url, windowScript(spanSeconds, 10));
  await server.close();
  const dense = perSecond === 10;
  let sameBytes = null;
  let rawSqlite = null;
  if (dense) {
    // The very same response bytes from a bare node:http server in its own process.
    const bytesServer = await childServer(`const body = Buffer.from(${JSON.stringify(sampleBytes)});
function handle(request, response) { response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); response.end(body); }`);
    sameBytes = await wrk(bytesServer.url, windowScript(spanSeconds, 10));
    await bytesServer.stop();
    // Raw better-sqlite3 + JSON.stringify of the same rows: the store's table in a file, queried on its interval index.
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
    rawSqlite = await wrk(rawServer.url, windowScript(spanSeconds, 10));
    await rawServer.stop();
  }
  report({
    name: `serve GET /annotations, 10-s window of ${sample.length} over ${N.toLocaleString('en-US')} (${store.kind})`,
    figure: run.rps,
    unit: 'req/s',
    reference: dense ? 'node:http server in its own process sending the same response bytes' : 'node:http hello-world',
    referenceFigure: dense ? sameBytes.rps : helloRun.rps,
    higherIsBetter: true,
    target: dense ? undefined : 0.4,
    targetText: dense ? '>= 0.35x the same-bytes server, p99 < 10 ms' : '>= 40% of hello-world',
    ...(dense ? { met: run.rps >= 0.35 * sameBytes.rps && run.p99 < 10 } : {}),
    extra: {
      response_bytes: Buffer.byteLength(sampleBytes),
      ...(dense ? {
        same_bytes_rps: Math.round(sameBytes.rps), same_bytes_p99_ms: sameBytes.p99,
        raw_sqlite_json_rps: Math.round(rawSqlite.rps), raw_sqlite_json_p99_ms: rawSqlite.p99, ratio_to_raw_sqlite_json: (run.rps / rawSqlite.rps).toFixed(3),
        ratio_to_hello: (run.rps / helloRun.rps).toFixed(3),
      } : {}),
      p50_ms: run.p50,
      p99_ms: run.p99,
      hello_p50_ms: helloRun.p50,
      hello_p99_ms: helloRun.p99,
      non_2xx: run.non2xx,
      wrk: `-t${THREADS} -c${CONNECTIONS} -d${SECONDS}s`,
    },
  });
}

// 2. creates on an .annot file
const file = join(scratch, 'creates.annot');
const fileStore = await SqliteStore.open(file, { create: true });
if (!isOpLoggedStore(fileStore)) {
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
