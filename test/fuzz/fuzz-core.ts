import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FormatAdapter, FormatCodec } from '../../src/adapters/adapter.js';
import type { Finding } from '../../src/adapters/finding.js';
import { annotFormat } from '../../src/adapters/annot/format.js';
import { assFormat } from '../../src/adapters/ass/format.js';
import { eafFormat } from '../../src/adapters/eaf/format.js';
import { jamsFormat } from '../../src/adapters/jams/format.js';
import { labelStudioFormat } from '../../src/adapters/label-studio/format.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { otioFormat } from '../../src/adapters/otio/format.js';
import { sbvFormat } from '../../src/adapters/sbv/format.js';
import { srtFormat } from '../../src/adapters/srt/format.js';
import { textgridFormat } from '../../src/adapters/textgrid/format.js';
import { ttmlFormat } from '../../src/adapters/ttml/format.js';
import { webAnnotationFormat } from '../../src/adapters/web-annotation/format.js';
import { webvttFormat } from '../../src/adapters/webvtt/format.js';
import { AnnotError } from '../../src/errors/annot-error.js';
import type { Annotation } from '../../src/model/annotation.js';
import { validateAnnotations } from '../../src/service/validate-annotations.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';

/**
 * A seeded mutation fuzzer for every reader. Each case takes a real seed file, applies one to
 * three mutations (byte flips, truncation, a duplicated line, lines spliced in from another seed,
 * a deleted range), and runs the format's public reader on it. The contract:
 * - the reader returns a document that loads into a store and passes our own validation, and
 *   that document written in the same format reads back to the same annotations; or
 * - it throws one of our typed errors (an AnnotError);
 * - never a TypeError, RangeError or other untyped error, and never more than 2 s of CPU time
 *   (a case that waits forever instead is caught by jest's per-test timeout).
 */

export const ROOT = new URL('../../', import.meta.url).pathname;
export const CORPUS_DIR = join(ROOT, 'test/fuzz-corpus');
/** More CPU time than this for one case is a failure (a runaway loop, or a quadratic path). */
export const SLOW_CPU_MS = 2000;
/** Seeds above this size make cases slow without finding more. */
const MAX_SEED_BYTES = 64 * 1024;

export interface FuzzFormat {
  readonly name: string;
  readonly adapter: FormatAdapter;
  readonly extension: string;
  /** Seed files, read once. */
  seeds(): Promise<Buffer[]>;
}

const fixtureSeeds = (directory: string, pattern: RegExp) => async (): Promise<Buffer[]> => {
  const dir = join(ROOT, 'fixtures', directory);
  return readdirSync(dir)
    .filter((name) => pattern.test(name) && statSync(join(dir, name)).size <= MAX_SEED_BYTES)
    .sort()
    .map((name) => readFileSync(join(dir, name)));
};

