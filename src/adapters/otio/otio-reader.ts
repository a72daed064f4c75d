import { makeAnnotation, mediaRef, type Annotation, type AnnotationInit } from '../../model/annotation.js';
import { newAnnotationId } from '../../model/ids.js';
import { makeTier, type Tier } from '../../model/tier.js';
import { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import type { LoadOptions } from '../adapter.js';
import { FormatParseError } from '../errors.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { isObject, schemaName, type OtioObject, type OtioValue } from './otio-json.js';
import {
  DEFAULT_ASSET_ID,
  ANNOT_TRACK_KEY,
  type AnnotTrackInfo,
  OTIO_CLIP_SCHEMA,
  OTIO_MARKER_SCHEMA,
  OTIO_TIMELINE_META,
  TIMELINE_MARKERS_ROLE,
  type TimelineParts,
} from './otio-model.js';
import { addTimes, rateOf, readOtioTime, subtractTimes, writeOtioRange } from './otio-time.js';

export interface ReadOtio {
  tiers: Tier[];
  meta: Record<string, string>;
  /** Built as they are consumed (once). */
  annotations: Iterable<Annotation>;
  clock: ImportClock;
}

const CLIP_FIELDS = new Set(['OTIO_SCHEMA', 'name', 'metadata', 'source_range', 'media_reference', 'media_references', 'active_media_reference_key', 'markers']);
const MARKER_FIELDS = new Set(['OTIO_SCHEMA', 'name', 'metadata', 'color', 'comment', 'marked_range']);

/**
 * Walks an OTIO timeline: each track becomes a tier, its children are laid out from the track's
 * start (gaps advance the position), clips become intervals at their exact rational times, a
 * transition becomes an interval over the cut it sits on (from in_offset before it to out_offset
 * after it), and markers on the timeline, tracks, gaps and clips become annotations at their time
 * on the track. Nested stacks and tracks are flattened: their tracks become tiers named
 * `outer / nested / inner` at their place in the timeline, and the nested item itself an `item`.
 */
export function readOtio(root: OtioValue, options: LoadOptions): ReadOtio {
  const file = options.sourceName;
  const forced = options.rate !== undefined;
  const clock = new ImportClock(options.rate ?? 1_000_000, options.strictTime);
  // Time zero at the forced rate, so that with --rate every time is at that rate.
  const zero = new RationalTime(0, options.rate ?? 1);
  const fail = (path: string, expected: string): never => {
    throw new FormatParseError(file, { path }, expected);
  };
  const rootSchema = schemaName(root);
  if (!isObject(root) || rootSchema === null) return fail('$', 'an OTIO document: an object with "OTIO_SCHEMA": "Timeline.1"');
  if (rootSchema === 'SerializableObject' || rootSchema === 'SerializableObjectWithMetadata' || rootSchema === 'SerializableCollection') {
    return fail('$.OTIO_SCHEMA', `an OTIO timeline ("Timeline.1"), a stack, a track or an item; this file holds a bare ${String(root.OTIO_SCHEMA)}, which has no time to read annotations from`);
  }
  let stack: OtioObject;
  const parts: TimelineParts = { timeline: {}, stack: {} };
  let stackPath = '$';
  if (rootSchema === 'Timeline') {
    const { tracks, ...timeline } = root;
    parts.timeline = timeline;
    if (!isObject(tracks) || schemaName(tracks) !== 'Stack') return fail('$.tracks', 'the timeline\'s tracks: a "Stack.1" object');
    stack = tracks;
    stackPath = '$.tracks';
  } else if (rootSchema === 'Stack') {
    stack = root;
  } else if (rootSchema === 'Track' || rootSchema === 'Sequence') {
    stack = { OTIO_SCHEMA: 'Stack.1', name: '', children: [root] };
  } else {
    // A lone item (a clip, a Subtitles.1, a schema annot does not know): one track holding it.
    stack = { OTIO_SCHEMA: 'Stack.1', name: '', children: [syntheticTrack('', root)] };
  }
  const { children: stackChildren, markers: stackMarkers, ...stackFields } = stack;
  parts.stack = stackFields;

  const tiers: Tier[] = [];
  const tierNames = new Set<string>();
  // What each annotation is made of, not the annotation: a million annotations with their bodies
  // copied would sit beside the parsed file until the walk ends (see built).
  const annotations: PendingAnnotation[] = [];
  const provenance = importProvenance('otio', options);
  // A time that is there but unreadable (no rate, a rate of 0, a value that is not a number) is
  // refused: read as zero it would move items, and what we wrote back would not say the same.
  const time = (value: OtioValue | undefined, path: string): RationalTime | null => {
    const read = readOtioTime(value, clock, forced, path);
    if (read === null && value !== undefined && value !== null) return fail(path, 'an OTIO RationalTime: {"OTIO_SCHEMA": "RationalTime.1", "value": <number>, "rate": <number above 0>}');
    return read;
  };
  const startOf = (range: OtioValue | undefined, path: string): RationalTime => (isObject(range) ? (time(range.start_time, `${path}.start_time`) ?? zero) : zero);
  const durationOf = (range: OtioValue | undefined, path: string): RationalTime | null => (isObject(range) ? time(range.duration, `${path}.duration`) : null);

  const uniqueTier = (base: string): string => {
    let name = base === '' ? 'untitled' : base;
    for (let n = 2; tierNames.has(name); n++) name = `${base === '' ? 'untitled' : base} ${n}`;
    tierNames.add(name);
    return name;
  };
  const add = (tier: string, asset: string, start: RationalTime, end: RationalTime, body: Record<string, unknown>, schema: string, id?: string): void => {
    const interval = end.lt(start) ? TimeInterval.point(start) : new TimeInterval(start, end);
    // Checked now, so that a file is refused before any of it is consumed; built again then.
    makeAnnotation({ id, tier, reference: mediaRef(asset, interval), body, body_schema_uri: schema, provenance });
    annotations.push({ id, tier, asset, interval, body, schema });
  };
  const defaultAsset = options.assetId ?? DEFAULT_ASSET_ID;

  const markers = (list: OtioValue | undefined, path: string, tier: string, asset: string, origin: RationalTime, owner: 'timeline' | 'track' | 'clip', ownerId?: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((marker, index) => {
      const where = `${path}[${index}]`;
      if (!isObject(marker) || schemaName(marker) !== 'Marker') return fail(where, 'a "Marker.2" object');
      const range = marker.marked_range;
      const start = addTimes(origin, startOf(range, `${where}.marked_range`));
      const duration = durationOf(range, `${where}.marked_range`) ?? zero;
      const body: Record<string, unknown> = { kind: 'marker', name: typeof marker.name === 'string' ? marker.name : '', owner };
      if (marker.color !== undefined) body.color = marker.color;
      if (typeof marker.comment === 'string') body.comment = marker.comment;
      if (typeof marker.OTIO_SCHEMA === 'string') body.otio_schema = marker.OTIO_SCHEMA;
      if (isObject(marker.metadata)) body.metadata = marker.metadata;
      if (range !== undefined) body.marked_range = range;
      if (ownerId !== undefined) body.owner_annotation_id = ownerId;
      const extra = rest(marker, MARKER_FIELDS);
      if (extra) body.extra = extra;
      add(tier, asset, start, addTimes(start, duration), body, OTIO_MARKER_SCHEMA);
    });
  };

  /** Duration of an item that has no source_range: its children's, laid out. */
  const naturalDuration = (item: OtioObject, path: string): RationalTime => {
    const own = durationOf(item.source_range, `${path}.source_range`);
    if (own) return own;
    const kind = schemaName(item);
    if (kind === 'Clip') {
      const reference = activeReference(item);
      const available = isObject(reference) ? durationOf(reference.available_range, `${path}.media_reference.available_range`) : null;
      if (available) return available;
      return fail(path, 'a clip with a source_range, or a media reference with an available_range (its duration)');
    }
    const children = Array.isArray(item.children) ? item.children : [];
    if (kind === 'Stack') {
      let longest = zero;
      children.forEach((child, index) => {
        if (isObject(child)) {
          const length = naturalDuration(child, `${path}.children[${index}]`);
          if (length.gt(longest)) longest = length;
        }
      });
      return longest;
    }
    if (kind === 'Track' || kind === 'Sequence') {
      let total = zero;
      children.forEach((child, index) => {
        if (isObject(child) && schemaName(child) !== 'Transition') total = addTimes(total, naturalDuration(child, `${path}.children[${index}]`));
      });
      return total;
    }
    return zero;
  };

  /**
   * Lays out a track's children. `origin` is where the track starts in the parent's time; a
   * track's own source_range trims it, so its child at local time t plays at origin + t - start
   * (OTIO's multiple_track.otio trims its third track by -7 frames: Clip-005 plays at 7-16).
   */
  const walkTrack = (track: OtioObject, path: string, tier: string, origin: RationalTime, bounds?: Span): void => {
    let cursor = subtractTimes(origin, startOf(track.source_range, `${path}.source_range`));
    // A nested track our dump wrote at the top (see ANNOT_TRACK_KEY) keeps its trim for the way
    // back, but its items are laid out at their times on the timeline, not in that trim.
    const window = annotInfo(track)?.nested_in === undefined ? trimWindow(track, path, origin, bounds) : null;
    if (window === 'offset only') {
      options.report({
        code: 'otio_track_offset',
        severity: 'warning',
        file,
        location: { path: `${path}.source_range` },
        message: `track "${typeof track.name === 'string' ? track.name : ''}" has a source_range that shows none of its items (older cmx_3600 output writes the record start this way): read as an offset of its items only, none left out`,
      });
    }
    let dropped = 0;
    let clipped = 0;
    const children = Array.isArray(track.children) ? track.children : [];
    children.forEach((child, index) => {
      const where = `${path}.children[${index}]`;
      if (!isObject(child)) return fail(where, 'an OTIO item object (Clip, Gap, Transition, Stack, Track)');
      const kind = schemaName(child);
      const name = typeof child.name === 'string' ? child.name : '';
      if (kind === 'Transition') {
        const before = time(child.in_offset, `${where}.in_offset`) ?? zero;
        const after = time(child.out_offset, `${where}.out_offset`) ?? zero;
        if (typeof window === 'object' && window !== null && !window.holds(cursor)) {
          dropped++;
          return;
        }
        const body: Record<string, unknown> = { kind: 'transition', name, otio_schema: String(child.OTIO_SCHEMA) };
        if (isObject(child.metadata)) body.metadata = child.metadata;
        const extra = rest(child, new Set(['OTIO_SCHEMA', 'name', 'metadata']));
        if (extra) body.extra = extra;
        add(tier, defaultAsset, subtractTimes(cursor, before), addTimes(cursor, after), body, OTIO_CLIP_SCHEMA);
        return;
      }
      const duration = naturalDuration(child, where);
      const end = addTimes(cursor, duration);
      const sourceStart = startOf(child.source_range, `${where}.source_range`);
      const visible = typeof window === 'object' && window !== null ? window.clip(cursor, end) : { start: cursor, end };
      if (visible === null) {
        // Wholly outside the track's trim: OTIO's track_trimmed_to_range removes it, markers and all.
        if (kind !== 'Gap') dropped++;
        cursor = end;
        return;
      }
      if (kind !== 'Gap' && !(visible.start.equals(cursor) && visible.end.equals(end))) clipped++;
      if (kind === 'Gap') {
        markers(child.markers, `${where}.markers`, tier, defaultAsset, subtractTimes(cursor, sourceStart), 'track');
      } else if (kind === 'Clip') {
        const reference = activeReference(child);
        const url = isObject(reference) && typeof reference.target_url === 'string' && reference.target_url !== '' ? reference.target_url : null;
        const asset = options.assetId ?? url ?? `otio:clip:${name}`;
        const body: Record<string, unknown> = { kind: 'clip', name, otio_schema: String(child.OTIO_SCHEMA) };
        for (const key of ['metadata', 'source_range', 'media_reference', 'media_references', 'active_media_reference_key']) if (child[key] !== undefined) body[key] = child[key];
        const extra = rest(child, CLIP_FIELDS);
        if (extra) body.extra = extra;
        // Its id now only when its markers name it; otherwise when it is built (a UUID each is 50 MB a million).
        const id = Array.isArray(child.markers) && child.markers.length > 0 ? newAnnotationId() : undefined;
        const mediaStart = isObject(child.source_range) ? sourceStart : startOf(isObject(reference) ? reference.available_range : undefined, `${where}.media_reference.available_range`);
        if (visible.start !== cursor || visible.end !== end) body.source_range = trimmedRange(child.source_range, mediaStart, cursor, visible);
        add(tier, asset, visible.start, visible.end, body, OTIO_CLIP_SCHEMA, id);
        markers(child.markers, `${where}.markers`, tier, asset, subtractTimes(cursor, mediaStart), 'clip', id);
      } else {
        // A nested stack or track, or an item of a schema annot does not interpret: kept whole
        // (nested children aside, which become tiers of their own).
        const body: Record<string, unknown> = { kind: 'item', name, otio_schema: String(child.OTIO_SCHEMA) };
        if (isObject(child.metadata)) body.metadata = child.metadata;
        if (child.source_range !== undefined) body.source_range = child.source_range;
        if (visible.start !== cursor || visible.end !== end) body.source_range = trimmedRange(child.source_range, sourceStart, cursor, visible);
        const nested = kind === 'Stack' || kind === 'Track' || kind === 'Sequence';
        const extra = rest(child, new Set(['OTIO_SCHEMA', 'name', 'metadata', 'source_range', ...(nested ? ['children'] : [])]));
        if (extra) body.extra = extra;
        // What a partly trimmed nested item holds is laid out whole on its own tiers.
        add(tier, defaultAsset, visible.start, visible.end, body, OTIO_CLIP_SCHEMA);
        if (nested) {
          // A nested track trims itself (walkTrack subtracts its start); a stack's trim shifts its layers.
          const innerOrigin = kind === 'Stack' ? subtractTimes(cursor, sourceStart) : cursor;
          const layers = Array.isArray(child.children) ? child.children : [];
          // Our dump writes nested items back empty (their tracks are tiers of their own): no tier then.
          const inner = kind === 'Stack' ? layers : layers.length > 0 ? [child] : [];
          inner.forEach((layer, innerIndex) => {
            if (!isObject(layer)) return;
            // A stack's children are layers: tracks, or single items standing on their own.
            const innerTrack = schemaName(layer) === 'Track' || schemaName(layer) === 'Sequence' ? layer : syntheticTrack(typeof layer.name === 'string' ? layer.name : '', layer);
            const innerPath = kind === 'Stack' ? `${where}.children[${innerIndex}]` : where;
            const innerName = typeof innerTrack.name === 'string' ? innerTrack.name : '';
            const label = kind === 'Stack' ? `${tier} / ${name || 'stack'} / ${innerName || 'track'}` : `${tier} / ${innerName || 'track'}`;
            const innerTier = declareTrack(innerTrack, label, { nested_in: tier });
            // What the nested item shows of its layers is what it shows in this track.
            walkTrack(innerTrack, innerPath, innerTier, innerOrigin, visible);
          });
        }
      }
      cursor = end;
    });
    if (dropped > 0 || clipped > 0) {
      options.report({
        code: 'otio_track_trimmed',
        severity: 'warning',
        file,
        location: { path: `${path}.source_range` },
        message: `track "${typeof track.name === 'string' ? track.name : ''}" is trimmed by ${bounds === undefined ? 'its source_range' : 'the nested item holding it'}: ${dropped} item(s) wholly outside it left out, ${clipped} cut to it, as OTIO's track_trimmed_to_range does`,
      });
    }
  };

  /**
   * The part of the parent's time a track shows: with a source_range, from `origin` (its
   * start_time) for its duration; inside a nested item, no more than the item shows (`bounds`).
   * Null when nothing trims it. A zero-length item on an edge is inside; a longer one must
   * overlap the window by more than a point.
   */
  const trimWindow = (track: OtioObject, path: string, origin: RationalTime, bounds?: Span): { holds(at: RationalTime): boolean; clip(start: RationalTime, end: RationalTime): Span | null } | 'offset only' | null => {
    if (!isObject(track.source_range) && bounds === undefined) return null;
    const length = isObject(track.source_range) ? durationOf(track.source_range, `${path}.source_range`) : null;
    if (bounds === undefined && length !== null && length.gt(zero)) {
      // A trim that misses every item is no trim: read as an offset, or the whole track would vanish.
      const trimStart = startOf(track.source_range, `${path}.source_range`);
      const extent = naturalDuration({ ...track, source_range: null }, path);
      if (extent.gt(zero) && (!addTimes(trimStart, length).gt(zero) || !trimStart.lt(extent))) return 'offset only';
    }
    let first = isObject(track.source_range) ? origin : (bounds as Span).start;
    let last = length === null ? null : addTimes(origin, length);
    if (bounds !== undefined) {
      if (bounds.start.gt(first)) first = bounds.start;
      if (last === null || bounds.end.lt(last)) last = bounds.end;
    }
    const holds = (at: RationalTime): boolean => !at.lt(first) && (last === null || !at.gt(last));
    return {
      holds,
      clip(start, end) {
        if (start.equals(end)) return holds(start) ? { start, end } : null;
        if (!end.gt(first) || (last !== null && !start.lt(last))) return null;
        return { start: start.lt(first) ? first : start, end: last !== null && end.gt(last) ? last : end };
      },
    };
  };

  /** An item's source_range cut as the track's trim cuts the item: later start, shorter duration. */
  const trimmedRange = (range: OtioValue | undefined, mediaStart: RationalTime, placedAt: RationalTime, visible: { start: RationalTime; end: RationalTime }): OtioObject => {
    const start = addTimes(mediaStart, subtractTimes(visible.start, placedAt));
    return writeOtioRange(start, subtractTimes(visible.end, visible.start), rateOf(range));
  };

  const declareTrack = (track: OtioObject, base: string, extraMetadata: Record<string, unknown> = {}): string => {
    const { children: _children, markers: _markers, name: trackName, OTIO_SCHEMA, ...fields } = track;
    void _children;
    void _markers;
    const info = annotInfo(track);
    if (info) {
      const { [ANNOT_TRACK_KEY]: _info, ...ownMetadata } = track.metadata as OtioObject;
      void _info;
      fields.metadata = ownMetadata;
      if (info.nested_in !== undefined) extraMetadata = { ...extraMetadata, nested_in: info.nested_in };
    }
    const name = uniqueTier(info?.tier ?? base);
    const metadata: Record<string, unknown> = { track_name: typeof trackName === 'string' ? trackName : '', otio_schema: typeof OTIO_SCHEMA === 'string' ? OTIO_SCHEMA : 'Track.1', track: fields, ...extraMetadata };
    tiers.push(makeTier({ name, metadata }));
    markers(track.markers, 'markers', name, defaultAsset, subtractTimes(zero, startOf(track.source_range, 'source_range')), 'track');
    return name;
  };

  const children = Array.isArray(stackChildren) ? stackChildren : [];
  const tierOfTrack = new Map<number, string>();
  children.forEach((layer, index) => {
    const path = `${stackPath}.children[${index}]`;
    if (!isObject(layer)) return fail(path, 'a "Track.1" object in the stack');
    const track = schemaName(layer) === 'Track' || schemaName(layer) === 'Sequence' ? layer : syntheticTrack(typeof layer.name === 'string' ? layer.name : '', layer);
    const laneOf = annotInfo(track)?.lane_of;
    if (laneOf !== undefined && tierOfTrack.has(laneOf)) {
      walkTrack(track, path, tierOfTrack.get(laneOf) as string, zero);
      return;
    }
    const tier = declareTrack(track, typeof track.name === 'string' ? track.name : '');
    tierOfTrack.set(index, tier);
    walkTrack(track, path, tier, zero);
  });
  if (Array.isArray(stackMarkers) && stackMarkers.length > 0) {
    const tier = uniqueTier('markers');
    tiers.push(makeTier({ name: tier, metadata: { otio_role: TIMELINE_MARKERS_ROLE } }));
    markers(stackMarkers, `${stackPath}.markers`, tier, defaultAsset, zero, 'timeline');
  }
  return { tiers, meta: { [OTIO_TIMELINE_META]: JSON.stringify(parts) }, annotations: built(annotations, provenance), clock };
}

/** An annotation of the walk, as little as builds it. */
interface PendingAnnotation {
  /** Undefined for one nothing refers to: makeAnnotation gives it an id when it is built. */
  readonly id: string | undefined;
  readonly tier: string;
  readonly asset: string;
  readonly interval: TimeInterval;
  readonly body: Record<string, unknown>;
  readonly schema: string;
}

/** The annotations, each built when asked for and its parts let go of once it is. */
function* built(pending: Array<PendingAnnotation | undefined>, provenance: AnnotationInit['provenance']): Generator<Annotation> {
  for (let index = 0; index < pending.length; index++) {
    const { id, tier, asset, interval, body, schema } = pending[index] as PendingAnnotation;
    pending[index] = undefined;
    yield makeAnnotation({ id, tier, reference: mediaRef(asset, interval), body, body_schema_uri: schema, provenance });
  }
}

interface Span {
  start: RationalTime;
  end: RationalTime;
}

/** A track holding one item that stands alone in a stack (or at the top of the file). */
function syntheticTrack(name: string, item: OtioObject): OtioObject {
  return { OTIO_SCHEMA: 'Track.1', name, kind: 'Video', metadata: {}, source_range: null, effects: [], enabled: true, children: [item] };
}

/** What our own dump said about a track (see ANNOT_TRACK_KEY), if anything. */
function annotInfo(track: OtioObject): AnnotTrackInfo | null {
  const info = isObject(track.metadata) ? track.metadata[ANNOT_TRACK_KEY] : undefined;
  if (!isObject(info)) return null;
  const out: AnnotTrackInfo = {};
  if (typeof info.tier === 'string' && info.tier !== '') out.tier = info.tier;
  if (typeof info.nested_in === 'string') out.nested_in = info.nested_in;
  if (typeof info.lane_of === 'number') out.lane_of = info.lane_of;
  return out;
}

function activeReference(clip: OtioObject): OtioValue | undefined {
  if (isObject(clip.media_references)) {
    const key = typeof clip.active_media_reference_key === 'string' ? clip.active_media_reference_key : 'DEFAULT_MEDIA';
    return clip.media_references[key];
  }
  return clip.media_reference;
}

function rest(object: OtioObject, known: Set<string>): OtioObject | null {
  const out: OtioObject = {};
  let any = false;
  for (const [key, value] of Object.entries(object)) {
    if (known.has(key)) continue;
    out[key] = value;
    any = true;
  }
  return any ? out : null;
}
