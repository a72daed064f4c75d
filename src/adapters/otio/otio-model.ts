/** Body schemas of the OTIO import: timed items (clips, transitions, others) and markers. */
export const OTIO_CLIP_SCHEMA = 'annot://schema/otio-clip/v1';
export const OTIO_MARKER_SCHEMA = 'annot://schema/otio-marker/v1';

/** Store meta key: the timeline's and its top stack's own fields (name, metadata, global_start_time...). */
export const OTIO_TIMELINE_META = 'otio:timeline';

export const DEFAULT_ASSET_ID = 'otio:unspecified';

/** Tier metadata `otio_role` of the tier holding the timeline's (top stack's) markers. */
export const TIMELINE_MARKERS_ROLE = 'timeline-markers';

/**
 * Track metadata key our dump adds when a track alone cannot say which tier it is: `{tier,
 * nested_in}` for a tier that was a nested track or whose name differs from the track's, and
 * `{lane_of: n}` on the extra tracks a tier needs when its annotations overlap (a track cannot
 * hold overlapping items), n being the index of the tier's main track, so the load merges them back.
 */
export const ANNOT_TRACK_KEY = 'annot';

export interface AnnotTrackInfo {
  tier?: string;
  nested_in?: string;
  lane_of?: number;
}

export interface TimelineParts {
  /** Timeline.* fields other than `tracks`. */
  timeline: Record<string, unknown>;
  /** The top Stack's fields other than `children` and `markers`. */
  stack: Record<string, unknown>;
}
