import type { DumpOptions } from '../../src/adapters/adapter.js';
import type { Annotation } from '../../src/model/annotation.js';
import type { MemoryStore } from '../../src/store/memory.js';
import { brief, ms, readFile, texts, writeAs as writeWithReport, writtenAndRead, type Read } from './subtitle-formats-helpers.js';

/** Reading and writing SRT and WebVTT files the way `annot convert` does, for the other-tools tests. */

export { brief, ms, readFile, texts, type Read };

/** The store written as `extension` ('.vtt' or '.srt'), and the text written. */
export async function writeAs(store: MemoryStore, extension: string, extra: Partial<DumpOptions> = {}): Promise<string> {
  return (await writeWithReport(store, extension, extra)).text;
}

/** The file read, written in its own format and read again: the annotations' times and bodies. */
export async function readBack(path: string): Promise<{ before: unknown[]; after: unknown[] }> {
  const first = await readFile(path);
  const second = await writtenAndRead(first.store, path.endsWith('.srt') ? '.srt' : '.vtt');
  return { before: first.annotations.map(kept), after: second.annotations.map(kept) };
}

/** What a subtitle file keeps of a cue (the SRT sequence number is rewritten on output, so it is left out). */
const kept = (annotation: Annotation): unknown => {
  const { sequence: _sequence, ...body } = annotation.body as Record<string, unknown>;
  return { times: ms(annotation), body };
};