export const FUZZ_FORMATS: readonly FuzzFormat[] = [
  { name: 'textgrid', adapter: textgridFormat, extension: '.TextGrid', seeds: async () => [...(await fixtureSeeds('textgrid', /\.TextGrid$/)()), ...(await fixtureSeeds('validate', /\.TextGrid$/)())] },
  { name: 'eaf', adapter: eafFormat, extension: '.eaf', seeds: async () => [...(await fixtureSeeds('eaf', /\.eaf$/)()), ...(await fixtureSeeds('validate', /\.eaf$/)())] },
  { name: 'jams', adapter: jamsFormat, extension: '.jams', seeds: fixtureSeeds('jams', /\.jams$/) },
  { name: 'otio', adapter: otioFormat, extension: '.otio', seeds: fixtureSeeds('otio', /\.otio$/) },
  { name: 'label-studio', adapter: labelStudioFormat, extension: '.labelstudio.json', seeds: fixtureSeeds('label_studio', /\.json$/) },
  { name: 'web-annotation', adapter: webAnnotationFormat, extension: '.jsonld', seeds: async () => [...(await fixtureSeeds('web_annotation', /\.json(ld)?$/)()), ...(await fixtureSeeds('validate', /^web-annotation.*\.json$/)())] },
  { name: 'webvtt', adapter: webvttFormat, extension: '.vtt', seeds: async () => [...(await fixtureSeeds('webvtt', /\.vtt$/)()), readFileSync(join(ROOT, 'fixtures/talk.vtt'))] },
  { name: 'srt', adapter: srtFormat, extension: '.srt', seeds: fixtureSeeds('srt', /\.srt$/) },
  { name: 'annot', adapter: annotFormat, extension: '.annot', seeds: annotSeeds },
  { name: 'ass', adapter: assFormat, extension: '.ass', seeds: async () => [...(await fixtureSeeds('ass', /\.ass$/)()), ...(await fixtureSeeds('ass/pysubs2', /\.(ass|ssa)$/)()), ...(await fixtureSeeds('ass/libass', /\.ass$/)())] },
  { name: 'ttml', adapter: ttmlFormat, extension: '.ttml', seeds: ttmlSeeds },
  { name: 'sbv', adapter: sbvFormat, extension: '.sbv', seeds: fixtureSeeds('sbv/webvtt-py', /\.sbv$/) },
];

/** TTML seeds: annot's own, pysubs2's and ttconv's, and the W3C IMSC tests of timing, structure, spans and styles. */
async function ttmlSeeds(): Promise<Buffer[]> {
  const folders = ['ttml', 'ttml/pysubs2', 'ttml/ttconv', 'ttml/imsc-tests/imsc1/ttml/timing', 'ttml/imsc-tests/imsc1/ttml/span', 'ttml/imsc-tests/imsc1/ttml/br', 'ttml/imsc-tests/imsc1/ttml/styling', 'ttml/imsc-tests/imsc1/ttml/misc', 'ttml/imsc-tests/imsc1_1/ttml/ruby'];
  const seeds: Buffer[] = [];
  for (const folder of folders) seeds.push(...(await fixtureSeeds(folder, /\.ttml$/)()));
  return seeds;
}

/** .annot seeds: the TextGrid and WebVTT fixtures saved as .annot files (SQLite). */
async function annotSeeds(): Promise<Buffer[]> {
  const dir = mkdtempSync(join(tmpdir(), 'annot-fuzz-seeds-'));
  const seeds: Buffer[] = [];
  for (const [format, file] of [[webvttFormat, 'fixtures/talk.vtt'], [textgridFormat, 'fixtures/validate/textgrid-overlap.TextGrid']] as const) {
    const path = join(dir, `seed-${seeds.length}.annot`);
    writeFileSync(path, '');
    const store = await SqliteStore.open(path, { create: true });
    await loadIntoStore(await (await format.codec()).load(join(ROOT, file), loadOptions(file)), store);
    await store.close();
    seeds.push(readFileSync(path));
  }
  return seeds;
}

function loadOptions(sourceName: string, findings: Finding[] = []) {
  return { sourceName, now: new RationalTime(0, 1000), report: (finding: Finding) => void findings.push(finding) };
}

