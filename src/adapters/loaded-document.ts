import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { LoadedDocument } from './adapter.js';
import type { SourceLocation } from './errors.js';
import { placedInFile } from './refusal-place.js';

const NOTHING_QUANTIZED = Object.freeze({ count: 0, maxErrorSeconds: 0 });

/**
 * A LoadedDocument from what a reader produced: annotations already in memory (a parsed XML or
 * JSON file) are streamed like those of line-based readers, and a reader without an import clock
 * (the lossless `.annot`) reports nothing quantized. Given the file (`file`) and the place of the
 * annotation being built (`placeOfAnnotation`), a refusal the model makes while the annotations are
 * built is named there (refusal-place.ts): these readers are not the streaming ones, whose
 * annotations pass through no wrapper.
 */
export function loadedDocument(parts: {
  tiers: readonly Tier[];
  meta: Readonly<Record<string, string>>;
  annotations: Iterable<Annotation> | AsyncIterable<Annotation>;
  clock?: { quantization(): { count: number; maxErrorSeconds: number } };
  file?: string;
  placeOfAnnotation?: () => SourceLocation;
  placeOfMeta?: (key: string) => SourceLocation;
}): LoadedDocument {
  const { annotations, clock, file, placeOfAnnotation, placeOfMeta } = parts;
  const named = (error: unknown): unknown => (file === undefined ? error : placedInFile(error, file, placeOfAnnotation?.() ?? {}));
  return {
    tiers: parts.tiers,
    meta: parts.meta,
    annotations: (async function* () {
      try {
        yield* annotations;
      } catch (error) {
        throw named(error);
      }
    })(),
    quantization: () => (clock ? clock.quantization() : NOTHING_QUANTIZED),
    ...(placeOfAnnotation === undefined ? {} : { placeOfAnnotation }),
    ...(placeOfMeta === undefined ? {} : { placeOfMeta }),
  };
}
