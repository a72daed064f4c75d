import type { FormatCodec } from '../adapter.js';
import { readSourceText } from '../source-text.js';
import { readWebAnnotationText } from './wa-reader.js';
import { writeWebAnnotation } from './wa-writer.js';

export const webAnnotationCodec: FormatCodec = {
  async load(path, options) {
    return readWebAnnotationText(await readSourceText(path, options), options);
  },
  dump: writeWebAnnotation,
};

