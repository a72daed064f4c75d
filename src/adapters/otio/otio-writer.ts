import { writeFile } from 'node:fs/promises';
import type { AnnotationStore } from '../../store/store.js';
import type { DumpReport } from '../adapter.js';
import { stringifyOtio } from './otio-json.js';
import { allocate } from './write-allocate.js';
import { collect } from './write-collect.js';
import { emitTimeline } from './write-emit.js';

/**
 * Writes a store as an OTIO Timeline in three passes: collect (write-collect.ts: one read of the
 * store, each annotation sorted by what it becomes), allocate (write-allocate.ts: which tier is a
 * track of the stack and which goes back inside a nested item, and the lanes overlapping
 * annotations need) and emit (write-emit.ts: the tree).
 */
export async function writeOtio(store: AnnotationStore, path: string): Promise<DumpReport> {
  const collected = await collect(store);
  const timeline = emitTimeline(allocate(collected));
  await writeFile(path, `${stringifyOtio(timeline)}\n`, 'utf8');
  return { dropped: collected.dropped.list() };
}
