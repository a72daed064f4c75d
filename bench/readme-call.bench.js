// The README's way of calling annot (set-up: `export PATH="$PWD/bin:$PATH"`, then `annot ...`: the
// executable bin/annot, a link to bin/run.js, found on the PATH) against `node bin/run.js --version`,
// the two alternated round by round so a busy machine weighs on both alike. Target: at most 2x.
// `npx annot`, which the README used before, is timed beside them for the record (it resolves the
// project through npm on every call).
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { median, report } from './lib/harness.js';
import { medianWallMs } from './lib/processes.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PATH = `${join(root, 'bin')}:${process.env.PATH}`;
const ROUNDS = 15;

function wallMs(command, args, env = {}) {
  const t0 = performance.now();
  const result = spawnSync(command, args, { stdio: 'ignore', cwd: root, env: { ...process.env, ...env } });
  const elapsed = performance.now() - t0;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.error}`);
  return elapsed;
}


const onPath = [];
const direct = [];
wallMs('annot', ['--version'], { PATH });
wallMs(process.execPath, [join(root, 'bin', 'run.js'), '--version']);
for (let round = 0; round < ROUNDS; round++) {
  onPath.push(wallMs('annot', ['--version'], { PATH }));
  direct.push(wallMs(process.execPath, [join(root, 'bin', 'run.js'), '--version']));
}
// For the record only: npx's figure never fails the bench (a first call may fill npm's cache for a minute; the warm-up takes it).
let npx = 'not run (ANNOT_BENCH_NO_NPX)';
if (!process.env.ANNOT_BENCH_NO_NPX) {
  try {
    npx = medianWallMs('npx', ['annot', '--version'], { runs: 3, cwd: root }).toFixed(0);
  } catch (error) {
    npx = `failed: ${error.message}`;
  }
}

report({
  name: 'the README\'s call: annot --version, bin/ on the PATH',
  figure: median(onPath),
  unit: 'ms',
  reference: 'node bin/run.js --version',
  referenceFigure: median(direct),
  higherIsBetter: false,
  target: 2,
  targetText: '<= 2x node bin/run.js --version',
  extra: { rounds: ROUNDS, npx_annot_version_ms: npx, load_average: loadavg().map((load) => load.toFixed(1)).join(' ') },
});
