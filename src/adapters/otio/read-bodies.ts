import { isObject, type OtioObject, type OtioValue } from './otio-json.js';
import { ANNOT_TRACK_KEY, type AnnotTrackInfo } from './otio-model.js';

/**
 * The bodies of the annotations an OTIO item becomes, built from the item alone: the fields the
 * body schema names are copied as written (body-check.ts moves one the schema refuses to `extra`),
 * every other field goes to `extra`, verbatim, so the writer puts it back where it was.
 */
export type Body = Record<string, unknown>;

const CLIP_FIELDS = ['metadata', 'source_range', 'media_reference', 'media_references', 'active_media_reference_key'];

/** A Clip.*: its media references and source range as written; its markers are annotations of their own. */
export function clipBody(clip: OtioObject): Body {
  const body: Body = { kind: 'clip', name: clip.name === undefined ? '' : clip.name, otio_schema: String(clip.OTIO_SCHEMA) };
  for (const key of CLIP_FIELDS) if (clip[key] !== undefined) body[key] = clip[key];
  return withExtra(body, clip, ['OTIO_SCHEMA', 'name', ...ownMarkers(clip), ...CLIP_FIELDS]);
}

/** `markers` when they are a list (annotations of their own); anything else there is kept as written. */
export function ownMarkers(item: OtioObject): string[] {
  return Array.isArray(item.markers) ? ['markers'] : [];
}

/** A Transition.*: its offsets stay in `extra` (the writer re-derives them from the interval). */
export function transitionBody(transition: OtioObject): Body {
  const body: Body = { kind: 'transition', name: transition.name === undefined ? '' : transition.name, otio_schema: String(transition.OTIO_SCHEMA) };
  if (transition.metadata !== undefined) body.metadata = transition.metadata;
  return withExtra(body, transition, ['OTIO_SCHEMA', 'name', 'metadata']);
}

/**
 * Any other item kept as an annotation: a gap, a nested stack or track (its children are tiers of
 * their own, its markers annotations), or a schema annot does not know (kept whole, markers too).
 */
export function itemBody(item: OtioObject, own: readonly string[]): Body {
  const body: Body = { kind: 'item', name: item.name === undefined ? '' : item.name, otio_schema: String(item.OTIO_SCHEMA) };
  if (item.metadata !== undefined) body.metadata = item.metadata;
  if (item.source_range !== undefined) body.source_range = item.source_range;
  return withExtra(body, item, ['OTIO_SCHEMA', 'name', 'metadata', 'source_range', ...own]);
}

export type MarkerOwnerKind = 'timeline' | 'track' | 'clip';

export function markerBody(marker: OtioObject, owner: MarkerOwnerKind, ownerId: string | undefined): Body {
  const body: Body = { kind: 'marker', name: marker.name === undefined ? '' : marker.name, owner };
  for (const key of ['color', 'comment', 'metadata', 'marked_range']) if (marker[key] !== undefined) body[key] = marker[key];
  if (typeof marker.OTIO_SCHEMA === 'string') body.otio_schema = marker.OTIO_SCHEMA;
  if (ownerId !== undefined) body.owner_annotation_id = ownerId;
  return withExtra(body, marker, ['OTIO_SCHEMA', 'name', 'color', 'comment', 'metadata', 'marked_range']);
}

function withExtra(body: Body, object: OtioObject, known: readonly string[]): Body {
  let extra: OtioObject | null = null;
  for (const [key, value] of Object.entries(object)) {
    if (known.includes(key)) continue;
    (extra ??= {})[key] = value;
  }
  if (extra !== null) body.extra = extra;
  return body;
}

/** An OTIO name for labels and tier names: the string, else empty (the body keeps what was written). */
export function nameOf(node: OtioObject): string {
  return typeof node.name === 'string' ? node.name : '';
}

/**
 * A gap that says nothing but its length: no name, metadata, effects or markers, enabled (its
 * source_range says only that length: a gap has no media). The space between annotations says as
 * much, and the writer makes such a gap again; a gap that says more is kept as an item annotation.
 */
export function isBareGap(gap: OtioObject): boolean {
  for (const [key, value] of Object.entries(gap)) {
    if (key === 'OTIO_SCHEMA' ? value === 'Gap.1' : key === 'source_range' || isDefault(key, value)) continue;
    return false;
  }
  return true;
}

function isDefault(key: string, value: OtioValue): boolean {
  if (key === 'name') return value === '';
  if (key === 'metadata') return isObject(value) && Object.keys(value).length === 0;
  if (key === 'effects' || key === 'markers') return Array.isArray(value) && value.length === 0;
  return key === 'enabled' && value === true;
}

/** A track holding one item that stands alone in a stack (or at the top of the file). */
export function syntheticTrack(name: string, item: OtioObject): OtioObject {
  return { OTIO_SCHEMA: 'Track.1', name, kind: 'Video', metadata: {}, source_range: null, effects: [], enabled: true, children: [item] };
}

/** What our own dump said about a track (see ANNOT_TRACK_KEY), if anything. */
export function annotInfo(track: OtioObject): AnnotTrackInfo | null {
  const info = isObject(track.metadata) ? track.metadata[ANNOT_TRACK_KEY] : undefined;
  if (!isObject(info)) return null;
  const out: AnnotTrackInfo = {};
  if (typeof info.tier === 'string' && info.tier !== '') out.tier = info.tier;
  if (typeof info.nested_in === 'string') out.nested_in = info.nested_in;
  if (typeof info.lane_of === 'number') out.lane_of = info.lane_of;
  if (typeof info.lane_of_tier === 'string') out.lane_of_tier = info.lane_of_tier;
  return out;
}

/** The media reference a clip plays: Clip.2's active one, or Clip.1's only one. */
export function activeReference(clip: OtioObject): OtioValue | undefined {
  if (isObject(clip.media_references)) {
    const key = typeof clip.active_media_reference_key === 'string' ? clip.active_media_reference_key : 'DEFAULT_MEDIA';
    return clip.media_references[key];
  }
  return clip.media_reference;
}
