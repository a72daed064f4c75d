/** Body schemas of the OTIO import: timed items (clips, transitions, others) and markers. */
export const OTIO_CLIP_SCHEMA = 'annot://schema/otio-clip/v1';
export const OTIO_MARKER_SCHEMA = 'annot://schema/otio-marker/v1';

/** Store meta key: the timeline's and its top stack's own fields (name, metadata, global_start_time...). */
export const OTIO_TIMELINE_META = 'otio:timeline';

export const DEFAULT_ASSET_ID = 'otio:unspecified';

/** Tier metadata `otio_role` of the tier holding the timeline's (top stack's) markers. */
export const TIMELINE_MARKERS_ROLE = 'timeline-markers';

/**
 * Tier metadata of a tier read from a track inside a nested stack or track: `nested_in` names the
 * tier of the track holding the nested item, `nested_item` is the id of that item's annotation in
 * this import (as a marker's owner_annotation_id is), so the writer puts the tier back inside it.
 */
export const NESTED_IN_KEY = 'nested_in';
export const NESTED_ITEM_KEY = 'nested_item';

/**
 * Tier metadata `otio_layer: "item"`: the tier holds an item that stood alone in a stack (no track
 * around it, as nested_example.otio's stacks hold their clips), so it is written back alone.
 */
export const LAYER_KEY = 'otio_layer';
export const LONE_ITEM_LAYER = 'item';

/**
 * Track metadata key our dump adds when a track alone cannot say which tier it is: `{tier,
 * nested_in}` for a tier whose name differs from the one the load would derive (or a nested tier
 * whose item is gone, written at the top), `{lane_of: n}` on the extra tracks a top-level tier
 * needs when its annotations overlap (a track cannot hold overlapping items), n being the index of
 * the tier's main track, and `{lane_of_tier: name}` on those of a nested tier, so the load merges
 * them back.
 */
export const ANNOT_TRACK_KEY = 'annot';

export interface AnnotTrackInfo {
  tier?: string;
  nested_in?: string;
  lane_of?: number;
  lane_of_tier?: string;
}

export interface TimelineParts {
  /** Timeline.* fields other than `tracks`. */
  timeline: Record<string, unknown>;
  /** The top Stack's fields other than `children` and `markers`. */
  stack: Record<string, unknown>;
}

/**
 * The name the load gives a tier read from inside a nested item: `outer / stack / track` for a
 * layer of a nested stack, `outer / track` for a nested track. The writer derives it the same way
 * to know when a tier must name itself (ANNOT_TRACK_KEY).
 */
export function nestedTierLabel(outerTier: string, nested: 'stack' | 'track', itemName: string, layerName: string): string {
  return nested === 'stack' ? `${outerTier} / ${itemName || 'stack'} / ${layerName || 'track'}` : `${outerTier} / ${layerName || 'track'}`;
}

/** Whether an OTIO schema name (without version) is a composition that nests tracks or items. */
export function isNestedSchema(kind: string | null): kind is 'Stack' | 'Track' | 'Sequence' {
  return kind === 'Stack' || kind === 'Track' || kind === 'Sequence';
}

/** A tier name not taken yet: `base`, else `base 2`, `base 3`...; an empty base is `untitled`. */
export function uniqueName(taken: ReadonlySet<string>, base: string): string {
  const stem = base === '' ? 'untitled' : base;
  let name = stem;
  for (let n = 2; taken.has(name); n++) name = `${stem} ${n}`;
  return name;
}
