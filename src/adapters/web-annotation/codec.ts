import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { readWebAnnotation } from './wa-reader.js';
import { writeWebAnnotation } from './wa-writer.js';

export const webAnnotationCodec: FormatCodec = {
  async load(path, options) {
    return readWebAnnotation(await readFile(path), options);
  },
  dump: writeWebAnnotation,
};
