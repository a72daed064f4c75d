// Batch conversion (issue: batch conversion): `annot convert in/*.srt --to vtt --out-dir out --jobs 2`
// over 1,000 small SRT files, against the same 1,000 files converted by 1,000 separate
// `annot convert IN OUT` processes in the same run, two at a time (as `xargs -P 2` would: the
// reference gets the same two cores the batch gets). Target: the batch takes <= 1/1.6 of the
// reference's wall time (ratio <= 0.625). Both go through bin/run.js as a user runs them.
// ANNOT_BENCH_BATCH_FILES changes the number of files (default 1000).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = join(root, 'bin', 'run.js');
const FILES = Number(process.env.ANNOT_BENCH_BATCH_FILES ?? 1000);
const CUES = 20;

function smallSrt(seed) {
  const blocks = [];
  for (let i = 0; i < CUES; i++) {
    const start = seed + i * 2;
    const time = (s, ms) => `00:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')},${ms}`;
    blocks.push(`${i + 1}\n${time(start, '000')} --> ${time(start + 1, '500')}\nline ${i} of file ${seed}\n`);
  }
  return blocks.join('\n');
}

/** Runs `annot convert IN OUT` for each pair, `parallel` processes at a time; resolves with the wall milliseconds. */
function separateProcesses(pairs, parallel) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let next = 0;
    let running = 0;
    const startNext = () => {
      if (next >= pairs.length && running === 0) return resolve(performance.now() - t0);
      while (running < parallel && next < pairs.length) {
        const [input, output] = pairs[next++];
        running++;
        const child = spawn(process.execPath, [run, 'convert', input, output], { stdio: 'ignore' });
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0) return reject(new Error(`annot convert ${input} ${output} exited with ${code}`));
          running--;
          startNext();
        });
      }
    };
    startNext();
  });
}

function batchProcess(inputs, outDir, jobs) {
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [run, 'convert', ...inputs, '--to', 'vtt', '--out-dir', outDir, '--jobs', String(jobs)], { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`the batch conversion exited with ${result.status}`);
  return performance.now() - t0;
}

const work = mkdtempSync(join(tmpdir(), 'annot-bench-batch-'));
try {
  const input = join(work, 'in');
  mkdirSync(input);
  const names = Array.from({ length: FILES }, (_, i) => `f${String(i).padStart(4, '0')}`);
  for (const [i, name] of names.entries()) writeFileSync(join(input, `${name}.srt`), smallSrt(i));
  const inputs = names.map((name) => join(input, `${name}.srt`));
  const loadBefore = loadavg()[0];
  // Batch first and last, the separate processes between, so a change of load falls on both.
  const batchA = batchProcess(inputs, join(work, 'batch-a'), 2);
  mkdirSync(join(work, 'separate'));
  const separate = await separateProcesses(names.map((name) => [join(input, `${name}.srt`), join(work, 'separate', `${name}.vtt`)]), 2);
  const batchB = batchProcess(inputs, join(work, 'batch-b'), 2);
  const batchJobs1 = batchProcess(inputs, join(work, 'batch-1'), 1);
  if (readdirSync(join(work, 'batch-a')).length !== FILES || readdirSync(join(work, 'separate')).length !== FILES) throw new Error('not every file was written');
  const batch = Math.min(batchA, batchB);
  report({
    name: `annot convert ${FILES} small SRT files --to vtt --out-dir --jobs 2, whole process`,
    figure: batch / 1000,
    unit: 's',
    reference: `${FILES} separate annot convert processes, 2 at a time`,
    referenceFigure: separate / 1000,
    higherIsBetter: false,
    target: 1 / 1.6,
    targetText: '<= 1/1.6 (0.625) of separate processes',
    extra: { batch_runs_s: `${(batchA / 1000).toFixed(2)} ${(batchB / 1000).toFixed(2)}`, jobs_1_s: (batchJobs1 / 1000).toFixed(2), load_before: loadBefore.toFixed(2), load_after: loadavg()[0].toFixed(2) },
  });
} finally {
  rmSync(work, { recursive: true, force: true });
}
