// `annot convert in.srt out.vtt`, whole process, against the bundled ffmpeg (`ffmpeg -i in.srt
// out.vtt`, from @ffmpeg-installer/ffmpeg) on the same generated file in the same run, at 100k and
// 1M cues: wall time and peak RSS of each, from GNU time (`/usr/bin/time -f "%e %M"`). The two
// commands run alternately, several times each, and the medians are compared, so load from
// elsewhere on the machine falls on both. Targets (issue 15): wall <= 1.0x ffmpeg's, peak RSS
// <= 2x ffmpeg's, and under 200 MB whatever the size.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = join(root, 'bin', 'run.js');
const ffmpeg = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;

function timestamp(ms) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(Math.floor(ms / 3600000))}:${two(Math.floor(ms / 60000) % 60)}:${two(Math.floor(ms / 1000) % 60)},${String(ms % 1000).padStart(3, '0')}`;
}

/** An SRT file of `count` cues, one or two lines each, some with tags (which both tools keep). */
async function writeSrt(path, count) {
  const stream = createWriteStream(path);
  const write = (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve)));
  let chunk = [];
  for (let i = 0; i < count; i++) {
    const start = i * 1500;
    const text = i % 2 === 0 ? `Line ${i} of the <i>generated</i> subtitles` : `Line ${i}\nand a second line`;
    chunk.push(`${i + 1}\n${timestamp(start)} --> ${timestamp(start + 1200)}\n${text}\n\n`);
    if (chunk.length === 10000) {
      await write(chunk.join(''));
      chunk = [];
    }
  }
  await write(chunk.join(''));
  await new Promise((resolve) => stream.end(resolve));
}

/** Wall seconds and peak RSS (MB) of one run, from GNU time. */
function timed(command, args) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', command, ...args], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const [seconds, kb] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { seconds, mb: kb / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (!existsSync('/usr/bin/time')) {
  console.log('annot convert vs ffmpeg: skipped (/usr/bin/time is not installed)');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'annot-bench-convert-'));
try {
  for (const [count, runs] of [
    [100_000, 7],
    [1_000_000, 3],
  ]) {
    const input = join(dir, `in-${count}.srt`);
    await writeSrt(input, count);
    const ours = [];
    const theirs = [];
    for (let i = 0; i < runs; i++) {
      ours.push(timed(process.execPath, [run, 'convert', input, join(dir, 'annot.vtt')]));
      rmSync(join(dir, 'ffmpeg.vtt'), { force: true });
      theirs.push(timed(ffmpeg, ['-v', 'error', '-y', '-i', input, join(dir, 'ffmpeg.vtt')]));
    }
    const wall = median(ours.map((r) => r.seconds));
    const ffWall = median(theirs.map((r) => r.seconds));
    const rss = median(ours.map((r) => r.mb));
    const ffRss = median(theirs.map((r) => r.mb));
    const label = count >= 1_000_000 ? `${count / 1_000_000}M` : `${count / 1000}k`;
    report({
      name: `annot convert SRT to WebVTT, ${label} cues, whole process`,
      figure: wall,
      unit: 's',
      reference: 'ffmpeg -i in.srt out.vtt (bundled)',
      referenceFigure: ffWall,
      higherIsBetter: false,
      target: 1,
      targetText: '<= 1.0x ffmpeg',
      extra: { runs, cues_per_s: Math.round(count / wall) },
    });
    report({
      name: `annot convert SRT to WebVTT, ${label} cues, peak RSS`,
      figure: rss,
      unit: 'MB',
      reference: 'ffmpeg peak RSS, same conversion',
      referenceFigure: ffRss,
      higherIsBetter: false,
      targetText: '<= 2x ffmpeg, < 200 MB',
      met: rss <= 2 * ffRss && rss < 200,
      extra: { under_200_mb: rss < 200 },
    });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
