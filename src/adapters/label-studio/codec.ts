import type { FormatCodec } from '../adapter.js';
import { readSourceText } from '../source-text.js';
import { readLabelStudioText } from './ls-reader.js';
import { writeLabelStudio } from './ls-writer.js';

export const labelStudioCodec: FormatCodec = {
  async load(path, options) {
    return readLabelStudioText(await readSourceText(path, options), options);
  },
  dump: writeLabelStudio,
};