/** mulberry32: a small, fast, seedable generator (the same seed gives the same cases everywhere). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INTERESTING = ['\u0000', '"', '<', '>', '&', '-->', '{', '}', '[', ']', ',', ':', '-1', 'NaN', '1e400', '99999999999999999999', '\ufffd', '\ud800', '\r', '\n\n', '&lol;', '<!DOCTYPE x [<!ENTITY a "b">]>'];

/** One to three mutations of a seed, chosen by `next`; `others` are spliced from. */
export function mutate(seed: Buffer, others: readonly Buffer[], next: () => number): Buffer {
  let bytes = Buffer.from(seed);
  const pick = (n: number): number => Math.floor(next() * n);
  const count = 1 + pick(3);
  for (let m = 0; m < count; m++) {
    const kind = pick(6);
    if (bytes.length === 0) break;
    if (kind === 0) {
      // byte flips
      const flips = 1 + pick(4);
      for (let f = 0; f < flips; f++) bytes[pick(bytes.length)] = pick(256);
    } else if (kind === 1) {
      bytes = bytes.subarray(0, pick(bytes.length));
    } else if (kind === 2 || kind === 3) {
      const lines = splitLines(bytes);
      if (kind === 2) {
        // a duplicated run of lines
        const at = pick(lines.length);
        const run = lines.slice(at, at + 1 + pick(4));
        lines.splice(pick(lines.length + 1), 0, ...run);
      } else {
        // lines spliced in from another seed
        const other = splitLines(others[pick(others.length)] ?? seed);
        const at = pick(other.length);
        lines.splice(pick(lines.length + 1), 0, ...other.slice(at, at + 1 + pick(6)));
      }
      bytes = Buffer.concat(lines);
    } else if (kind === 4) {
      const start = pick(bytes.length);
      bytes = Buffer.concat([bytes.subarray(0, start), bytes.subarray(Math.min(bytes.length, start + 1 + pick(64)))]);
    } else {
      const token = Buffer.from(INTERESTING[pick(INTERESTING.length)], 'utf8');
      const at = pick(bytes.length + 1);
      bytes = Buffer.concat([bytes.subarray(0, at), token, bytes.subarray(at)]);
    }
  }
  return bytes;
}

function splitLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i + 1));
      start = i + 1;
    }
  }
  if (start < bytes.length) lines.push(bytes.subarray(start));
  return lines;
}

export type Outcome = { ok: true; kind: 'read' | 'refused' } | { ok: false; problem: string };

/** Runs one input through a format's reader, validation, writer and reader again. */
export async function runCase(format: FuzzFormat, input: Buffer, workDir: string): Promise<Outcome> {
  const codec: FormatCodec = await format.adapter.codec();
  const path = join(workDir, `case${format.extension}`);
  writeFileSync(path, input);
  // CPU time, not wall time: the limit catches inputs that make a reader work too hard (a quadratic
  // scan, a runaway loop), and a busy machine stretches wall time without any extra work being done.
  const started = process.cpuUsage();
  let outcome: Outcome;
  try {
    outcome = await readWriteRead(codec, path, workDir, format.extension);
  } catch (error) {
    outcome = error instanceof AnnotError ? { ok: true, kind: 'refused' } : { ok: false, problem: `untyped ${describe(error)}` };
  }
  const used = process.cpuUsage(started);
  const cpuMs = Math.round((used.user + used.system) / 1000);
  if (outcome.ok && cpuMs > SLOW_CPU_MS) return { ok: false, problem: `took ${cpuMs} ms of CPU (limit ${SLOW_CPU_MS} ms)` };
  return outcome;
}

async function readWriteRead(codec: FormatCodec, path: string, workDir: string, extension: string): Promise<Outcome> {
  const store = new MemoryStore();
  const findings: Finding[] = [];
  await loadIntoStore(await codec.load(path, loadOptions(path, findings)), store);
  // A file with error findings is refused by `annot validate` (exit 1): broken, so no round trip is owed.
  if (findings.some((finding) => finding.severity === 'error')) return { ok: true, kind: 'refused' };
  const summary = await validateAnnotations(store);
  if (!summary.valid) return { ok: false, problem: `read a document that fails validation: ${JSON.stringify(summary.violations.slice(0, 2))}` };
  const first = await all(store);
  const target = join(workDir, `written${extension}`);
  writeFileSync(target, '');
  await codec.dump(store, target, { targetName: target, warn: () => undefined });
  const again = new MemoryStore();
  try {
    await loadIntoStore(await codec.load(target, loadOptions(target)), again);
  } catch (error) {
    return { ok: false, problem: `what we wrote does not read back: ${describe(error)}` };
  }
  const second = await all(again);
  // Every annotation comes back; a format that must tile its tiers (TextGrid) may add empty-text fillers.
  const back = new Map<string, number>();
  for (const annotation of second) back.set(signature(annotation), (back.get(signature(annotation)) ?? 0) + 1);
  for (const annotation of first) {
    const key = signature(annotation);
    const left = back.get(key) ?? 0;
    if (left === 0) return { ok: false, problem: `not read back: ${JSON.stringify(key.split('\u0000'))} (${first.length} annotations written, ${second.length} read)` };
    back.set(key, left - 1);
  }
  const extra = [...back.entries()].filter(([key, count]) => count > 0 && !key.endsWith('\u0000'));
  if (extra.length > 0) return { ok: false, problem: `read back more than was written: ${JSON.stringify(extra[0][0].split('\u0000'))}` };
  return { ok: true, kind: 'read' };
}

