// Start-up on small files (issue 33): `annot --version`, `annot convert` of a 2-cue WebVTT file to
// SRT, `annot validate` and `annot query` of it, each a whole process, against `node -e 0` measured
// in the same rounds (target: at most 1.5x its wall time and its CPU time, user + system). The
// commands and the reference run in turn, ROUNDS times, and medians are compared, so load from
// elsewhere on the machine falls on all of them. CPU times come from `perf stat -e task-clock`, or
// GNU time (/usr/bin/time, in 10 ms steps) without perf; with neither only wall times are compared. A bare oclif CLI with one empty command is measured beside them,
// so the figures show what oclif itself would cost. Run alone with `node bench/run.js startup`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median, report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const run = join(root, 'bin', 'run.js');
const ROUNDS = Number(process.env.ANNOT_BENCH_STARTUP_ROUNDS ?? 15);
/** CPU time per run from `perf stat -e task-clock` (milliseconds, all threads) where perf works, else from GNU time (10 ms steps). */
const perfWorks = /task-clock/.test(spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true'], { encoding: 'utf8' }).stderr ?? '');
const gnuTime = !perfWorks && existsSync('/usr/bin/time');

const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-startup-'));

/** Wall and CPU milliseconds of one run (CPU null without GNU time); throws on a non-zero exit. */
function once(args) {
  const t0 = performance.now();
  if (perfWorks) {
    const result = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', node, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], cwd: scratch });
    const wall = performance.now() - t0;
    const line = result.stderr.split('\n').find((l) => l.includes('task-clock'));
    if (result.status !== 0 || line === undefined) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
    return { wall, cpu: Number(line.split(',')[0]) };
  }
  const result = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', '%U %S', node, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], cwd: scratch })
    : spawnSync(node, args, { stdio: 'ignore', cwd: scratch });
  const wall = performance.now() - t0;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr ?? ''}`);
  if (!gnuTime) return { wall, cpu: null };
  const [user, system] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: (user + system) * 1000 };
}

try {
  const vtt = join(scratch, 'small.vtt');
  writeFileSync(vtt, 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n00:00:01.500 --> 00:00:03.000\nGeneral Kenobi.\n');
  const bare = join(scratch, 'bare-oclif');
  mkdirSync(join(bare, 'commands'), { recursive: true });
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', type: 'module', oclif: { bin: 'bare', commands: './commands' } }));
  writeFileSync(join(bare, 'commands', 'hello.js'), "import { Command } from '@oclif/core';\nexport default class Hello extends Command { async run() {} }\n");
  writeFileSync(join(bare, 'run.js'), "import { execute } from '@oclif/core';\nawait execute({ dir: import.meta.url });\n");
  symlinkSync(join(root, 'node_modules'), join(bare, 'node_modules'));

  const commands = [
    { name: 'annot --version', args: [run, '--version'] },
    { name: 'annot convert small.vtt small.srt (2 cues)', args: [run, 'convert', vtt, join(scratch, 'small.srt')] },
    { name: 'annot validate small.vtt (2 cues)', args: [run, 'validate', vtt] },
    { name: 'annot query small.vtt (2 cues)', args: [run, 'query', vtt] },
    { name: 'bare oclif CLI, one empty command', args: [join(bare, 'run.js'), '--version'], informational: true },
  ];
  const baseline = [];
  const samples = commands.map(() => []);
  once(['-e', '0']);
  for (const command of commands) once(command.args); // warm-up: the page cache, not measured
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(once(['-e', '0']));
    for (const [i, command] of commands.entries()) samples[i].push(once(command.args));
  }
  const baseWall = median(baseline.map((s) => s.wall));
  const measuresCpu = perfWorks || gnuTime;
  const baseCpu = measuresCpu ? median(baseline.map((s) => s.cpu)) : null;
  for (const [i, command] of commands.entries()) {
    const wall = median(samples[i].map((s) => s.wall));
    const cpu = measuresCpu ? median(samples[i].map((s) => s.cpu)) : null;
    const cpuRatio = cpu === null ? null : cpu / baseCpu;
    report({
      name: `${command.name}, whole process, wall`,
      figure: wall,
      unit: 'ms',
      reference: 'node -e 0',
      referenceFigure: baseWall,
      higherIsBetter: false,
      ...(command.informational ? {} : { targetText: '<= 1.5x node -e 0, wall and CPU', met: wall <= 1.5 * baseWall && (cpuRatio === null || cpuRatio <= 1.5) }),
      extra: {
        cpu_ms: cpu === null ? 'n/a' : cpu.toFixed(1),
        node_e_0_cpu_ms: baseCpu === null ? 'n/a' : baseCpu.toFixed(1),
        cpu_from: perfWorks ? 'perf stat task-clock' : gnuTime ? 'GNU time' : 'n/a',
        cpu_ratio: cpuRatio === null ? 'n/a' : cpuRatio.toFixed(2),
        rounds: ROUNDS,
        // Node reads these certificates at every start, `node -e 0` included (about 45 ms of CPU on the project's machine).
        node_extra_ca_certs: process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset',
        load_average: loadavg().map((x) => x.toFixed(2)).join(' '),
      },
    });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
