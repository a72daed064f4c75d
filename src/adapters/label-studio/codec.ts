import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { readLabelStudio } from './ls-reader.js';
import { writeLabelStudio } from './ls-writer.js';

export const labelStudioCodec: FormatCodec = {
  async load(path, options) {
    return readLabelStudio(await readFile(path), options);
  },
  dump: writeLabelStudio,
};
