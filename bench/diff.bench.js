// `annot diff` of two 1M-annotation .annot files that differ in 1% of their annotations, whole
// process, against `annot query` streaming one of them to /dev/null (target: under 3x).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { makeAnnotation, mediaRef } from '../dist/src/model/annotation.js';
import { makeTier } from '../dist/src/model/tier.js';
import { SqliteStore } from '../dist/src/store/sqlite.js';
import { RationalTime } from '../dist/src/time/rational-time.js';
import { TimeInterval } from '../dist/src/time/time-interval.js';
import { report } from './lib/harness.js';
import { ASSET, timeline } from './lib/timeline.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'bench', '.data');
const N = Number(process.env.ANNOT_BENCH_DIFF_ROWS ?? 1_000_000);
const a = join(dataDir, `diff-a-${N}.annot`);
const b = join(dataDir, `diff-b-${N}.annot`);
const bin = join(root, 'bin', 'run.js');
mkdirSync(dataDir, { recursive: true });

const removeDb = (path) => ['', '-wal', '-shm'].forEach((suffix) => rmSync(path + suffix, { force: true }));

/** A: the shared timeline. B: a copy with 1% changed: a quarter each retimed, relabelled, removed, and as many added. */
async function prepare() {
  if (existsSync(a) && existsSync(b)) return;
  removeDb(a);
  removeDb(b);
  const store = await SqliteStore.open(a);
  for (const name of ['sections', 'lines', 'words']) await store.addTier(makeTier({ name }));
  await store.addMany(timeline(N));
  await store.close();
  copyFileSync(a, b);
  const copy = await SqliteStore.open(b);
  const picked = [];
  let i = 0;
  for await (const annotation of copy.all()) if (i++ % 100 === 50) picked.push(annotation);
  for (const [k, annotation] of picked.entries()) {
    const { start, end } = annotation.reference.interval;
    switch (k % 4) {
      case 0:
        await copy.update(makeAnnotation({ ...annotation, reference: mediaRef(ASSET, new TimeInterval(start.plus(new RationalTime(1, 100)), end.plus(new RationalTime(1, 100)))) }));
        break;
      case 1:
        await copy.update(makeAnnotation({ ...annotation, body: { text: `${annotation.body.text}!` } }));
        break;
      case 2:
        await copy.delete(annotation.id);
        break;
      case 3:
        await copy.add(makeAnnotation({ ...annotation, id: undefined, body: { text: 'added' } }));
        break;
    }
  }
  await copy.close();
}

/** Median wall time of a whole process; `ok` lists the exit codes that are not failures. */
function wallMs(args, ok = [0], runs = 3) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = spawnSync(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    times.push(performance.now() - t0);
    if (!ok.includes(result.status)) throw new Error(`annot ${args.join(' ')} exited with ${result.status}`);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)];
}

await prepare();
const changes = spawnSync(process.execPath, [bin, 'diff', a, b, '--json'], { encoding: 'utf8', maxBuffer: 256 << 20 });
if (changes.status !== 1) throw new Error(`annot diff exited with ${changes.status}: ${changes.stderr}`);
const counts = {};
for (const line of changes.stdout.trim().split('\n')) {
  const change = JSON.parse(line).change;
  counts[change] = (counts[change] ?? 0) + 1;
}
const query = wallMs(['query', a]);
const diff = wallMs(['diff', a, b], [1]);
report({
  name: `annot diff, two ${N / 1e6}M-annotation .annot files differing in 1%`,
  figure: diff,
  unit: 'ms',
  reference: 'annot query streaming one of them',
  referenceFigure: query,
  higherIsBetter: false,
  target: 3,
  targetText: '< 3x annot query',
  extra: { annotations: N, ...Object.fromEntries(Object.entries(counts).map(([k, v]) => [`${k}`, v])) },
});
