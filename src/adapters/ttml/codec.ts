import type { FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import { loadedDocument } from '../loaded-document.js';
import { readSourceText } from '../source-text.js';
import { readTtml, ttmlDocument } from './ttml-reader.js';
import { dumpTtml } from './ttml-writer.js';

/** Reads a TTML document whole (XML is a tree) and writes IMSC 1.1 Text Profile documents. */
export const ttmlCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    // The text lives only for the scan: the cues are columns of their own.
    const state = readTtml(await readSourceText(path, options, { xml: true }), options.sourceName, options.report);
    return loadedDocument(ttmlDocument(state, options));
  },
  dump: dumpTtml,
};
