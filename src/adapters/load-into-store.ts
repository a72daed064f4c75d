import type { AnnotationStore } from '../store/store.js';
import type { Annotation } from '../model/annotation.js';
import { checkAnnotationBounds, checkTierBounds } from '../model/bounds.js';
import { checkMetaEntry } from '../model/limits.js';
import type { LoadedDocument } from './adapter.js';
import type { SourceLocation } from './errors.js';
import { placedInFile } from './refusal-place.js';

/** Options of loadIntoStore. */
export interface LoadIntoStoreOptions {
  /** How many annotations are written per transaction. */
  readonly batchSize?: number;
  /** Called with the running number of annotations written. */
  readonly onProgress?: (written: number) => void;
  /** Hold names and texts to the model's LIMITS (default true). */
  readonly bounded?: boolean;
  /** The file being imported, for messages: a refusal names it and the annotation's place in it. */
  readonly sourceName?: string;
}

/**
 * Writes a loaded document into a store: tiers (parents first), metadata, then the annotations
 * in batches, so a million-cue file streams through without sitting in memory. Returns how many
 * annotations were written. `onProgress` is told the running count after each batch.
 * `batchSize: Infinity` streams everything into one addMany: one transaction, which lets a new
 * `.annot` file build its indexes once at the end instead of row by row.
 *
 * `bounded` (the default) holds every name and text to the model's LIMITS, as the service does:
 * what is kept (a `.annot` file, a database, a served file) is refused past them. A store that
 * only serves one read of a file (query, validate, a conversion between formats) passes false.
 */
export async function loadIntoStore(
  document: LoadedDocument,
  store: AnnotationStore,
  options: LoadIntoStoreOptions = {},
): Promise<number> {
  const { batchSize = 10000, onProgress, bounded = true, sourceName } = options;
  const refusal = refusalNamer(document, sourceName);
  for (const tier of parentsFirst(document.tiers)) {
    if (bounded) inSource(() => checkTierBounds(tier), (error) => refusal.of(error, {}));
    await store.addTier(tier);
  }
  for (const [key, value] of Object.entries(document.meta)) {
    if (bounded) inSource(() => checkMetaEntry(key, value), (error) => refusal.of(error, document.placeOfMeta?.(key) ?? {}));
    await store.setMeta(key, value);
  }
  const check = bounded ? boundsChecker(refusal) : null;
  if (batchSize === Number.POSITIVE_INFINITY) return store.addMany(counted(document.annotations, check, refusal, onProgress));
  let written = 0;
  let batch: Annotation[] = [];
  // Only what the reader and the checks throw is named in the file: a store's own refusal speaks for itself.
  let storing = false;
  try {
    for await (const annotation of document.annotations) {
      check?.(annotation);
      batch.push(annotation);
      if (batch.length >= batchSize) {
        storing = true;
        written += await store.addMany(batch);
        storing = false;
        batch = [];
        onProgress?.(written);
      }
    }
  } catch (error) {
    throw storing ? error : refusal.ofLast(error);
  }
  if (batch.length > 0) {
    written += await store.addMany(batch);
    onProgress?.(written);
  }
  return written;
}

async function* counted(annotations: AsyncIterable<Annotation>, check: ((annotation: Annotation) => void) | null, refusal: RefusalNamer, onProgress?: (written: number) => void): AsyncGenerator<Annotation> {
  let count = 0;
  try {
    for await (const annotation of annotations) {
      check?.(annotation);
      yield annotation;
      if (++count % 10000 === 0) onProgress?.(count);
    }
  } catch (error) {
    throw refusal.ofLast(error);
  }
}

/**
 * The document's annotations, each held to the model's LIMITS as it is read, a refusal named at
 * its place in `sourceName` (as loadIntoStore names it): for a caller that keeps them otherwise
 * than through loadIntoStore (an import through the op-log).
 */
export async function* boundedAnnotations(document: LoadedDocument, sourceName: string): AsyncGenerator<Annotation> {
  const refusal = refusalNamer(document, sourceName);
  yield* counted(document.annotations, boundsChecker(refusal), refusal);
}

/** Tiers ordered so that every parent precedes its children (stores require it). */
export function parentsFirst<T extends { name: string; parent: string | null }>(tiers: readonly T[]): T[] {
  const byName = new Map(tiers.map((tier) => [tier.name, tier]));
  const ordered: T[] = [];
  const placed = new Set<string>();
  const visit = (tier: T, trail: Set<string>): void => {
    if (placed.has(tier.name) || trail.has(tier.name)) return;
    trail.add(tier.name);
    const parent = tier.parent ? byName.get(tier.parent) : undefined;
    if (parent) visit(parent, trail);
    placed.add(tier.name);
    ordered.push(tier);
  };
  for (const tier of tiers) visit(tier, new Set());
  return ordered;
}

function inSource(check: () => void, named: (error: unknown) => unknown): void {
  try {
    check();
  } catch (error) {
    throw named(error);
  }
}

/**
 * Names the file and the place in it in a refusal of what the reader handed over (the reader's
 * placeOfAnnotation / placeOfMeta; see refusal-place.ts), when the file is known. An annotation
 * whose place the reader cannot tell is named by its place in the file's order instead.
 */
interface RefusalNamer {
  of(error: unknown, location: SourceLocation): unknown;
  /** A refusal of the annotation handed over last. */
  ofLast(error: unknown): unknown;
  /** How the bounds check names the annotation handed over last: null when ofLast names its place. */
  which(place: number, annotation: Annotation): string | null;
}

function refusalNamer(document: LoadedDocument, sourceName: string | undefined): RefusalNamer {
  const { placeOfAnnotation } = document;
  if (sourceName === undefined) return { of: (error) => error, ofLast: (error) => error, which: () => null };
  return {
    of: (error, location) => placedInFile(error, sourceName, location),
    ofLast: (error) => placedInFile(error, sourceName, placeOfAnnotation?.() ?? {}),
    which: (place, annotation) => (placeOfAnnotation === undefined ? `annotation ${place} (tier "${annotation.tier.slice(0, 40)}")` : null),
  };
}

/** Checks each annotation in turn; a refusal is named by the caller (RefusalNamer.ofLast). */
function boundsChecker(refusal: RefusalNamer): (annotation: Annotation) => void {
  let place = 0;
  return (annotation) => {
    place++;
    checkAnnotationBounds(annotation, refusal.which(place, annotation));
  };
}
