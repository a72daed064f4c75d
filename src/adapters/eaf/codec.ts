import { loadedDocument } from '../loaded-document.js';
import type { DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import type { AnnotationStore } from '../../store/store.js';
import { readSourceText } from '../source-text.js';
import { readEaf } from './eaf-reader.js';
import { writeEaf } from './eaf-writer.js';

/** Reads an EAF file in one scan, building its annotations as they are consumed, and writes one as a stream. */
export const eafCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    // The text lives only for this read: the annotations are built later from columns of their own.
    const read = readEaf(await readSourceText(path, options, { xml: true }), options);
    return loadedDocument({ tiers: read.tiers, meta: read.meta, annotations: read.annotations, clock: read.clock });
  },

  async dump(store: AnnotationStore, path: string): Promise<DumpReport> {
    return writeEaf(store, path);
  },
};

export default eafCodec;
