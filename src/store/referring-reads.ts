import type { Annotation } from '../model/annotation.js';
import type { AnnotationStore } from './store.js';

/**
 * A store that can find the annotations of a tier referring to given annotations (AnnotationRef)
 * without reading the tier whole (SqliteStore: the rows are compared in SQL, and only matches are
 * decoded). Optional: annotationsReferringTo falls back to byTier for every other store.
 */
export interface ReferringReads {
  referringTo(tier: string, targetId: string): Promise<Annotation[]>;
}

export function hasReferringReads(store: object): store is ReferringReads {
  return typeof (store as Partial<ReferringReads>).referringTo === 'function';
}

/** The annotations on `tier` whose reference targets one of `targetIds`, in insertion order per target. */
export async function annotationsReferringTo(store: AnnotationStore, tier: string, targetIds: Iterable<string>): Promise<Annotation[]> {
  const wanted = [...new Set(targetIds)];
  if (wanted.length === 0) return [];
  if (hasReferringReads(store)) return (await Promise.all(wanted.map((id) => store.referringTo(tier, id)))).flat();
  const targets = new Set(wanted);
  return (await store.byTier(tier)).filter((annotation) => annotation.reference.kind === 'annotation' && targets.has(annotation.reference.target_id));
}
