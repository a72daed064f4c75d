// Whole-process measurements: wall time of a command (median of several runs) and its peak RSS.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** Median wall-clock milliseconds of `command args` over `runs` runs (after one warm-up). */
export function medianWallMs(command, args, { runs = 11, env, cwd } = {}) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const result = spawnSync(command, args, { stdio: 'ignore', env: { ...process.env, ...env }, cwd });
    const elapsed = performance.now() - t0;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
    if (i > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Peak resident set size in MB of one run, read from GNU time (/usr/bin/time -f %M), or null. */
export function peakRssMb(command, args, { env, cwd } = {}) {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
    cwd,
  });
  if (result.error) return null;
  const kb = Number(result.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? kb / 1024 : null;
}
