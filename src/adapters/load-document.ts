import type { FormatCodec, LoadedDocument, LoadOptions } from './adapter.js';
import { placedInFile } from './refusal-place.js';

/**
 * `codec.load`, with the file named in a refusal the reader did not word or place itself:
 * readers build tiers and annotations with the model's constructors, whose errors (a tier name
 * past the limits, an empty asset id) speak of fields, not files. Readers name the place of what
 * they refuse (`talk.TextGrid:9: name: ...`, see refusal-place.ts); one that did not is named by
 * its file alone: `talk.TextGrid: name: ...`.
 */
export async function loadDocument(codec: FormatCodec, path: string, options: LoadOptions): Promise<LoadedDocument> {
  try {
    return await codec.load(path, options);
  } catch (error) {
    throw placedInFile(error, options.sourceName);
  }
}
