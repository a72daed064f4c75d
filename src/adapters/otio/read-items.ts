import { newAnnotationId } from '../../model/ids.js';
import { isObject, type OtioObject } from './otio-json.js';
import { OTIO_CLIP_SCHEMA } from './otio-model.js';
import { addTimes, subtractTimes } from './otio-time.js';
import { keepAnnotation } from './read-annotation.js';
import { activeReference, clipBody, isBareGap, itemBody, nameOf, ownMarkers, transitionBody } from './read-bodies.js';
import { readMarkers } from './read-markers.js';
import { startOf, timeAt, type ReadState } from './read-state.js';
import { cutRange } from './read-trim.js';
import { isCut, type Placed, type TrackWalk } from './track-walk.js';

/**
 * The leaves of a track: a transition spans its cut from in_offset before to out_offset after (as
 * OTIO's range_of_child_at_index gives it) without moving its neighbours; a clip, a gap worth
 * keeping and an item of a schema annot does not know each become an annotation over what of them
 * the track shows, with their markers.
 */
export function readTransition(state: ReadState, walk: TrackWalk, transition: OtioObject, where: string): void {
  const before = timeAt(state, transition.in_offset, `${where}.in_offset`) ?? state.zero;
  const after = timeAt(state, transition.out_offset, `${where}.out_offset`) ?? state.zero;
  if (walk.window !== null && !walk.window.holds(walk.cursor)) {
    walk.dropped++;
    return;
  }
  const start = subtractTimes(walk.cursor, before);
  const end = addTimes(walk.cursor, after);
  keepAnnotation(state, { tier: walk.tier, asset: state.defaultAsset, start, end, body: transitionBody(transition), schema: OTIO_CLIP_SCHEMA, path: where });
}

export function readClip(state: ReadState, walk: TrackWalk, clip: OtioObject, at: Placed): void {
  const reference = activeReference(clip);
  const url = isObject(reference) && typeof reference.target_url === 'string' && reference.target_url !== '' ? reference.target_url : null;
  const asset = state.options.assetId ?? url ?? `otio:clip:${nameOf(clip)}`;
  const body = clipBody(clip);
  // Its id now only when its markers name it; otherwise when it is built (a UUID each is 50 MB a million).
  const id = hasMarkers(clip) ? newAnnotationId() : undefined;
  const mediaRange = isObject(clip.source_range) ? clip.source_range : isObject(reference) ? reference.available_range : undefined;
  const mediaStart = startOf(state, mediaRange, isObject(clip.source_range) ? `${at.where}.source_range` : `${at.where}.media_reference.available_range`);
  if (isCut(at)) body.source_range = cutRange(clip.source_range, mediaStart, at.start, at.visible);
  keepAnnotation(state, { tier: walk.tier, asset, start: at.visible.start, end: at.visible.end, body, schema: OTIO_CLIP_SCHEMA, path: at.where, id });
  readMarkers(state, clip.markers, `${at.where}.markers`, { tier: walk.tier, asset, origin: subtractTimes(at.start, mediaStart), owner: 'clip', ownerId: id });
}

/**
 * A gap is kept as an item annotation when it says something (a name, metadata, effects, markers)
 * or ends what its track shows (`last`: the track's length is the gap's to keep); a bare gap
 * between items is the space between annotations, which the writer makes again.
 */
export function readGap(state: ReadState, walk: TrackWalk, gap: OtioObject, at: Placed, last: boolean): void {
  if (!last && isBareGap(gap)) return;
  const id = hasMarkers(gap) ? newAnnotationId() : undefined;
  readItem(state, walk, gap, at, ownMarkers(gap), id);
  const origin = subtractTimes(at.start, startOf(state, gap.source_range, `${at.where}.source_range`));
  readMarkers(state, gap.markers, `${at.where}.markers`, { tier: walk.tier, asset: state.defaultAsset, origin, owner: 'clip', ownerId: id });
}

/** An item of a schema annot does not know: kept whole, its markers too (they may not be markers). */
export function readOtherItem(state: ReadState, walk: TrackWalk, item: OtioObject, at: Placed): void {
  readItem(state, walk, item, at, [], undefined);
}

/** An item annotation over what the track shows of it, its source_range cut with it. */
export function readItem(state: ReadState, walk: TrackWalk, item: OtioObject, at: Placed, own: readonly string[], id: string | undefined): Record<string, unknown> {
  const body = itemBody(item, own);
  if (isCut(at)) body.source_range = cutRange(item.source_range, startOf(state, item.source_range, `${at.where}.source_range`), at.start, at.visible);
  keepAnnotation(state, { tier: walk.tier, asset: state.defaultAsset, start: at.visible.start, end: at.visible.end, body, schema: OTIO_CLIP_SCHEMA, path: at.where, id });
  return body;
}

function hasMarkers(item: OtioObject): boolean {
  return Array.isArray(item.markers) && item.markers.length > 0;
}
