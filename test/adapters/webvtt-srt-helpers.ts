import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DumpOptions, FormatCodec } from '../../src/adapters/adapter.js';
import type { Finding } from '../../src/adapters/finding.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { srtCodec } from '../../src/adapters/srt/codec.js';
import { webvttCodec } from '../../src/adapters/webvtt/codec.js';
import type { Annotation } from '../../src/model/annotation.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import type { TimeInterval } from '../../src/time/time-interval.js';

/** Reading and writing subtitle files the way `annot convert` does, for the other-tools tests. */

export interface Read {
  annotations: Annotation[];
  findings: Finding[];
  meta: Record<string, string>;
  store: MemoryStore;
}

const codecOf = (path: string): FormatCodec => (path.endsWith('.srt') ? srtCodec : webvttCodec);

export async function readFile(path: string): Promise<Read> {
  const findings: Finding[] = [];
  const document = await codecOf(path).load(path, { sourceName: path.split('/').pop() as string, now: RationalTime.now(1000), report: (finding) => findings.push(finding) });
  const meta = { ...document.meta };
  const store = new MemoryStore();
  await loadIntoStore(document, store);
  const annotations: Annotation[] = [];
  for await (const annotation of store.all()) annotations.push(annotation);
  return { annotations, findings, meta, store };
}

/** The store written as `extension` ('.vtt' or '.srt'), and the text written. */
export async function writeAs(store: MemoryStore, extension: string, extra: Partial<DumpOptions> = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'annot-subtitles-'));
  try {
    const out = join(dir, `out${extension}`);
    await codecOf(out).dump(store, out, { targetName: out, warn: () => undefined, ...extra });
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The file read, written in its own format and read again: the annotations' times and bodies. */
export async function readBack(path: string): Promise<{ before: unknown[]; after: unknown[] }> {
  const first = await readFile(path);
  const dir = mkdtempSync(join(tmpdir(), 'annot-subtitles-'));
  try {
    const out = join(dir, `again${path.endsWith('.srt') ? '.srt' : '.vtt'}`);
    await codecOf(out).dump(first.store, out, { targetName: out, warn: () => undefined });
    const second = await readFile(out);
    return { before: first.annotations.map(kept), after: second.annotations.map(kept) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const ms = (annotation: Annotation): [number, number] => {
  const { start, end } = (annotation.reference as { interval: TimeInterval }).interval;
  return [(start.v * 1000) / start.r, (end.v * 1000) / end.r];
};

/** What a subtitle file keeps of a cue (the SRT sequence number is rewritten on output, so it is left out). */
const kept = (annotation: Annotation): unknown => {
  const { sequence: _sequence, ...body } = annotation.body as Record<string, unknown>;
  return { times: ms(annotation), body };
};

export const texts = (read: Read): string[] => read.annotations.map((annotation) => annotation.body.text as string);
export const brief = (finding: Finding): string => `${finding.severity} ${finding.code} @${finding.location.line}`;
