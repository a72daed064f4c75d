import { readFile } from 'node:fs/promises';
import type { FormatCodec } from '../adapter.js';
import { decodeSource } from '../source-text.js';
import { readWebAnnotationText } from './wa-reader.js';
import { writeWebAnnotation } from './wa-writer.js';

export const webAnnotationCodec: FormatCodec = {
  async load(path, options) {
    return readWebAnnotationText(await sourceText(path, options.sourceName), options);
  },
  dump: writeWebAnnotation,
};

/** The file's text; its bytes are garbage once this returns, before the reader's passes begin. */
async function sourceText(path: string, file: string): Promise<string> {
  return decodeSource(await readFile(path), file);
}
