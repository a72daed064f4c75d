import type { Annotation } from '../model/annotation.js';
import type { Tier } from '../model/tier.js';
import type { LoadedDocument } from './adapter.js';

const NOTHING_QUANTIZED = Object.freeze({ count: 0, maxErrorSeconds: 0 });

/**
 * A LoadedDocument from what a reader produced: annotations already in memory (a parsed XML or
 * JSON file) are streamed like those of line-based readers, and a reader without an import clock
 * (the lossless `.annot`) reports nothing quantized.
 */
export function loadedDocument(parts: {
  tiers: readonly Tier[];
  meta: Readonly<Record<string, string>>;
  annotations: Iterable<Annotation> | AsyncIterable<Annotation>;
  clock?: { quantization(): { count: number; maxErrorSeconds: number } };
}): LoadedDocument {
  const { annotations, clock } = parts;
  return {
    tiers: parts.tiers,
    meta: parts.meta,
    annotations:
      Symbol.asyncIterator in annotations
        ? (annotations as AsyncIterable<Annotation>)
        : (async function* () {
            yield* annotations as Iterable<Annotation>;
          })(),
    quantization: () => (clock ? clock.quantization() : NOTHING_QUANTIZED),
  };
}
