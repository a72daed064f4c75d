import type { AnnotationStore } from '../../store/store.js';
import { ALL_STAMPS, type DumpOptions, type DumpReport, type FormatCodec } from '../adapter.js';
import { selectFlatCues } from '../flat-cues.js';
import { ASS_EVENT_SCHEMA } from './ass-model.js';
import { loadAss } from './ass-reader.js';
import { writeAss } from './ass-writer.js';

/**
 * Writes the store (or one tier of it) as SubStation: every annotation with an interval, in the
 * store's order when they all are SubStation events (a file's event order decides which is drawn
 * over which), else in time order; comment events stay comments.
 */
export async function dumpAss(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const selection = await selectFlatCues(store, options, 'ass', { comments: 'keep', storeOrderFor: ASS_EVENT_SCHEMA });
  return writeAss(selection, (key) => store.getMeta(key), path, options);
}

export const assCodec: FormatCodec = { load: loadAss, dump: dumpAss, writeCues: writeAss, streamsOnLoad: true, writesComments: true, stampsNeverKept: ALL_STAMPS };
