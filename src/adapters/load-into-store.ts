import type { AnnotationStore } from '../store/store.js';
import type { Annotation } from '../model/annotation.js';
import { checkAnnotationBounds, checkTierBounds } from '../model/bounds.js';
import { checkMetaEntry } from '../model/limits.js';
import type { LoadedDocument } from './adapter.js';

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
  { batchSize = 10000, onProgress, bounded = true }: { batchSize?: number; onProgress?: (written: number) => void; bounded?: boolean } = {},
): Promise<number> {
  for (const tier of parentsFirst(document.tiers)) {
    if (bounded) checkTierBounds(tier);
    await store.addTier(tier);
  }
  for (const [key, value] of Object.entries(document.meta)) {
    if (bounded) checkMetaEntry(key, value);
    await store.setMeta(key, value);
  }
  if (batchSize === Number.POSITIVE_INFINITY) return store.addMany(counted(document.annotations, bounded, onProgress));
  let written = 0;
  let batch: Annotation[] = [];
  for await (const annotation of document.annotations) {
    if (bounded) checkAnnotationBounds(annotation);
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

async function* counted(annotations: AsyncIterable<Annotation>, bounded: boolean, onProgress?: (written: number) => void): AsyncGenerator<Annotation> {
  let count = 0;
  for await (const annotation of annotations) {
    if (bounded) checkAnnotationBounds(annotation);
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
