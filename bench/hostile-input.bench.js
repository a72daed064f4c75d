// Hostile input: peak memory of every text reader on a 50 MB single-cue file and on a file of
// 1,000,000 cues, each read in a child process of its own (peak RSS from the kernel's ru_maxrss).
// Target (issue 14): peak RSS under 4 x the input's size + 150 MB. Run after `npm run build`.
// HOSTILE_SCALE=0.1 makes every file ten times smaller (a quick check of the bench itself);
// HOSTILE_FORMATS=textgrid,eaf runs only those formats (jamz: the gzip bomb of issue 20).
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const scale = Number(process.env.HOSTILE_SCALE ?? 1);
const bigBytes = Math.round(50 * 1024 * 1024 * scale);
const cueCount = Math.round(1_000_000 * scale);
const work = mkdtempSync(join(tmpdir(), 'annot-hostile-bench-'));

const ms = (n) => {
  const s = Math.floor(n / 1000);
  return `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(n % 1000).padStart(3, '0')}`;
};
const text = (n) => 'x'.repeat(n);

/** Each format: file extension, module of its format descriptor, and writers for the two files. */
const FORMATS = {
  webvtt: { ext: '.vtt', module: 'webvtt/format.js', head: 'WEBVTT\n\n', cue: (i, t) => `${ms(i * 10)} --> ${ms(i * 10 + 5)}\n${t}\n\n`, tail: '' },
  srt: { ext: '.srt', module: 'srt/format.js', head: '', cue: (i, t) => `${i + 1}\n${ms(i * 10).replace('.', ',')} --> ${ms(i * 10 + 5).replace('.', ',')}\n${t}\n\n`, tail: '' },
  textgrid: {
    ext: '.TextGrid',
    module: 'textgrid/format.js',
    head: (n) => `File type = "ooTextFile"\nObject class = "TextGrid"\n0\n${n * 0.01 + 1}\n<exists>\n1\n"IntervalTier"\n"t"\n0\n${n * 0.01 + 1}\n${n}\n`,
    cue: (i, t) => `${(i * 0.01).toFixed(2)}\n${(i * 0.01 + 0.005).toFixed(3)}\n"${t}"\n`,
    tail: '',
  },
  eaf: {
    ext: '.eaf',
    module: 'eaf/format.js',
    // Time slots first, then the tier: written in two passes by the generator below.
    eaf: true,
  },
  jams: {
    ext: '.jams',
    module: 'jams/format.js',
    head: '{"file_metadata": {"duration": 1e6}, "sandbox": {}, "annotations": [{"namespace": "tag_open", "annotation_metadata": {}, "sandbox": {}, "data": [\n',
    cue: (i, t) => `${i ? ',' : ''}{"time": ${i * 0.01}, "duration": 0.005, "value": "${t}", "confidence": null}\n`,
    tail: ']}]}\n',
  },
  'label-studio': {
    ext: '.labelstudio.json',
    module: 'label-studio/format.js',
    head: '[{"id": 1, "data": {"audio": "a.wav"}, "annotations": [{"id": 1, "result": [\n',
    cue: (i, t) => `${i ? ',' : ''}{"id": "r${i}", "from_name": "label", "to_name": "audio", "type": "labels", "value": {"start": ${i * 0.01}, "end": ${i * 0.01 + 0.005}, "labels": ["${t}"]}}\n`,
    tail: ']}]}]\n',
  },
  'web-annotation': {
    ext: '.jsonld',
    module: 'web-annotation/format.js',
    head: '{"@context": "http://www.w3.org/ns/anno.jsonld", "type": "AnnotationCollection", "first": {"type": "AnnotationPage", "items": [\n',
    cue: (i, t) => `${i ? ',' : ''}{"type": "Annotation", "body": {"type": "TextualBody", "value": "${t}"}, "target": "a.mp4#t=${i * 0.01},${i * 0.01 + 0.005}"}\n`,
    tail: ']}}\n',
  },
  ass: {
    ext: '.ass',
    module: 'ass/format.js',
    head: '[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\nStyle: Default,Arial,20\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n',
    cue: (i, t) => `Dialogue: 0,${ms(i * 10).slice(1, -1)},${ms(i * 10 + 10).slice(1, -1)},Default,,0,0,0,,${t}\n`,
    tail: '',
  },
  sbv: { ext: '.sbv', module: 'sbv/format.js', head: '', cue: (i, t) => `${ms(i * 10).slice(1)},${ms(i * 10 + 5).slice(1)}\n${t}\n\n`, tail: '' },
  ttml: {
    ext: '.ttml',
    module: 'ttml/format.js',
    head: '<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" xml:lang="en">\n<body>\n<div>\n',
    cue: (i, t) => `<p begin="${i * 10}ms" end="${i * 10 + 5}ms">${t}</p>\n`,
    tail: '</div>\n</body>\n</tt>\n',
  },
  otio: {
    ext: '.otio',
    module: 'otio/format.js',
    head: '{"OTIO_SCHEMA": "Timeline.1", "name": "", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "name": "t", "children": [\n',
    cue: (i, t) => `${i ? ',' : ''}{"OTIO_SCHEMA": "Clip.2", "name": "${t}", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "rate": 100, "value": 0}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "rate": 100, "value": 1}}}\n`,
    tail: ']}]}}\n',
  },
};

