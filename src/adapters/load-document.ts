import { InvalidInputError } from '../errors/annot-error.js';
import type { FormatCodec, LoadedDocument, LoadOptions } from './adapter.js';
import { FormatParseError } from './errors.js';

/**
 * `codec.load`, with the file named in a refusal the reader did not word itself: readers build
 * tiers and annotations with the model's constructors, whose errors (a tier name past the limits,
 * an empty asset id) speak of fields, not files. Those come back as `talk.TextGrid: name: ...`.
 */
export async function loadDocument(codec: FormatCodec, path: string, options: LoadOptions): Promise<LoadedDocument> {
  try {
    return await codec.load(path, options);
  } catch (error) {
    if (error instanceof InvalidInputError && !(error instanceof FormatParseError) && !error.message.startsWith(`${options.sourceName}: `)) {
      error.message = `${options.sourceName}: ${error.message}`;
    }
    throw error;
  }
}
