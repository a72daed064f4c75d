// `annot render` as a whole process (issue 8):
// (a) a fully cached 1,000-unit scene, JSON lines to a pipe: under 1 s; references measured in the
//     same run: `node -e 0` and `annot --version` (what any annot command costs to start).
// (b) the local preview provider renders the example scene (fixtures/scenes/lighthouse.yaml) from
//     an empty cache in under 30 s, with the time of each unit; reference: the same command
//     fully cached.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { report } from './lib/harness.js';
import { startFakeFalServer } from './lib/fake-fal.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const annot = join(root, 'bin', 'run.js');
const node = process.execPath;
const LIGHTHOUSE = join(root, 'fixtures', 'scenes', 'lighthouse.yaml');

/** Median wall time of a command whose stdout is a pipe we read, after one warm-up. */
function medianPipedMs(args, env, runs = 7, check = () => {}) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const result = spawnSync(node, args, { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 << 20 });
    const elapsed = performance.now() - t0;
    if (result.status !== 0) throw new Error(`${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
    check(result.stdout);
    if (i > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Runs a command to the end, asynchronously (the fake fal server lives in this process). */
function runAsync(args, env, onLine = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        onLine(buffer.slice(0, end), performance.now());
        buffer = buffer.slice(end + 1);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`))));
  });
}

/**
 * The scene as JSON: a 3,000-line YAML file costs the `yaml` package most of a second to parse
 * with line positions, which would measure the YAML parser rather than the render.
 */
function bigSceneJson(units) {
  const half = units / 2;
  return JSON.stringify({
    title: 'bench cli',
    style: 'storyboard',
    characters: [{ name: 'A', voice: { voice_id: 'v' } }],
    shots: Array.from({ length: half }, (_, i) => ({ id: `s${i}`, description: `shot number ${i}` })),
    beats: Array.from({ length: units - half }, (_, i) => ({ id: `b${i}`, speaker: 'A', line: `line number ${i}` })),
  });
}

async function cachedThousand() {
  const dir = mkdtempSync(join(tmpdir(), 'annot-bench-cli-'));
  const fal = await startFakeFalServer();
  try {
    const scene = join(dir, 'big.json');
    writeFileSync(scene, bigSceneJson(1000));
    const env = { ANNOT_CACHE_DIR: join(dir, 'cache'), FAL_KEY: 'bench', FAL_QUEUE_URL: fal.url };
    const args = [annot, 'render', 'scene', scene, '--manifest', join(dir, 'm.json')];
    await runAsync([...args, '--concurrency', '16'], env);
    const calls = fal.submissions().length;
    await fal.close(); // a cached render must not need the server at all
    const figure = medianPipedMs(args, env, 7, (stdout) => {
      const n = stdout.split('\n').filter(Boolean).length;
      if (n !== 1000) throw new Error(`expected 1000 JSON lines, got ${n}`);
    });
    const baseline = medianPipedMs(['-e', '0'], {});
    const version = medianPipedMs([annot, '--version'], {});
    report({
      name: 'annot render scene, 1,000 cached units, JSON lines to a pipe',
      figure,
      unit: 'ms',
      reference: 'annot --version',
      referenceFigure: version,
      higherIsBetter: false,
      targetText: 'under 1000 ms (absolute)',
      met: figure < 1000,
      extra: { node_e_0_ms: baseline.toFixed(1), ratio_to_node_e_0: (figure / baseline).toFixed(2), populating_calls: calls, before_precompiled_validator_ms: 1060 },
    });
  } finally {
    await fal.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

async function localExample() {
  const dir = mkdtempSync(join(tmpdir(), 'annot-bench-local-'));
  try {
    const env = { ANNOT_CACHE_DIR: join(dir, 'cache'), FAL_KEY: '' };
    const args = [annot, 'render', 'scene', LIGHTHOUSE, '--provider', 'local', '--manifest', join(dir, 'm.json')];
    const perUnit = [];
    const t0 = performance.now();
    let last = t0;
    await runAsync(args, env, (line, at) => {
      const unit = JSON.parse(line);
      perUnit.push(`${unit.unit}:${unit.id}=${Math.round(at - last)}ms`);
      last = at;
    });
    const figure = (performance.now() - t0) / 1000;
    const cached = medianPipedMs(args, env, 3) / 1000;
    report({
      name: 'local provider renders the example scene (empty cache)',
      figure,
      unit: 's',
      reference: 'the same render fully cached',
      referenceFigure: cached,
      higherIsBetter: false,
      targetText: 'under 30 s (absolute)',
      met: figure < 30,
      extra: { speech: spawnSync('sh', ['-c', 'command -v espeak-ng']).status === 0 ? 'espeak-ng' : 'placeholder', units: perUnit.join(' ') },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await cachedThousand();
await localExample();
