import type { Annotation, MediaRef } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { isObject, type OtioValue } from './otio-json.js';
import { OTIO_TIMELINE_META, TIMELINE_MARKERS_ROLE, type TimelineParts } from './otio-model.js';

export type Timed = Annotation & { readonly reference: MediaRef };

/** What a dump leaves out, by what: `{provenance: 1204}`. */
export class DropCount {
  readonly counts: Record<string, number> = {};

  add(what: string, count = 1): void {
    this.counts[what] = (this.counts[what] ?? 0) + count;
  }

  list(): Array<{ what: string; count: number }> {
    return Object.entries(this.counts).map(([what, count]) => ({ what, count }));
  }
}

/** One tier's annotations, sorted by what they become in OTIO. */
export interface TierContent {
  readonly name: string;
  readonly tier: Tier | undefined;
  /** Clips and items (gaps, nested stacks and tracks, items of other schemas). */
  readonly items: Timed[];
  readonly transitions: Timed[];
  /** Markers of the track itself. */
  readonly trackMarkers: Timed[];
}

export interface Collected {
  readonly parts: TimelineParts | null;
  /** In the store's order of tiers. */
  readonly tiers: TierContent[];
  /** Markers of an item (a clip, a gap, a nested stack), by the item's annotation id. */
  readonly itemMarkers: Map<string, Timed[]>;
  readonly timelineMarkers: Timed[];
  /** The nested stacks and tracks by id, with their tier: the tiers they hold name them. */
  readonly nestedItems: Map<string, { item: Timed; tier: string }>;
  readonly dropped: DropCount;
}

/**
 * The writer's first pass: one read of the store, each annotation sorted by what it becomes in
 * OTIO (an item of its tier's track, a transition, a marker of its track, of an item or of the
 * timeline), and what OTIO cannot keep counted.
 */
export async function collect(store: AnnotationStore): Promise<Collected> {
  const tiers = await store.listTiers();
  const parts = readParts(await store.getMeta(OTIO_TIMELINE_META));
  const contents = new Map<string, TierContent>(tiers.map((tier) => [tier.name, emptyContent(tier.name, tier)]));
  const collected: Collected = { parts, tiers: [], itemMarkers: new Map(), timelineMarkers: [], nestedItems: new Map(), dropped: new DropCount() };
  let total = 0;
  for await (const annotation of store.all()) {
    total++;
    if (annotation.confidence !== null) collected.dropped.add('confidence');
    if (annotation.reference.kind !== 'media') {
      collected.dropped.add('annotations without an interval (references to other annotations)');
      continue;
    }
    let content = contents.get(annotation.tier);
    if (!content) contents.set(annotation.tier, (content = emptyContent(annotation.tier, undefined)));
    sortInto(collected, content, annotation as Timed);
  }
  if (total > 0) collected.dropped.add('provenance', total);
  for (const content of contents.values()) {
    const markerTier = content.tier?.metadata.otio_role === TIMELINE_MARKERS_ROLE;
    if (!(markerTier && content.items.length === 0 && content.transitions.length === 0 && content.trackMarkers.length === 0)) collected.tiers.push(content);
  }
  return collected;
}

function sortInto(collected: Collected, content: TierContent, annotation: Timed): void {
  const kind = annotation.body.kind;
  if (kind === 'marker' || (kind === undefined && annotation.reference.interval.isPoint)) {
    const owner = annotation.body.owner_annotation_id;
    if (annotation.body.owner === 'clip' && typeof owner === 'string') {
      const attached = collected.itemMarkers.get(owner);
      if (attached) attached.push(annotation);
      else collected.itemMarkers.set(owner, [annotation]);
    } else if (content.tier?.metadata.otio_role === TIMELINE_MARKERS_ROLE || annotation.body.owner === 'timeline') collected.timelineMarkers.push(annotation);
    else content.trackMarkers.push(annotation);
  } else if (kind === 'transition') content.transitions.push(annotation);
  else {
    content.items.push(annotation);
    if (nestedKindOf(annotation) !== null) collected.nestedItems.set(annotation.id, { item: annotation, tier: content.name });
  }
}

/** `Stack` or `Track` for an item annotation that is a nested stack or track, else null. */
export function nestedKindOf(annotation: Timed): 'Stack' | 'Track' | null {
  const schema = annotation.body.otio_schema;
  if (annotation.body.kind !== 'item' || typeof schema !== 'string') return null;
  if (schema.startsWith('Stack.')) return 'Stack';
  return schema.startsWith('Track.') || schema.startsWith('Sequence.') ? 'Track' : null;
}

function emptyContent(name: string, tier: Tier | undefined): TierContent {
  return { name, tier, items: [], transitions: [], trackMarkers: [] };
}

function readParts(raw: string | null): TimelineParts | null {
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as TimelineParts;
    if (isObject(parsed as unknown as OtioValue) && isObject(parsed.timeline as OtioValue) && isObject(parsed.stack as OtioValue)) return parsed;
  } catch {
    // written from the tiers alone
  }
  return null;
}
