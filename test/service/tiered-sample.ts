import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import type { Tier } from '../../src/model/tier.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

// Builders for the tests of edits on constrained tiers (tier-constraint-guard, batch-update).

export const ASSET = 'talk.wav';
const provenance = { was_generated_by: 'user:test', generated_at_time: new RationalTime(1_700_000_000_000, 1000) };

/** An annotation on `tier` from `start` to `end` seconds (at 1 kHz), its text the tier's name. */
export const timed = (id: string, tier: string, start: string, end: string): Annotation =>
  makeAnnotation({ id, tier, reference: mediaRef(ASSET, TimeInterval.fromSeconds(start, end, 1000)), body: { text: tier }, body_schema_uri: 'annot://schema/label/v1', provenance });

/** An annotation on `tier` referring to `target`. */
export const symbolic = (id: string, tier: string, target: string): Annotation =>
  makeAnnotation({ id, tier, reference: annotationRef(target), body: { text: tier }, body_schema_uri: 'annot://schema/label/v1', provenance });

/** A patch moving an annotation to [start, end) milliseconds. */
export const retime = (start: number, end: number) => ({ reference: { kind: 'media', asset_id: ASSET, interval: { start: { v: start, r: 1000 }, end: { v: end, r: 1000 } } } });

/**
 * A store holding the tiers and annotations, written through the service's op-log: an `.annot`
 * file at `path`, or with null the memory store a served file in another format is read into.
 */
export async function openTieredSample(path: string | null, tiers: readonly Tier[], annotations: readonly Annotation[]): Promise<{ store: OpLoggedStore; service: AnnotationService }> {
  const store = path === null ? new MemoryStore() : await SqliteStore.open(path, { create: true });
  const service = new AnnotationService(store);
  await service.apply(
    [...tiers.map((tier) => ({ kind: 'add_tier' as const, tier })), ...annotations.map((annotation) => ({ kind: 'add_annotation' as const, annotation }))],
    'test',
  );
  return { store, service };
}
