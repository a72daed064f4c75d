import { newAnnotationId } from '../../model/ids.js';
import type { RationalTime } from '../../time/rational-time.js';
import { isObject, schemaName, type OtioObject, type OtioValue } from './otio-json.js';
import { isNestedSchema, nestedTierLabel } from './otio-model.js';
import { addTimes, subtractTimes } from './otio-time.js';
import { annotInfo, isBareGap, nameOf, ownMarkers, syntheticTrack } from './read-bodies.js';
import { itemDuration } from './read-duration.js';
import { readClip, readGap, readItem, readOtherItem, readTransition } from './read-items.js';
import { readMarkers } from './read-markers.js';
import { fail, report, startOf, type ReadState } from './read-state.js';
import { declareLoneItemTier, declareNestedTrackTier, declareTrackTier, withoutAnnotKey, type NestedLink } from './read-tiers.js';
import { trimWindow, type Span } from './read-trim.js';
import type { Placed, TrackWalk } from './track-walk.js';

/** Where a track plays: its tier, where it starts in its parent's time, and what a nested item holding it shows. */
export interface TrackPlace {
  readonly tier: string;
  readonly origin: RationalTime;
  readonly bounds?: Span;
}

/**
 * Lays out a track's children from where it starts: a track's own source_range trims it, so its
 * child at local time t plays at origin + t - start (OTIO's multiple_track.otio trims its third
 * track by -7 frames: Clip-005 plays at 7-16), and what lies outside the trim is left out or cut,
 * as OTIO's track_trimmed_to_range does.
 */
export function walkTrack(state: ReadState, track: OtioObject, path: string, place: TrackPlace): void {
  const walk = startWalk(state, track, path, place);
  const children = Array.isArray(track.children) ? track.children : [];
  children.forEach((child, index) => walkChild(state, walk, child, index));
  if (walk.lastGap !== null) readGap(state, walk, walk.lastGap.gap, walk.lastGap.at, true);
  if (walk.dropped > 0 || walk.clipped > 0) {
    const by = place.bounds === undefined ? 'its source_range' : 'the nested item holding it';
    const message = `track "${nameOf(track)}" is trimmed by ${by}: ${walk.dropped} item(s) wholly outside it left out, ${walk.clipped} cut to it, as OTIO's track_trimmed_to_range does`;
    report(state, 'otio_track_trimmed', `${path}.source_range`, message);
  }
}

function startWalk(state: ReadState, track: OtioObject, path: string, place: TrackPlace): TrackWalk {
  const cursor = subtractTimes(place.origin, startOf(state, track.source_range, `${path}.source_range`));
  // A nested track an older dump wrote at the top (nested_in) keeps its trim for the way back,
  // but its items are laid out at their times on the timeline, not in that trim.
  const window = annotInfo(track)?.nested_in === undefined ? trimWindow(state, track, path, place.origin, place.bounds) : null;
  if (window === 'offset only') {
    const message = `track "${nameOf(track)}" has a source_range that shows none of its items (older cmx_3600 output writes the record start this way): read as an offset of its items only, none left out`;
    report(state, 'otio_track_offset', `${path}.source_range`, message);
  }
  return { tier: place.tier, path, cursor, window: window === 'offset only' ? null : window, dropped: 0, clipped: 0, lastGap: null };
}

function walkChild(state: ReadState, walk: TrackWalk, child: OtioValue, index: number): void {
  const where = `${walk.path}.children[${index}]`;
  if (!isObject(child)) return fail(state, where, 'an OTIO item object (Clip, Gap, Transition, Stack, Track)');
  const kind = schemaName(child);
  if (kind === 'Transition') return readTransition(state, walk, child, where);
  const end = addTimes(walk.cursor, itemDuration(state, child, where));
  const at = placeChild(walk, where, end, kind);
  if (at !== null) {
    walk.lastGap = kind === 'Gap' && isBareGap(child) ? { gap: child, at } : null;
    if (kind === 'Gap') readGap(state, walk, child, at, false);
    else if (kind === 'Clip') readClip(state, walk, child, at);
    else if (isNestedSchema(kind)) readNested(state, walk, child, at, kind);
    else readOtherItem(state, walk, child, at);
  }
  walk.cursor = end;
}

