import { readFile } from 'node:fs/promises';
import { loadedDocument } from '../loaded-document.js';
import type { DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import type { AnnotationStore } from '../../store/store.js';
import { decodeSource } from '../source-text.js';
import { readEaf } from './eaf-reader.js';
import { writeEaf } from './eaf-writer.js';
import { scanXml } from './xml-scan.js';

/** Reads an EAF file whole (one scan, one walk) and writes one as a stream. */
export const eafCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    const text = decodeSource(await readFile(path), options.sourceName);
    const read = readEaf(scanXml(text, options.sourceName), text, options);
    return loadedDocument({ tiers: read.tiers, meta: read.meta, annotations: read.annotations, clock: read.clock });
  },

  async dump(store: AnnotationStore, path: string): Promise<DumpReport> {
    return writeEaf(store, path);
  },
};

export default eafCodec;
