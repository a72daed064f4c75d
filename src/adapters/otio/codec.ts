import { readFile } from 'node:fs/promises';
import type { DumpOptions, DumpReport, FormatCodec, LoadedDocument, LoadOptions } from '../adapter.js';
import type { AnnotationStore } from '../../store/store.js';
import { decodeText } from '../sniffers.js';
import { parseOtioJson } from './otio-json.js';
import { readOtio } from './otio-reader.js';
import { writeOtio } from './otio-writer.js';

export const otioCodec: FormatCodec = {
  async load(path: string, options: LoadOptions): Promise<LoadedDocument> {
    const text = decodeText(await readFile(path));
    const read = readOtio(parseOtioJson(text, options.sourceName), options);
    return {
      tiers: read.tiers,
      meta: read.meta,
      annotations: (async function* () {
        yield* read.annotations;
      })(),
      quantization: () => read.clock.quantization(),
    };
  },

  async dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
    void options;
    return writeOtio(store, path);
  },
};

export default otioCodec;