async function all(store: MemoryStore): Promise<Annotation[]> {
  const out: Annotation[] = [];
  for await (const annotation of store.all()) out.push(annotation);
  return out;
}

/** What must survive a write and a read in the same format: the tier, the time and the text. */
function signature(annotation: Annotation): string {
  const reference = annotation.reference;
  const time = reference.kind === 'media' ? `${reference.interval.start.toFraction().num}/${reference.interval.start.toFraction().den}-${reference.interval.end.toFraction().num}/${reference.interval.end.toFraction().den}` : 'symbolic';
  const body = annotation.body as Record<string, unknown>;
  const text = typeof body.text === 'string' ? body.text : typeof body.label === 'string' ? body.label : body.value === undefined || body.value === null ? '' : JSON.stringify(withoutFramerate(body.value));
  return `${annotation.tier}\u0000${time}\u0000${text}`;
}

/**
 * A Label Studio value's `framerate` is time, not text: the writer adds it to a result read at
 * another rate than its task's, and the interval, compared exactly, says whether it was right.
 */
function withoutFramerate(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('framerate' in value)) return value;
  const { framerate: _framerate, ...rest } = value as Record<string, unknown>;
  void _framerate;
  return rest;
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.slice(0, 300)}`;
  return String(error);
}

/** Saves a failing input as test/fuzz-corpus/<format>/<hash><ext>; the jest suite replays every such file. */
export function saveCrash(format: FuzzFormat, input: Buffer, problem: string): string {
  const dir = join(CORPUS_DIR, format.name);
  mkdirSync(dir, { recursive: true });
  const name = createHash('sha256').update(input).digest('hex').slice(0, 16) + format.extension;
  writeFileSync(join(dir, name), input);
  writeFileSync(join(dir, `${name}.txt`), `${problem}\n`);
  return join(dir, name);
}

/** Saved inputs of a format (not their .txt notes). */
export function savedCrashes(format: FuzzFormat): Array<{ name: string; input: Buffer; open: boolean }> {
  const dir = join(CORPUS_DIR, format.name);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => !name.endsWith('.txt') && !name.endsWith('.open'))
    .sort()
    .map((name) => ({ name, input: readFileSync(join(dir, name)), open: names.includes(`${name}.open`) }));
}

/** Runs `cases` seeded cases of a format; failing inputs are returned (and saved when `save`). */
export async function fuzzFormat(format: FuzzFormat, cases: number, seed: number, workDir: string, save: boolean): Promise<{ cases: number; read: number; refused: number; failures: Array<{ problem: string; saved?: string }> }> {
  const seeds = await format.seeds();
  if (seeds.length === 0) throw new Error(`no seed files for ${format.name}`);
  const next = random(seed);
  const failures: Array<{ problem: string; saved?: string }> = [];
  let read = 0;
  let refused = 0;
  for (let i = 0; i < cases; i++) {
    const input = mutate(seeds[i % seeds.length], seeds, next);
    const outcome = await runCase(format, input, workDir);
    if (outcome.ok) {
      if (outcome.kind === 'read') read++;
      else refused++;
    } else failures.push({ problem: outcome.problem, saved: save ? saveCrash(format, input, outcome.problem) : undefined });
  }
  return { cases, read, refused, failures };
}
