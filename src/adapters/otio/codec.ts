import { loadedDocument } from '../loaded-document.js';
import type { DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import type { AnnotationStore } from '../../store/store.js';
import { readSourceText } from '../source-text.js';
import { parseOtioJson } from './otio-json.js';
import { readOtio } from './otio-reader.js';
import { writeOtio } from './otio-writer.js';

export const otioCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    // Neither the bytes nor the text outlive their use: the walk below holds only the parsed tree.
    const read = readOtio(parseOtioJson(await readSourceText(path, options), options.sourceName), options);
    // The timeline's and its top stack's own fields are kept whole in one metadata entry.
    return loadedDocument({ ...read, file: options.sourceName, placeOfMeta: () => ({ path: '$' }) });
  },

  async dump(store: AnnotationStore, path: string): Promise<DumpReport> {
    return writeOtio(store, path);
  },
};

export default otioCodec;
