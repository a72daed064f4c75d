import type { AnnotationStore } from '../../store/store.js';
import type { DumpReport } from '../adapter.js';
import { allocate } from './eaf-write-allocate.js';
import { collectStore } from './eaf-write-collect.js';
import { emitDocument } from './eaf-write-emit.js';
import { EafWriteState } from './eaf-write-state.js';
import { ChunkedWriter } from './xml-write.js';

/**
 * Writes a store as an EAF 3.0 document. Document parts the import kept in store meta (header,
 * linguistic types, vocabularies, locales, languages, licences, external references) are written
 * back as they were; tiers without a matching linguistic type get one generated for their
 * stereotype. Time slots are generated: one per distinct slot a body names (shared slots stay
 * shared), fresh ones otherwise, unaligned ones without TIME_VALUE, ordered by time.
 *
 * In three passes over one state: collect (the store) → allocate (ids, slots, types) → emit.
 */
export async function writeEaf(store: AnnotationStore, path: string, now: Date = new Date()): Promise<DumpReport> {
  const state = new EafWriteState();
  await collectStore(state, store);
  allocate(state);
  const writer = new ChunkedWriter(path);
  await emitDocument(state, writer, now);
  await writer.close();
  return { dropped: [...state.dropped].map(([what, count]) => ({ what, count })) };
}
