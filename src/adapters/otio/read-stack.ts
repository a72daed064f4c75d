import { isObject, schemaName, type OtioObject } from './otio-json.js';
import { TIMELINE_MARKERS_ROLE } from './otio-model.js';
import { annotInfo, nameOf, syntheticTrack } from './read-bodies.js';
import { readMarkers } from './read-markers.js';
import { fail, type ReadState } from './read-state.js';
import { declareLoneItemTier, declareTier, declareTrackTier } from './read-tiers.js';
import type { TopStack } from './read-top.js';
import { readTrackMarkers, walkTrack } from './read-track.js';

/**
 * The timeline's tracks, each a tier (an item standing alone in the stack too). A track our dump
 * added for overlapping annotations (`lane_of`, `lane_of_tier`) goes back into its tier.
 */
export function walkTopStack(state: ReadState, top: TopStack): void {
  top.children.forEach((layer, index) => {
    const path = `${top.path}.children[${index}]`;
    if (!isObject(layer)) return fail(state, path, 'a "Track.1" object in the stack');
    const isTrack = schemaName(layer) === 'Track' || schemaName(layer) === 'Sequence';
    const track = isTrack ? layer : syntheticTrack(nameOf(layer), layer);
    const lane = isTrack ? laneTier(state, track) : null;
    if (lane !== null) return walkTrack(state, track, path, { tier: lane, origin: state.zero });
    const tier = isTrack ? declareTrackTier(state, track, nameOf(track), path) : declareLoneItemTier(state, layer, nameOf(layer), path);
    state.tierOfTrack.set(index, tier);
    if (isTrack) readTrackMarkers(state, track, path, tier, state.zero);
    walkTrack(state, track, path, { tier, origin: state.zero });
  });
}

/** The tier a lane track of our dump belongs to, when that tier is read already. */
function laneTier(state: ReadState, track: OtioObject): string | null {
  const info = annotInfo(track);
  if (info?.lane_of !== undefined) return state.tierOfTrack.get(info.lane_of) ?? null;
  if (info?.lane_of_tier !== undefined && state.tierNames.has(info.lane_of_tier)) return info.lane_of_tier;
  return null;
}

/** The stack's own markers, on a tier of their own (written back onto the stack). */
export function readTimelineMarkers(state: ReadState, top: TopStack): void {
  if (!Array.isArray(top.markers) || top.markers.length === 0) return;
  const tier = declareTier(state, 'markers', { otio_role: TIMELINE_MARKERS_ROLE }, `${top.path}.markers`);
  readMarkers(state, top.markers, `${top.path}.markers`, { tier, asset: state.defaultAsset, origin: state.zero, owner: 'timeline' });
}
