import type { AnnotationStore } from '../store/store.js';
import type { Annotation } from '../model/annotation.js';
import { checkAnnotationBounds, checkTierBounds } from '../model/bounds.js';
import { checkMetaEntry } from '../model/limits.js';
import type { LoadedDocument } from './adapter.js';

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
  const named = (error: unknown): unknown => {
    if (sourceName !== undefined && error instanceof Error) error.message = `${sourceName}: ${error.message}`;
    return error;
  };
  for (const tier of parentsFirst(document.tiers)) {
    if (bounded) inSource(() => checkTierBounds(tier), named);
    await store.addTier(tier);
  }
  for (const [key, value] of Object.entries(document.meta)) {
    if (bounded) inSource(() => checkMetaEntry(key, value), named);
    await store.setMeta(key, value);
  }
  const check = bounded ? boundsChecker(sourceName, named) : null;
  if (batchSize === Number.POSITIVE_INFINITY) return store.addMany(counted(document.annotations, check, onProgress));
  let written = 0;
  let batch: Annotation[] = [];
  for await (const annotation of document.annotations) {
    check?.(annotation);
    batch.push(annotation);
    if (batch.length >= batchSize) {
      written += await store.addMany(batch);
      batch = [];
      onProgress?.(written);
    }
  }
  if (batch.length > 0) {
    written += await store.addMany(batch);
    onProgress?.(written);
  }
  return written;
}

async function* counted(annotations: AsyncIterable<Annotation>, check: ((annotation: Annotation) => void) | null, onProgress?: (written: number) => void): AsyncGenerator<Annotation> {
  let count = 0;
  for await (const annotation of annotations) {
    check?.(annotation);
    yield annotation;
    if (++count % 10000 === 0) onProgress?.(count);
  }
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

/** Checks each annotation in turn, naming it by its place in the file (ids of a reader are new) when the file is known. */
function boundsChecker(sourceName: string | undefined, named: (error: unknown) => unknown): (annotation: Annotation) => void {
  let place = 0;
  return (annotation) => {
    place++;
    inSource(() => checkAnnotationBounds(annotation, sourceName === undefined ? undefined : `annotation ${place} (tier "${annotation.tier.slice(0, 40)}")`), named);
  };
}
