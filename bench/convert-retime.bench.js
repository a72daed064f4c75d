// `annot convert in.srt out.srt --shift 2.5` against `annot convert in.srt out.srt` on the same
// generated file in the same run (issue 35): a retime must keep the conversion a stream. Target:
// wall <= 1.1x the plain conversion's at 1M cues, and peak RSS flat: within 1.1x the plain
// conversion's (which streams, so is flat itself) at every size; the growth of both from 100k to
// 1M cues is printed beside it.
// Whole process, wall time and peak RSS from GNU time (`/usr/bin/time -f "%e %M"`); the two commands
// run alternately, several times each, and the medians are compared, so load from elsewhere on the
// machine falls on both. ANNOT_BENCH_RETIME_SIZES=20000:1,... changes the sizes and runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSrt } from './lib/generated-srt.js';
import { median, report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = join(root, 'bin', 'run.js');

/** Wall seconds, peak RSS (MB) and CPU seconds (user + system) of one run, from GNU time. */
function timed(args) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', process.execPath, run, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`annot ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const [seconds, kb, user, system] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, mb: kb / 1024, cpu: user + system };
}

if (!existsSync('/usr/bin/time')) {
  console.log('annot convert --shift: skipped (/usr/bin/time is not installed)');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'annot-bench-retime-'));
try {
  const sizes = process.env.ANNOT_BENCH_RETIME_SIZES?.split(',').map((pair) => pair.split(':').map(Number)) ?? [
    [100_000, 5],
    [1_000_000, 5],
  ];
  const peaks = new Map();
  const plainPeaks = new Map();
  for (const [count, runs] of sizes) {
    const input = join(dir, `in-${count}.srt`);
    await writeSrt(input, count);
    const plain = [];
    const shifted = [];
    for (let i = 0; i < runs; i++) {
      plain.push(timed(['convert', input, join(dir, 'plain.srt')]));
      shifted.push(timed(['convert', input, join(dir, 'shifted.srt'), '--shift', '2.5']));
    }
    rmSync(input, { force: true });
    const wall = median(shifted.map((r) => r.seconds));
    const plainWall = median(plain.map((r) => r.seconds));
    const rss = median(shifted.map((r) => r.mb));
    const plainRss = median(plain.map((r) => r.mb));
    peaks.set(count, rss);
    plainPeaks.set(count, plainRss);
    const size = count >= 1_000_000 ? `${count / 1_000_000}M` : `${count / 1000}k`;
    const load = loadavg().map((x) => x.toFixed(2)).join(' ');
    report({
      name: `annot convert --shift 2.5, SRT to SRT, ${size} cues, whole process`,
      figure: wall,
      unit: 's',
      reference: 'annot convert, same file, no retime',
      referenceFigure: plainWall,
      higherIsBetter: false,
      // The target is at 1M cues; the smaller size shows the trend (and the memory's baseline).
      target: count >= 1_000_000 ? 1.1 : undefined,
      targetText: count >= 1_000_000 ? '<= 1.1x the plain conversion' : undefined,
      extra: {
        runs,
        cpu_s: median(shifted.map((r) => r.cpu)).toFixed(2),
        plain_cpu_s: median(plain.map((r) => r.cpu)).toFixed(2),
        cpu_ratio: (median(shifted.map((r) => r.cpu)) / median(plain.map((r) => r.cpu))).toFixed(3),
        cues_per_s: Math.round(count / wall),
        walls: shifted.map((r) => r.seconds).join('/'), plain_walls: plain.map((r) => r.seconds).join('/'),
        load_average: load,
      },
    });
    const smallestCount = Math.min(...peaks.keys());
    const growth = rss - peaks.get(smallestCount);
    const plainGrowth = plainRss - plainPeaks.get(smallestCount);
    report({
      name: `annot convert --shift 2.5, SRT to SRT, ${size} cues, peak RSS`,
      figure: rss,
      unit: 'MB',
      reference: 'peak RSS of the plain conversion',
      referenceFigure: plainRss,
      higherIsBetter: false,
      targetText: 'within 1.1x the plain (streaming) conversion',
      met: rss <= plainRss * 1.1,
      extra: { growth_mb: growth.toFixed(1), plain_growth_mb: plainGrowth.toFixed(1) },
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
