import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { readJams } from './jams-reader.js';
import { writeJams } from './jams-writer.js';

export const jamsCodec: FormatCodec = {
  async load(path, options) {
    return readJams(await readFile(path), options);
  },
  dump: writeJams,
};
