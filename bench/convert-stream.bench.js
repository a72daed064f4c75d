// `annot convert in.srt out.vtt` and `annot convert in.ass out.srt`, whole process, against the
// bundled ffmpeg (`ffmpeg -i in.srt out.vtt`, from @ffmpeg-installer/ffmpeg) on the same generated
// file in the same run, at 100k and 1M cues: wall time and peak RSS of each, from GNU time
// (`/usr/bin/time -f "%e %M"`). The two commands run alternately, several times each, and the
// medians are compared, so load from elsewhere on the machine falls on both. Targets: SRT to
// WebVTT (issue 15), wall <= 1.0x ffmpeg's, peak RSS <= 2x ffmpeg's and under 200 MB whatever the
// size; ASS to SRT (issue 22), wall <= 1.0x ffmpeg's, peak RSS under 150 MB at 1M events. At 1M
// cues, issue 33's: SRT to WebVTT <= 0.3x ffmpeg's wall, >= 500k cues/s, peak under 120 MB; ASS to
// SRT and SBV to SRT (ffmpeg reads SBV as SubViewer) <= 0.5x.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSrt } from './lib/generated-srt.js';
import { median, report } from './lib/harness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = join(root, 'bin', 'run.js');
const ffmpeg = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;

/** Centiseconds as SubStation writes them, h:mm:ss.cc. */
function assTime(cs) {
  const two = (n) => String(n).padStart(2, '0');
  return `${Math.floor(cs / 360000)}:${two(Math.floor(cs / 6000) % 60)}:${two(Math.floor(cs / 100) % 60)}.${two(cs % 100)}`;
}

/** An ASS file of `count` events as Aegisub writes them, some with override tags (italic, a position) and a speaker. */
async function writeAss(path, count) {
  const stream = createWriteStream(path);
  const write = (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve)));
  await write(
    '[Script Info]\nScriptType: v4.00+\nWrapStyle: 0\nScaledBorderAndShadow: yes\nPlayResX: 1920\nPlayResY: 1080\n\n[V4+ Styles]\n' +
      'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n' +
      'Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n\n[Events]\n' +
      'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n',
  );
  let chunk = [];
  for (let i = 0; i < count; i++) {
    const start = i * 150;
    const text = i % 2 === 0 ? `Line ${i} of the {\\i1}generated{\\i0} subtitles` : `{\\an8}Line ${i}\\Nand a second line`;
    chunk.push(`Dialogue: 0,${assTime(start)},${assTime(start + 120)},Default,${i % 3 === 0 ? 'Mara' : ''},0,0,0,,${text}\n`);
    if (chunk.length === 10000) {
      await write(chunk.join(''));
      chunk = [];
    }
  }
  await write(chunk.join(''));
  await new Promise((resolve) => stream.end(resolve));
}

/** An SBV (YouTube) file of `count` cues, one or two lines each. */
async function writeSbv(path, count) {
  const stream = createWriteStream(path);
  const write = (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve)));
  const time = (ms) => `${Math.floor(ms / 3600000)}:${String(Math.floor(ms / 60000) % 60).padStart(2, '0')}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
  let chunk = [];
  for (let i = 0; i < count; i++) {
    const start = i * 1500;
    const text = i % 2 === 0 ? `Line ${i} of the generated subtitles` : `Line ${i}\nand a second line`;
    chunk.push(`${time(start)},${time(start + 1200)}\n${text}\n\n`);
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


if (!existsSync('/usr/bin/time')) {
  console.log('annot convert vs ffmpeg: skipped (/usr/bin/time is not installed)');
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'annot-bench-convert-'));
try {
  // ANNOT_BENCH_CONVERT=ass runs only the ASS -> SRT pairs (issue 22), =srt only SRT -> WebVTT (issue 15), =sbv only SBV -> SRT.
  // Wall targets of issue 33 at 1M cues: SRT -> WebVTT <= 0.3x ffmpeg and >= 500k cues/s, ASS and SBV -> SRT <= 0.5x.
  const only = process.env.ANNOT_BENCH_CONVERT;
  for (const [from, to, writeInput, label, targetText, rssLimit, wallTarget] of [
    ['srt', 'vtt', writeSrt, 'SRT to WebVTT', '<= 2x ffmpeg, < 200 MB (issue 33: < 120 MB at 1M)', 200, 0.3],
    ['ass', 'srt', writeAss, 'ASS to SRT', '< 150 MB at 1M events', 150, 0.5],
    ['sbv', 'srt', writeSbv, 'SBV to SRT', '< 150 MB at 1M cues', 150, 0.5],
  ]) {
    if (only !== undefined && only !== from) continue;
    // ANNOT_BENCH_CONVERT_SIZES=20000:1,... changes the sizes and runs (a quick check of the bench itself).
    const sizes = process.env.ANNOT_BENCH_CONVERT_SIZES?.split(',').map((pair) => pair.split(':').map(Number)) ?? [
      [100_000, 7],
      [1_000_000, 3],
    ];
    for (const [count, runs] of sizes) {
      const input = join(dir, `in-${count}.${from}`);
      await writeInput(input, count);
      const ours = [];
      const theirs = [];
      for (let i = 0; i < runs; i++) {
        ours.push(timed(process.execPath, [run, 'convert', input, join(dir, `annot.${to}`)]));
        rmSync(join(dir, `ffmpeg.${to}`), { force: true });
        theirs.push(timed(ffmpeg, ['-v', 'error', '-y', '-i', input, join(dir, `ffmpeg.${to}`)]));
      }
      rmSync(input, { force: true });
      const wall = median(ours.map((r) => r.seconds));
      const ffWall = median(theirs.map((r) => r.seconds));
      const rss = median(ours.map((r) => r.mb));
      const ffRss = median(theirs.map((r) => r.mb));
      const size = count >= 1_000_000 ? `${count / 1_000_000}M` : `${count / 1000}k`;
      report({
        name: `annot convert ${label}, ${size} cues, whole process`,
        figure: wall,
        unit: 's',
        reference: `ffmpeg -i in.${from} out.${to} (bundled)`,
        referenceFigure: ffWall,
        higherIsBetter: false,
        target: count >= 1_000_000 && from === 'srt' ? undefined : count >= 1_000_000 ? wallTarget : 1,
        targetText: count >= 1_000_000 ? `<= ${wallTarget}x ffmpeg (issue 33)${from === 'srt' ? ', >= 500k cues/s' : ''}` : '<= 1.0x ffmpeg',
        ...(count >= 1_000_000 && from === 'srt' ? { met: wall <= wallTarget * ffWall && count / wall >= 500_000 } : {}),
        extra: { runs, cues_per_s: Math.round(count / wall), load_average: loadavg().map((x) => x.toFixed(2)).join(' ') },
      });
      const met = from === 'srt' ? rss <= 2 * ffRss && rss < rssLimit && (count < 1_000_000 || rss < 120) : count < 1_000_000 || rss < rssLimit;
      report({
        name: `annot convert ${label}, ${size} cues, peak RSS`,
        figure: rss,
        unit: 'MB',
        reference: 'ffmpeg peak RSS, same conversion',
        referenceFigure: ffRss,
        higherIsBetter: false,
        targetText,
        met,
        extra: { [`under_${rssLimit}_mb`]: rss < rssLimit },
      });
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