/** Where a child plays and what of it the trim shows; null (counted) when it shows nothing. */
function placeChild(walk: TrackWalk, where: string, end: RationalTime, kind: string | null): Placed | null {
  const start = walk.cursor;
  const visible = walk.window === null ? { start, end } : walk.window.clip(start, end);
  if (visible === null) {
    // Wholly outside the track's trim: OTIO's track_trimmed_to_range removes it, markers and all.
    if (kind !== 'Gap') walk.dropped++;
    return null;
  }
  const placed = { where, start, end, visible };
  if (kind !== 'Gap' && !(visible.start.equals(start) && visible.end.equals(end))) walk.clipped++;
  return placed;
}

/**
 * A nested stack or track: an item annotation on this track (with an id its tiers name), and its
 * tracks as tiers of their own at their place in the timeline, showing what the item shows.
 */
function readNested(state: ReadState, walk: TrackWalk, item: OtioObject, at: Placed, kind: 'Stack' | 'Track' | 'Sequence'): void {
  const id = newAnnotationId();
  const own = kind === 'Stack' ? item : withoutAnnotKey(item);
  readItem(state, walk, own, at, ['children', ...ownMarkers(item)], id);
  // The item's own time zero on the timeline: its source_range starts there.
  const zero = subtractTimes(at.start, startOf(state, item.source_range, `${at.where}.source_range`));
  const link = { outerTier: walk.tier, itemId: id };
  if (kind === 'Stack') {
    readMarkers(state, item.markers, `${at.where}.markers`, { tier: walk.tier, asset: state.defaultAsset, origin: zero, owner: 'clip', ownerId: id });
    walkNestedStack(state, item, at, zero, link);
  } else {
    walkNestedTrack(state, item, at, zero, link);
  }
}

/** A nested stack's children are layers: tracks, or items standing alone; each a tier. */
function walkNestedStack(state: ReadState, stack: OtioObject, at: Placed, zero: RationalTime, link: NestedLink): void {
  const layers = Array.isArray(stack.children) ? stack.children : [];
  layers.forEach((layer, index) => {
    const path = `${at.where}.children[${index}]`;
    if (!isObject(layer)) return fail(state, path, 'a "Track.1" object, or an item, in the nested stack');
    const label = nestedTierLabel(link.outerTier, 'stack', nameOf(stack), nameOf(layer));
    const isTrack = schemaName(layer) === 'Track' || schemaName(layer) === 'Sequence';
    const tier = isTrack ? declareTrackTier(state, layer, label, path, link) : declareLoneItemTier(state, layer, label, path, link);
    const track = isTrack ? layer : syntheticTrack(nameOf(layer), layer);
    if (isTrack) readTrackMarkers(state, layer, path, tier, zero);
    walkTrack(state, track, path, { tier, origin: zero, bounds: at.visible });
  });
}

/** A nested track is one tier; its fields stay on the item, its markers are the tier's. */
function walkNestedTrack(state: ReadState, track: OtioObject, at: Placed, zero: RationalTime, link: NestedLink): void {
  const children = Array.isArray(track.children) ? track.children : [];
  const markers = Array.isArray(track.markers) ? track.markers : [];
  if (children.length === 0 && markers.length === 0) return;
  const tier = declareNestedTrackTier(state, track, nestedTierLabel(link.outerTier, 'track', '', nameOf(track)), at.where, link);
  readMarkers(state, track.markers, `${at.where}.markers`, { tier, asset: state.defaultAsset, origin: zero, owner: 'track' });
  walkTrack(state, track, at.where, { tier, origin: at.start, bounds: at.visible });
}

/** A track's markers, in its own time: zero at `origin` minus its source_range's start. */
export function readTrackMarkers(state: ReadState, track: OtioObject, path: string, tier: string, origin: RationalTime): void {
  const zero = subtractTimes(origin, startOf(state, track.source_range, `${path}.source_range`));
  readMarkers(state, track.markers, `${path}.markers`, { tier, asset: state.defaultAsset, origin: zero, owner: 'track' });
}