async function writeChunks(path, chunks) {
  const out = createWriteStream(path);
  let buffer = '';
  for (const chunk of chunks) {
    buffer += chunk;
    if (buffer.length >= 1 << 20) {
      if (!out.write(buffer)) await new Promise((resolve) => out.once('drain', resolve));
      buffer = '';
    }
  }
  out.end(buffer);
  await new Promise((resolve) => out.on('finish', resolve));
}

function* generate(format, n, cueText) {
  if (format.eaf) {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<ANNOTATION_DOCUMENT AUTHOR="" FORMAT="3.0" VERSION="3.0">\n<HEADER TIME_UNITS="milliseconds"/>\n<TIME_ORDER>\n';
    for (let i = 0; i < n; i++) yield `<TIME_SLOT TIME_SLOT_ID="ts${2 * i + 1}" TIME_VALUE="${i * 10}"/>\n<TIME_SLOT TIME_SLOT_ID="ts${2 * i + 2}" TIME_VALUE="${i * 10 + 5}"/>\n`;
    yield '</TIME_ORDER>\n<TIER LINGUISTIC_TYPE_REF="default" TIER_ID="t">\n';
    for (let i = 0; i < n; i++) yield `<ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a${i + 1}" TIME_SLOT_REF1="ts${2 * i + 1}" TIME_SLOT_REF2="ts${2 * i + 2}"><ANNOTATION_VALUE>${cueText(i)}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>\n`;
    yield '</TIER>\n<LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default" TIME_ALIGNABLE="true"/>\n</ANNOTATION_DOCUMENT>\n';
    return;
  }
  yield typeof format.head === 'function' ? format.head(n) : format.head;
  for (let i = 0; i < n; i++) yield format.cue(i, cueText(i));
  yield format.tail;
}

const child = process.argv[2] === '--child';
if (child) {
  // In the child: read the file through the format's public codec, counting annotations.
  const [, , , module, path] = process.argv;
  const { RationalTime } = await import(join(here, '../dist/src/time/rational-time.js'));
  const descriptor = Object.values(await import(join(here, '../dist/src/adapters', module))).find((value) => value && typeof value.codec === 'function');
  const codec = await descriptor.codec();
  let count = 0;
  let refused = null;
  const started = performance.now();
  try {
    const document = await codec.load(path, { sourceName: path, now: new RationalTime(0, 1000), report: () => undefined });
    for await (const annotation of document.annotations) if (annotation) count++;
  } catch (error) {
    refused = `${error.code ?? error.name}: ${String(error.message).slice(0, 120)}`;
  }
  const ms = performance.now() - started;
  // VmHWM, this process's own peak: getrusage's maxRSS is kept across exec, so it would start at the parent's size.
  const maxRssKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  process.stdout.write(JSON.stringify({ count, refused, ms, maxRssKb }) + '\n');
  process.exit(0);
}

