// annot sync on two hours of audio (issue 35): 48 kHz stereo AAC with 1,500 spoken cues (espeak-ng
// utterances, or voiced tone bursts without it, over a low noise floor), the subtitle file made for
// 24 fps and 2.5 s late. The whole `annot sync SUBS MEDIA --json` process, split into the decoding
// (FFmpeg to 16 kHz mono through the pipe, with the frame features built as it streams: the
// estimate's decode_seconds) and the rest (start-up, reading the cues, detection, the FFT
// correlations), against the bundled FFmpeg decoding the same audio alone (`-f null -`). Target:
// the whole sync at most 1.5x that decode. Runs alternate, ffmpeg then annot, twice; the lower of
// each pair is kept (the machine is shared), with the load average before and after.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { report } from './lib/harness.js';

const ffmpeg = createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg').path;
const annot = fileURLToPath(new URL('../bin/run.js', import.meta.url));
const SECONDS = 7200;
const CUES = 1500;
const RATE = 22050;
const load = () => loadavg()[0].toFixed(1);

/** mulberry32: the same audio on every run. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the river morning window quietly paper yellow garden under seven letters bright station remember after carefully travel evening mountain kitchen silver answer forest little handle market winter between simple bottle orange'.split(' ');

/** Thirty utterances at RATE, cut to their voiced span: espeak-ng's, or voiced tone bursts (harmonics of a gliding pitch) without it. */
function utterances(random, scratch) {
  const espeak = spawnSync('espeak-ng', ['--version'], { stdio: 'ignore' }).status === 0;
  const pool = [];
  for (let i = 0; i < 30; i++) {
    const text = Array.from({ length: 3 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
    let samples;
    if (espeak) {
      const path = join(scratch, 'u.wav');
      spawnSync('espeak-ng', ['-w', path, text]);
      const bytes = readFileSync(path);
      const data = bytes.indexOf('data', 12) + 8;
      samples = new Int16Array(bytes.buffer.slice(bytes.byteOffset + data, bytes.byteOffset + data + ((bytes.length - data) & ~1)));
    } else {
      samples = new Int16Array(Math.round((1 + random() * 2.5) * RATE));
      const f0 = 100 + random() * 120;
      for (let n = 0; n < samples.length; n++) {
        const pitch = f0 * (1 + 0.2 * Math.sin(n / RATE * 3));
        let v = 0;
        for (let h = 1; h <= 6; h++) v += Math.sin((2 * Math.PI * pitch * h * n) / RATE) / h;
        samples[n] = Math.round(v * 6000 * (0.6 + 0.4 * Math.sin((Math.PI * n) / samples.length)));
      }
    }
    let first = 0;
    let last = samples.length - 1;
    while (first < last && Math.abs(samples[first]) < 300) first++;
    while (last > first && Math.abs(samples[last]) < 300) last--;
    pool.push({ text, samples: samples.slice(first, last + 1) });
  }
  return { pool, speech: espeak ? 'espeak-ng' : 'voiced tone bursts' };
}

/** Writes the two hours as 48 kHz stereo AAC (FFmpeg resamples and encodes what is piped to it), and returns the cues. */
async function makeMedia(path, scratch) {
  const random = seeded(35);
  const { pool, speech } = utterances(random, scratch);
  const mean = pool.reduce((sum, u) => sum + u.samples.length, 0) / pool.length / RATE;
  const spare = SECONDS / CUES - mean;
  const cues = [];
  let at = 5 * RATE;
  for (let i = 0; i < CUES; i++) {
    const u = pool[Math.floor(random() * pool.length)];
    cues.push({ start: at, end: at + u.samples.length, u });
    at += u.samples.length + Math.round((0.3 + random() * (2 * spare - 0.8)) * RATE);
  }
  const total = Math.max(SECONDS * RATE, at);
  const child = spawn(ffmpeg, ['-hide_banner', '-v', 'error', '-y', '-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', '-', '-ar', '48000', '-ac', '2', '-c:a', 'aac', '-b:a', '128k', path], { stdio: ['pipe', 'ignore', 'inherit'] });
  const done = new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`)))));
  let next = 0;
  for (let from = 0; from < total; from += RATE) {
    const chunk = new Int16Array(Math.min(RATE, total - from));
    // A noise floor near -50 dBFS, as a room has.
    for (let n = 0; n < chunk.length; n++) chunk[n] = Math.round((random() - 0.5) * 200);
    while (next < cues.length && cues[next].end <= from) next++;
    for (let c = next; c < cues.length && cues[c].start < from + chunk.length; c++) {
      const { start, u } = cues[c];
      for (let n = Math.max(start, from); n < Math.min(start + u.samples.length, from + chunk.length); n++) chunk[n - from] += u.samples[n - start];
    }
    if (!child.stdin.write(Buffer.from(chunk.buffer))) await new Promise((resolve) => child.stdin.once('drain', resolve));
  }
  child.stdin.end();
  await done;
  return { cues: cues.map(({ start, end, u }) => ({ start: start / RATE, end: end / RATE, text: u.text })), speech };
}

const srtTime = (seconds) => {
  const ms = Math.round(seconds * 1000);
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
};

/** Wall milliseconds of one run, its stdout, and the CPU seconds (user + system) of it and its children, from GNU time when there is one. */
function timedMs(command, args) {
  const gnuTime = existsSync('/usr/bin/time');
  const t0 = performance.now();
  const result = gnuTime
    ? spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', command, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 24 })
    : spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 24 });
  const ms = performance.now() - t0;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
  return { ms, stdout: result.stdout, cpuSeconds: cpu ? Number(cpu[1]) + Number(cpu[2]) : null };
}

// The media is kept between runs (its making takes minutes): ANNOT_BENCH_SYNC_DIR, or a folder in the temporary directory.
const cache = process.env.ANNOT_BENCH_SYNC_DIR ?? join(tmpdir(), 'annot-bench-sync-v1');
mkdirSync(cache, { recursive: true });
const media = join(cache, 'two-hours.m4a');
const cuesPath = join(cache, 'cues.json');
if (!existsSync(media) || !existsSync(cuesPath)) {
  const scratch = mkdtempSync(join(tmpdir(), 'annot-bench-sync-'));
  try {
    const t0 = performance.now();
    const made = await makeMedia(join(scratch, 'two-hours.m4a'), scratch);
    renameSync(join(scratch, 'two-hours.m4a'), media);
    writeFileSync(cuesPath, JSON.stringify(made));
    console.log(`made ${media} (${made.speech}) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
const { cues, speech } = JSON.parse(readFileSync(cuesPath, 'utf8'));
const subs = join(cache, 'made-for-24fps-late.srt');
writeFileSync(subs, cues.map((cue, i) => `${i + 1}\n${srtTime((cue.start * 25) / 24 + 2.5)} --> ${srtTime((cue.end * 25) / 24 + 2.5)}\n${cue.text}\n`).join('\n'));

const loadBefore = load();
const decodes = [];
const syncs = [];
for (let round = 0; round < 2; round++) {
  const decode = timedMs(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-i', media, '-f', 'null', '-']);
  decodes.push(decode);
  const run = timedMs(process.execPath, [annot, 'sync', subs, media, '--json']);
  syncs.push({ ms: run.ms, cpuSeconds: run.cpuSeconds, estimate: JSON.parse(run.stdout) });
}
const loadAfter = load();
const decodeMs = Math.min(...decodes.map((d) => d.ms));
const cpuOf = (runs) => (runs.every((r) => r.cpuSeconds !== null) ? Math.min(...runs.map((r) => r.cpuSeconds)) : null);
const best = syncs.reduce((a, b) => (b.ms < a.ms ? b : a));
const { estimate } = best;
const decodePart = estimate.decode_seconds * 1000;
report({
  name: 'annot sync, 2 h of 48 kHz stereo AAC, 1,500 cues (whole process)',
  figure: best.ms / 1000,
  unit: 's',
  reference: 'the bundled ffmpeg decoding the same audio to -f null',
  referenceFigure: decodeMs / 1000,
  target: 1.5,
  targetText: '<= 1.5x the decode alone',
  extra: {
    decoding_s: (decodePart / 1000).toFixed(2),
    rest_s: ((best.ms - decodePart) / 1000).toFixed(2),
    align_s: estimate.align_seconds.toFixed(2),
    runs_s: syncs.map((s) => (s.ms / 1000).toFixed(1)).join('/'),
    ffmpeg_runs_s: decodes.map((d) => (d.ms / 1000).toFixed(1)).join('/'),
    // CPU seconds (user + system, children included) say what the wall times cannot on a loaded machine.
    cpu_s: cpuOf(syncs)?.toFixed(1) ?? 'n/a',
    ffmpeg_cpu_s: cpuOf(decodes)?.toFixed(1) ?? 'n/a',
    found: `offset ${estimate.offset} ratio ${estimate.ratio} confidence ${estimate.confidence.toFixed(2)} (made: -2.4, 24/25)`,
    speech,
    load: `${loadBefore} before, ${loadAfter} after`,
  },
});
