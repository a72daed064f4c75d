import { annotationWireJson, type WireJsonOptions } from '../model/wire-json.js';
import type { TimeInterval } from '../time/time-interval.js';
import type { AnnotationStore } from './store.js';

/**
 * A store that can answer a window query as wire JSON texts without building annotation objects
 * (SqliteStore). Optional: windowWireJson falls back to the plain query for every other store.
 */
export interface WireJsonWindows {
  intersectsWireJson(query: TimeInterval, tier?: string, options?: WireJsonOptions): Promise<string[]>;
}

export function hasWireJsonWindows(store: object): store is WireJsonWindows {
  return typeof (store as Partial<WireJsonWindows>).intersectsWireJson === 'function';
}

/** The annotations intersecting `query` (on `tier`, when given) as wire JSON texts, in the stores' order. */
export async function windowWireJson(store: AnnotationStore, query: TimeInterval, tier?: string, options: WireJsonOptions = {}): Promise<string[]> {
  if (hasWireJsonWindows(store)) return store.intersectsWireJson(query, tier, options);
  const found = tier === undefined ? await store.intersects(query) : await store.atTier(tier, query);
  return found.map((annotation) => annotationWireJson(annotation, options));
}
