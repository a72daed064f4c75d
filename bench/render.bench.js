// The render engine's two figures (issue 7):
// (a) a fully cached 1,000-unit scene: iterRenderScene yields everything in under 0.3 s;
//     reference: reading the same 1,000 rows straight from the cache's SQLite file.
// (b) 100 units against the fake fal server at 200 ms per call and concurrency 10 finish within
//     1.15x of the ideal calls x 200 ms / 10, with never more than 10 requests in flight;
//     reference: the ideal measured on this machine (10 lanes of 10 sequential 200 ms timers).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { median, report } from './lib/harness.js';
import { CACHE_FILE_NAME, closeRenderCaches } from '../dist/src/render/cache.js';
import { withCredentials } from '../dist/src/render/credentials.js';
import { FalProvider } from '../dist/src/render/providers/fal/fal-provider.js';
import { iterRenderScene } from '../dist/src/render/render-scene.js';
import { startFakeFalServer } from './lib/fake-fal.js';

const CALL_MS = 200;

function bigScene(units) {
  const half = units / 2;
  return {
    title: 'bench',
    style: 'storyboard',
    characters: [{ name: 'A', voice: { voice_id: 'v' } }],
    shots: Array.from({ length: half }, (_, i) => ({ id: `s${i}`, description: `shot number ${i}` })),
    beats: Array.from({ length: units - half }, (_, i) => ({ id: `b${i}`, speaker: 'A', line: `line number ${i}` })),
  };
}

async function drain(iterator) {
  let n = 0;
  for await (const _item of iterator) n++;
  return n;
}

async function cachedScene() {
  const fal = await startFakeFalServer();
  const cacheDir = mkdtempSync(join(tmpdir(), 'annot-bench-'));
  const provider = new FalProvider({ baseUrl: fal.url, pollIntervalMs: 1 });
  const scene = bigScene(1000);
  const opts = { provider, cacheDir, concurrency: 16 };
  await withCredentials({ falKey: 'bench' }, () => drain(iterRenderScene(scene, opts)));
  const calls = fal.submissions().length;

  const times = [];
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    const n = await withCredentials({ falKey: 'bench' }, () => drain(iterRenderScene(scene, { provider, cacheDir })));
    times.push(performance.now() - t0);
    if (n !== 1000) throw new Error(`expected 1000 results, got ${n}`);
  }
  if (fal.submissions().length !== calls) throw new Error('the cached renders called the model');

  const refTimes = [];
  for (let run = 0; run < 5; run++) {
    const t0 = performance.now();
    const db = new Database(join(cacheDir, CACHE_FILE_NAME), { readonly: true });
    const rows = db.prepare('SELECT result FROM units').all().map((r) => JSON.parse(r.result));
    db.close();
    refTimes.push(performance.now() - t0);
    if (rows.length !== 1000) throw new Error(`expected 1000 rows, got ${rows.length}`);
  }
  closeRenderCaches();
  await fal.close();
  rmSync(cacheDir, { recursive: true, force: true });
  const figure = median(times);
  const reference = median(refTimes);
  report({
    name: 'render: fully cached 1,000-unit scene (iterRenderScene, serial)',
    figure,
    unit: 'ms',
    reference: 'reading the 1,000 cached rows straight from SQLite',
    referenceFigure: reference,
    higherIsBetter: false,
    target: 300 / reference,
    targetText: 'figure < 300 ms',
    extra: { first_run_ms: times[0].toFixed(1), runs_ms: times.map((t) => t.toFixed(1)).join('/') },
  });
}

async function concurrentScene() {
  const fal = await startFakeFalServer({ latencyMs: CALL_MS });
  const cacheDir = mkdtempSync(join(tmpdir(), 'annot-bench-'));
  const provider = new FalProvider({ baseUrl: fal.url, statusStream: true });
  const scene = bigScene(100);
  scene.characters[0].voice = null;
  const t0 = performance.now();
  const n = await withCredentials({ falKey: 'bench' }, () => drain(iterRenderScene(scene, { provider, cacheDir, concurrency: 10 })));
  const figure = performance.now() - t0;
  const calls = fal.submissions().length;
  if (n !== 100 || calls !== 100) throw new Error(`expected 100 units and calls, got ${n} and ${calls}`);

  const r0 = performance.now();
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      for (let i = 0; i < calls / 10; i++) await new Promise((r) => setTimeout(r, CALL_MS));
    }),
  );
  const reference = performance.now() - r0;
  const maxInFlight = fal.maxInFlight;
  closeRenderCaches();
  await fal.close();
  rmSync(cacheDir, { recursive: true, force: true });
  report({
    name: 'render: 100 units at concurrency 10 against the fake fal server (200 ms per call)',
    figure,
    unit: 'ms',
    reference: `ideal calls x ${CALL_MS} ms / 10, measured as 10 lanes of timers`,
    referenceFigure: reference,
    higherIsBetter: false,
    target: 1.15,
    targetText: '<= 1.15x ideal, max in flight <= 10',
    extra: { calls, ideal_ms: (calls * CALL_MS) / 10, max_in_flight: maxInFlight, in_flight_ok: maxInFlight <= 10 },
  });
  if (maxInFlight > 10) process.exitCode = 1;
}

await cachedScene();
await concurrentScene();
