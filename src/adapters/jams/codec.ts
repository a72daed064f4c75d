import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { jamsText, readJamsText } from './jams-reader.js';
import { writeJams } from './jams-writer.js';

export const jamsCodec: FormatCodec = {
  async load(path, options) {
    return readJamsText(jamsText(await readFile(path), options), options);
  },
  dump: writeJams,
};

