import { readFile } from 'node:fs/promises';
import type { FormatCodec, LoadOptions } from '../adapter.js';
import { jamsText, readJamsText } from './jams-reader.js';
import { writeJams } from './jams-writer.js';

export const jamsCodec: FormatCodec = {
  async load(path, options) {
    return readJamsText(await sourceText(path, options), options);
  },
  dump: writeJams,
};

/** The file's text; its bytes are garbage once this returns, before the reader's passes begin. */
async function sourceText(path: string, options: LoadOptions): Promise<string> {
  return await jamsText(await readFile(path), options);
}