let misses = 0;
const only = process.env.HOSTILE_FORMATS ? new Set(process.env.HOSTILE_FORMATS.split(',')) : null;
for (const [name, format] of Object.entries(FORMATS)) {
  if (only && !only.has(name)) continue;
  for (const [shape, n, cueText] of [
    ['one 50 MB cue', 1, () => text(bigBytes)],
    [`${cueCount.toLocaleString('en')} cues`, cueCount, (i) => `cue ${i}`],
  ]) {
    const path = join(work, `${name}-${n}${format.ext}`);
    await writeChunks(path, generate(format, n, cueText));
    const size = statSync(path).size;
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', format.module, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
    rmSync(path, { force: true });
    let result;
    try {
      result = JSON.parse(run.stdout.trim().split('\n').pop());
    } catch {
      result = { count: 0, refused: `child failed (status ${run.status}): ${(run.stderr || '').split('\n').slice(-3).join(' ').slice(0, 200)}`, maxRssKb: 0 };
    }
    const peakMb = result.maxRssKb / 1024;
    const limitMb = (4 * size) / (1024 * 1024) + 150;
    const pass = result.maxRssKb > 0 && peakMb < limitMb;
    if (!pass) misses++;
    console.log(`${name}, ${shape}: ${(size / 1048576).toFixed(1)} MB in, peak RSS ${peakMb.toFixed(0)} MB (limit ${limitMb.toFixed(0)} MB), ${result.count} annotations${result.refused ? `, refused: ${result.refused}` : ''}`);
    console.log(
      'BENCH ' +
        JSON.stringify({
          name: `hostile ${name}: ${shape}, peak RSS`,
          figure: Math.round(peakMb),
          unit: 'MB',
          reference: 'input x 4 + 150 MB',
          reference_figure: Math.round(limitMb),
          ratio: limitMb ? Number((peakMb / limitMb).toFixed(2)) : null,
          target: '< 1.00',
          pass,
          extra: { input_mb: (size / 1048576).toFixed(1), annotations: result.count, ...(result.refused ? { refused: result.refused } : {}) },
        }),
    );
  }
}
if (!only || only.has('jamz')) await gzipBomb();
rmSync(work, { recursive: true, force: true });
process.exit(0);

/**
 * Issue 20: a .jamz gzip bomb, 4 MB inflating to 4 GiB (gzip members of 64 MiB of spaces behind
 * the start of a JAMS file), read in a child of its own; beside it, in the same run, the same
 * child reading a small real .jamz (the cost of starting, loading the reader and reading a file).
 * Target: refused in under a second, peak RSS under 200 MB.
 */
async function gzipBomb() {
  const { gzipSync } = await import('node:zlib');
  const { writeFileSync } = await import('node:fs');
  const bomb = join(work, 'bomb.jamz');
  const block = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 });
  writeFileSync(bomb, Buffer.concat([gzipSync('{"file_metadata": {}, "annotations": [{"namespace": "tag_open", "data": []'), ...Array.from({ length: 64 }, () => block)]));
  const real = join(here, '../fixtures/jams/beats-nan.jamz');
  const readIn = (path) => {
    const started = performance.now();
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', 'jams/format.js', path], { encoding: 'utf8' });
    return { wallMs: performance.now() - started, ...JSON.parse(run.stdout.trim().split('\n').pop()) };
  };
  const reference = readIn(real);
  const refusal = readIn(bomb);
  const size = statSync(bomb).size;
  console.log(`jamz gzip bomb: ${(size / 1048576).toFixed(1)} MB in, 4 GiB claimed: ${refusal.refused ?? 'ACCEPTED'}; ${refusal.ms.toFixed(0)} ms in the reader, ${refusal.wallMs.toFixed(0)} ms for the process, peak RSS ${(refusal.maxRssKb / 1024).toFixed(0)} MB`);
  console.log(`  reference, a real .jamz (${statSync(real).size} bytes): ${reference.ms.toFixed(0)} ms in the reader, ${reference.wallMs.toFixed(0)} ms for the process, peak RSS ${(reference.maxRssKb / 1024).toFixed(0)} MB`);
  const refused = refusal.refused !== null && refusal.refused.startsWith('ANNOT_INPUT_TOO_LARGE');
  for (const [what, figure, referenceFigure, unit, limit] of [
    ['refusal time (whole process)', refusal.wallMs, reference.wallMs, 'ms', 1000],
    ['peak RSS', refusal.maxRssKb / 1024, reference.maxRssKb / 1024, 'MB', 200],
  ]) {
    console.log(
      'BENCH ' +
        JSON.stringify({
          name: `hostile jamz: 4 MB gzip bomb (4 GiB inflated), ${what}`,
          figure: Math.round(figure),
          unit,
          reference: 'reading a small real .jamz, same child',
          reference_figure: Math.round(referenceFigure),
          ratio: Number((figure / referenceFigure).toFixed(2)),
          target: `< ${limit} ${unit}`,
          pass: refused && figure < limit,
          extra: { input_mb: (size / 1048576).toFixed(1), reader_ms: Math.round(refusal.ms), refused: refusal.refused },
        }),
    );
  }
}
void misses;
