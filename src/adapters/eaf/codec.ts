import { loadedDocument } from '../loaded-document.js';
import type { DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import type { AnnotationStore } from '../../store/store.js';
import { readFileSync } from 'node:fs';
import { decodeSource, readSourceText } from '../source-text.js';
import { readEaf } from './eaf-reader.js';
import { writeEaf } from './eaf-writer.js';

/** Reads an EAF file in one scan, building its annotations as they are consumed, and writes one as a stream. */
export const eafCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    // The text lives only for this read: the annotations are built later from columns of their own.
    // A refusal of an annotation built after the text is gone reads the file again for its line.
    const reread = () => decodeSource(readFileSync(path), { ...options, report: () => {} }, { xml: true });
    const read = readEaf(await readSourceText(path, options, { xml: true }), options, reread);
    return loadedDocument({
      ...read,
      file: options.sourceName,
      // The document's parts other than its tiers are kept whole in one metadata entry.
      placeOfMeta: () => ({ path: 'ANNOTATION_DOCUMENT' }),
    });
  },

  async dump(store: AnnotationStore, path: string): Promise<DumpReport> {
    return writeEaf(store, path);
  },
};

export default eafCodec;
