import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { decodeSource } from '../source-text.js';
import { readLabelStudioText } from './ls-reader.js';
import { writeLabelStudio } from './ls-writer.js';

export const labelStudioCodec: FormatCodec = {
  async load(path, options) {
    return readLabelStudioText(await sourceText(path, options.sourceName), options);
  },
  dump: writeLabelStudio,
};

/** The file's text; its bytes are garbage once this returns, before the reader's passes begin. */
async function sourceText(path: string, file: string): Promise<string> {
  return decodeSource(await readFile(path), file);
}
