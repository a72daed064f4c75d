import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DumpOptions, DumpReport, FormatCodec } from '../../src/adapters/adapter.js';
import { assCodec } from '../../src/adapters/ass/codec.js';
import type { Finding } from '../../src/adapters/finding.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { sbvCodec } from '../../src/adapters/sbv/codec.js';
import { srtCodec } from '../../src/adapters/srt/codec.js';
import { ttmlCodec } from '../../src/adapters/ttml/codec.js';
import { webvttCodec } from '../../src/adapters/webvtt/codec.js';
import type { Annotation } from '../../src/model/annotation.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';

/** Reading and writing the subtitle formats of issue 22 (and SRT and WebVTT) the way `annot convert` does. */

export interface Read {
  annotations: Annotation[];
  findings: Finding[];
  meta: Record<string, string>;
  store: MemoryStore;
}

export function codecOf(path: string): FormatCodec {
  if (/\.(ass|ssa)$/.test(path)) return assCodec;
  if (/\.(ttml|dfxp|xml)$/.test(path)) return ttmlCodec;
  if (path.endsWith('.sbv')) return sbvCodec;
  if (path.endsWith('.srt')) return srtCodec;
  return webvttCodec;
}

export async function readFile(path: string, codec: FormatCodec = codecOf(path)): Promise<Read> {
  const findings: Finding[] = [];
  const document = await codec.load(path, { sourceName: path.split('/').pop() as string, now: RationalTime.now(1000), report: (finding) => findings.push(finding) });
  const meta = { ...document.meta };
  const store = new MemoryStore();
  await loadIntoStore(document, store);
  const annotations: Annotation[] = [];
  for await (const annotation of store.all()) annotations.push(annotation);
  return { annotations, findings, meta, store };
}

/** Reads text written to a temporary file with the given extension. */
export async function readText(text: string | Buffer, extension: string): Promise<Read> {
  const dir = mkdtempSync(join(tmpdir(), 'annot-subtitles-'));
  try {
    const path = join(dir, `in${extension}`);
    writeFileSync(path, text);
    return await readFile(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The store written as `extension`, the text written and the loss report. */
export async function writeAs(store: MemoryStore, extension: string, extra: Partial<DumpOptions> = {}): Promise<{ text: string; report: DumpReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'annot-subtitles-'));
  try {
    const out = join(dir, `out${extension}`);
    const report = await codecOf(out).dump(store, out, { targetName: out, warn: () => undefined, ...extra });
    return { text: readFileSync(out, 'utf8'), report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What a written text reads back as, in the format of `extension`. */
export async function writtenAndRead(store: MemoryStore, extension: string): Promise<Read & { text: string }> {
  const { text } = await writeAs(store, extension);
  return { ...(await readText(text, extension)), text };
}

export function ms(annotation: Annotation): [number, number] {
  const { start, end } = (annotation.reference as { interval: { start: RationalTime; end: RationalTime } }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r];
}

export function texts(read: Read): string[] {
  return read.annotations.map((annotation) => String(annotation.body.text));
}

/** `severity code @line` of a finding, for compact assertions. */
export function brief(finding: Finding): string {
  return `${finding.severity} ${finding.code} @${finding.location.line ?? '?'}`;
}
