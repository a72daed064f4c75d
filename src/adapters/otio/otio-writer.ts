import { writeFile } from 'node:fs/promises';
import type { Annotation, MediaRef } from '../../model/annotation.js';
import type { JsonValue } from '../../json/json-body.js';
import type { Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { RationalTime } from '../../time/rational-time.js';
import type { DumpReport } from '../adapter.js';
import { isObject, stringifyOtio, type OtioObject, type OtioValue } from './otio-json.js';
import { ANNOT_TRACK_KEY, OTIO_TIMELINE_META, TIMELINE_MARKERS_ROLE, type TimelineParts } from './otio-model.js';
import { addTimes, rateOf, readOtioTime, subtractTimes, writeOtioRange, writeOtioTime } from './otio-time.js';
import { ImportClock } from '../import-clock.js';

type Timed = Annotation & { readonly reference: MediaRef };

const ZERO = new RationalTime(0, 1);

/**
 * Writes a store as an OTIO Timeline (Timeline.1 › Stack.1 › Track.1 › Clip.2/Gap.1/Transition.1,
 * Marker.2). One track per tier; annotations that overlap on a tier go to extra tracks marked as
 * lanes of that tier, so the load merges them back. Items are laid out in time order with gaps
 * between them; what the import kept in bodies (schema, names, metadata, media references,
 * source ranges, effects, marker colours) is written back as it was, times re-derived from the
 * annotation's interval (verbatim when it still matches).
 */
export async function writeOtio(store: AnnotationStore, path: string): Promise<DumpReport> {
  const dropped: Record<string, number> = {};
  const drop = (what: string, count = 1): void => {
    dropped[what] = (dropped[what] ?? 0) + count;
  };
  const tiers = await store.listTiers();
  const parts = readParts(await store.getMeta(OTIO_TIMELINE_META));
  const byTier = new Map<string, Timed[]>(tiers.map((tier) => [tier.name, []]));
  let total = 0;
  for await (const annotation of store.all()) {
    total++;
    if (annotation.confidence !== null) drop('confidence');
    if (annotation.reference.kind !== 'media') {
      drop('annotations without an interval (references to other annotations)');
      continue;
    }
    let list = byTier.get(annotation.tier);
    if (!list) byTier.set(annotation.tier, (list = []));
    list.push(annotation as Timed);
  }
  if (total > 0) drop('provenance', total);
  const tierOf = new Map(tiers.map((tier) => [tier.name, tier]));

  const timelineMarkers: OtioObject[] = [];
  const clipMarkers = new Map<string, Timed[]>();
  const tracks: OtioObject[] = [];
  for (const [name, list] of byTier) {
    const tier = tierOf.get(name);
    const isMarkerTier = tier?.metadata.otio_role === TIMELINE_MARKERS_ROLE;
    const items: Timed[] = [];
    const transitions: Timed[] = [];
    const trackMarkers: Timed[] = [];
    for (const annotation of list) {
      const kind = annotation.body.kind;
      const isMarker = kind === 'marker' || (kind === undefined && annotation.reference.interval.isPoint);
      if (isMarker) {
        const owner = annotation.body.owner_annotation_id;
        if (annotation.body.owner === 'clip' && typeof owner === 'string') {
          const attached = clipMarkers.get(owner) ?? [];
          attached.push(annotation);
          clipMarkers.set(owner, attached);
        } else if (isMarkerTier || annotation.body.owner === 'timeline') timelineMarkers.push(writeMarker(annotation, ZERO));
        else trackMarkers.push(annotation);
      } else if (kind === 'transition') transitions.push(annotation);
      else items.push(annotation);
    }
    if (isMarkerTier && items.length === 0 && transitions.length === 0 && trackMarkers.length === 0) continue;
    const lanes = intoLanes(items);
    const mainTrack = tracks.length;
    const placedClips = new Map<string, { start: RationalTime; sourceStart: RationalTime; clip: OtioObject }>();
    // A kept track trimmed by its own source_range: local time 0 plays at -start (see walkTrack),
    // so lay its children out from there, unless an edit moved something before that point.
    const trim = trackTrim(tier, lanes[0], transitions);
    lanes.forEach((lane, laneIndex) => {
      const children: OtioValue[] = [];
      let cursor = laneIndex === 0 ? trim.origin : ZERO;
      const pendingTransitions = laneIndex === 0 ? [...transitions].sort((a, b) => cutOf(a).compare(cutOf(b))) : [];
      const flushTransitions = (until: RationalTime | null): void => {
        while (pendingTransitions.length > 0 && (until === null || cutOf(pendingTransitions[0]).le(until))) {
          const transition = pendingTransitions.shift() as Timed;
          const cut = cutOf(transition);
          if (cut.gt(cursor)) {
            children.push(gap(subtractTimes(cut, cursor)));
            cursor = cut;
          }
          children.push(writeTransition(transition, cut));
        }
      };
      for (const item of lane) {
        const start = item.reference.interval.start;
        flushTransitions(start);
        if (start.lt(cursor)) {
          drop('items starting before the timeline start (OTIO tracks start at 0)');
          continue;
        }
        if (start.gt(cursor)) children.push(gap(subtractTimes(start, cursor)));
        const written = writeItem(item);
        children.push(written.object);
        placedClips.set(item.id, { start, sourceStart: written.sourceStart, clip: written.object });
        cursor = item.reference.interval.end;
      }
      flushTransitions(null);
      const laneMarkers = laneIndex === 0 ? trackMarkers.map((marker) => writeMarker(marker, trim.origin)) : [];
      const track = writeTrack(tier, name, children, laneMarkers, laneIndex, mainTrack);
      if (laneIndex === 0 && trim.dropRange) track.source_range = null;
      tracks.push(track);
    });
    for (const [id, placed] of placedClips) {
      const attached = clipMarkers.get(id);
      if (!attached) continue;
      placed.clip.markers = attached.map((marker) => writeMarker(marker, subtractTimes(placed.start, placed.sourceStart)));
      clipMarkers.delete(id);
    }
  }
  // Markers whose clip is gone become track markers of... the timeline.
  for (const orphans of clipMarkers.values()) for (const marker of orphans) timelineMarkers.push(writeMarker(marker, ZERO));

  const timeline: OtioObject = {
    OTIO_SCHEMA: 'Timeline.1',
    metadata: {},
    name: '',
    global_start_time: null,
    ...(parts?.timeline as OtioObject | undefined),
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      metadata: {},
      name: 'tracks',
      source_range: null,
      effects: [],
      enabled: true,
      ...(parts?.stack as OtioObject | undefined),
      children: tracks,
      markers: timelineMarkers,
    },
  };
  await writeFile(path, `${stringifyOtio(timeline)}\n`, 'utf8');
  return { dropped: Object.entries(dropped).map(([what, count]) => ({ what, count })) };
}

/**
 * Where a kept track's local time 0 lies on the timeline: minus its source_range start. When an
 * item or transition now starts before that point, or ends after the trim's end, the trim cannot
 * be kept: the track is written untrimmed (source_range null) from 0.
 */
function trackTrim(tier: Tier | undefined, items: readonly Timed[], transitions: readonly Timed[]): { origin: RationalTime; dropRange: boolean } {
  const fields = tier && isObject(tier.metadata.track as OtioValue) ? (tier.metadata.track as OtioObject) : null;
  const range = fields?.source_range;
  if (!isObject(range)) return { origin: ZERO, dropRange: false };
  const start = otioTime(range.start_time as JsonValue) ?? ZERO;
  const origin = subtractTimes(ZERO, start);
  const earliest = [...items.map((item) => item.reference.interval.start), ...transitions.map(cutOf)];
  if (origin.lt(ZERO) || earliest.some((time) => time.lt(origin))) return { origin: ZERO, dropRange: true };
  // The trim also ends the track: it shows local start_time to start_time + duration, which is 0
  // to duration on the timeline, and the load leaves out or cuts what lies past that.
  // (A nested tier's track is written at the top, its items at their times: the load ignores its end.)
  const duration = typeof tier?.metadata.nested_in === 'string' ? null : otioTime(range.duration as JsonValue);
  if (duration !== null) {
    const last = duration;
    const latest = [...items.map((item) => item.reference.interval.end), ...transitions.map(cutOf)];
    // A trim that misses every item is read as an offset only (see walkTrack): kept as it is.
    const extent = latest.reduce((max, time) => (time.gt(max) ? time : max), origin);
    const offsetOnly = latest.length > 0 && (!addTimes(start, duration).gt(ZERO) || !start.lt(subtractTimes(extent, origin)));
    if (!offsetOnly && latest.some((time) => time.gt(last))) return { origin: ZERO, dropRange: true };
  }
  return { origin, dropRange: false };
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

/** Greedy lanes: each item goes to the first lane whose last item ends by its start. */
function intoLanes(items: readonly Timed[]): Timed[][] {
  const sorted = [...items].sort((a, b) => a.reference.interval.start.compare(b.reference.interval.start) || a.reference.interval.end.compare(b.reference.interval.end));
  const lanes: Timed[][] = [];
  const ends: RationalTime[] = [];
  for (const item of sorted) {
    const index = ends.findIndex((end) => end.le(item.reference.interval.start));
    if (index === -1) {
      lanes.push([item]);
      ends.push(item.reference.interval.end);
    } else {
      lanes[index].push(item);
      ends[index] = item.reference.interval.end;
    }
  }
  if (lanes.length === 0) lanes.push([]);
  return lanes;
}

const clock = new ImportClock(1_000_000);
const otioTime = (value: JsonValue | undefined): RationalTime | null => readOtioTime(value as OtioValue, clock, false, 'body');

/** A transition's cut: start + in_offset (or end - out_offset) as the body kept them, else the middle of the interval. */
function cutOf(transition: Timed): RationalTime {
  const interval = transition.reference.interval;
  const extra = transition.body.extra;
  const before = isObject(extra as OtioValue) ? otioTime((extra as Record<string, JsonValue>).in_offset) : null;
  const after = isObject(extra as OtioValue) ? otioTime((extra as Record<string, JsonValue>).out_offset) : null;
  const length = subtractTimes(interval.end, interval.start);
  if (before && after && addTimes(before, after).equals(length)) return addTimes(interval.start, before);
  // One offset missing (the load read it as zero): the other still places the cut.
  if (before && !after && before.le(length)) return addTimes(interval.start, before);
  if (after && !before && after.le(length)) return subtractTimes(interval.end, after);
  const half = subtractTimes(interval.end, interval.start);
  return addTimes(interval.start, new RationalTime(half.v, half.r * 2));
}

function writeTransition(transition: Timed, cut: RationalTime): OtioObject {
  const body = transition.body as Record<string, OtioValue>;
  const extra = isObject(body.extra) ? body.extra : {};
  const interval = transition.reference.interval;
  const rate = rateOf(extra.in_offset);
  const out: OtioObject = {
    OTIO_SCHEMA: typeof body.otio_schema === 'string' ? body.otio_schema : 'Transition.1',
    metadata: isObject(body.metadata) ? body.metadata : {},
    name: typeof body.name === 'string' ? body.name : '',
    ...extra,
  };
  if (!isObject(body.extra)) {
    out.transition_type = 'SMPTE_Dissolve';
    out.parameters = {};
  }
  // Assigning keeps the keys where the file had them.
  out.in_offset = writeOtioTime(subtractTimes(cut, interval.start), rate);
  out.out_offset = writeOtioTime(subtractTimes(interval.end, cut), rate);
  return out;
}

function gap(duration: RationalTime): OtioObject {
  return { OTIO_SCHEMA: 'Gap.1', metadata: {}, name: '', source_range: writeOtioRange(ZERO, duration), effects: [], markers: [], enabled: true };
}

/** A clip or kept item, with its source range re-derived when the interval no longer matches it. */
function writeItem(item: Timed): { object: OtioObject; sourceStart: RationalTime } {
  const body = item.body as Record<string, OtioValue>;
  const interval = item.reference.interval;
  const duration = subtractTimes(interval.end, interval.start);
  const kept = body.source_range;
  const keptStart = isObject(kept) ? otioTime(kept.start_time as JsonValue) : null;
  const keptDuration = isObject(kept) ? otioTime(kept.duration as JsonValue) : null;
  let sourceRange: OtioValue;
  if (keptDuration && keptDuration.equals(duration)) sourceRange = kept as OtioValue;
  else if (kept === null && (body.kind === 'item' || availableDuration(body)?.equals(duration))) sourceRange = null;
  else sourceRange = writeOtioRange(keptStart ?? ZERO, duration, rateOf(kept));
  if (kept === undefined && body.kind !== 'clip' && body.kind !== 'item') sourceRange = writeOtioRange(ZERO, duration);
  const extra = isObject(body.extra) ? body.extra : {};
  const name = typeof body.name === 'string' ? body.name : typeof body.text === 'string' ? body.text : '';
  // An item the import kept is written with its own fields only; others get OTIO's defaults.
  const verbatim = typeof body.otio_schema === 'string';
  const metadata: OtioObject = isObject(body.metadata) ? { metadata: body.metadata } : verbatim ? {} : { metadata: {} };
  const range: OtioObject = kept === undefined && verbatim ? {} : { source_range: sourceRange };
  const defaults: OtioObject = verbatim ? {} : { effects: [], enabled: true };
  const children: OtioObject = { children: [] };
  if (body.kind === 'item') {
    const schema = typeof body.otio_schema === 'string' ? body.otio_schema : 'Gap.1';
    const nested = /^(Stack|Track|Sequence)\./.test(schema);
    // A nested stack or track is written empty (its tracks are tiers of their own): without a
    // source_range its length would be its children's, none, so it says its length in one.
    const ownRange = nested && !isObject(kept) ? { source_range: writeOtioRange(ZERO, duration) } : range;
    return { object: { OTIO_SCHEMA: schema, ...metadata, name, ...extra, ...(nested ? children : {}), ...ownRange }, sourceStart: keptStart ?? ZERO };
  }
  const asset = item.reference.asset_id;
  const clip: OtioObject = { OTIO_SCHEMA: typeof body.otio_schema === 'string' ? body.otio_schema : 'Clip.2', ...metadata, name, ...range, ...defaults, markers: [], ...extra };
  if (body.media_reference !== undefined || body.media_references !== undefined) {
    if (body.media_reference !== undefined) clip.media_reference = body.media_reference;
    if (body.media_references !== undefined) clip.media_references = body.media_references;
    if (typeof body.active_media_reference_key === 'string') clip.active_media_reference_key = body.active_media_reference_key;
  } else {
    const reference: OtioObject = asset.startsWith('otio:')
      ? { OTIO_SCHEMA: 'MissingReference.1', metadata: {}, name: '', available_range: null }
      : { OTIO_SCHEMA: 'ExternalReference.1', metadata: {}, name: '', available_range: null, target_url: asset };
    if (clip.OTIO_SCHEMA === 'Clip.1') clip.media_reference = reference;
    else {
      clip.media_references = { DEFAULT_MEDIA: reference };
      clip.active_media_reference_key = 'DEFAULT_MEDIA';
    }
  }
  return { object: clip, sourceStart: keptStart ?? ZERO };
}

/** The duration of a kept clip's active media reference, which is the clip's when it has no source_range. */
function availableDuration(body: Record<string, OtioValue>): RationalTime | null {
  const references = body.media_references;
  const key = typeof body.active_media_reference_key === 'string' ? body.active_media_reference_key : 'DEFAULT_MEDIA';
  const reference = isObject(references) ? references[key] : body.media_reference;
  return isObject(reference) && isObject(reference.available_range) ? otioTime(reference.available_range.duration as JsonValue) : null;
}

/** A marker at its time relative to `origin` (the owner's time zero on the timeline). */
function writeMarker(marker: Timed, origin: RationalTime): OtioObject {
  const body = marker.body as Record<string, OtioValue>;
  const interval = marker.reference.interval;
  const start = subtractTimes(interval.start, origin);
  const duration = subtractTimes(interval.end, interval.start);
  const kept = body.marked_range;
  const keptStart = isObject(kept) ? otioTime(kept.start_time as JsonValue) : null;
  const keptDuration = isObject(kept) ? otioTime(kept.duration as JsonValue) : null;
  const markedRange = keptStart && keptDuration && keptStart.equals(start) && keptDuration.equals(duration) ? kept : writeOtioRange(start, duration, rateOf(kept));
  const extra = isObject(body.extra) ? body.extra : {};
  const name = typeof body.name === 'string' ? body.name : typeof body.text === 'string' ? body.text : '';
  const verbatim = typeof body.otio_schema === 'string';
  const out: OtioObject = {
    OTIO_SCHEMA: verbatim ? (body.otio_schema as string) : 'Marker.2',
    ...(isObject(body.metadata) ? { metadata: body.metadata } : verbatim ? {} : { metadata: {} }),
    name,
    ...(body.color !== undefined ? { color: body.color } : verbatim ? {} : { color: 'RED' }),
    marked_range: markedRange as OtioValue,
    ...extra,
  };
  if (typeof body.comment === 'string') out.comment = body.comment;
  return out;
}

function writeTrack(tier: Tier | undefined, name: string, children: OtioValue[], markers: OtioObject[], lane: number, mainTrack: number): OtioObject {
  const metadata = tier?.metadata ?? {};
  const fields = isObject(metadata.track as OtioValue) ? (metadata.track as OtioObject) : {};
  const trackName = typeof metadata.track_name === 'string' ? metadata.track_name : name;
  let ownMetadata: OtioObject | undefined = isObject(fields.metadata) ? fields.metadata : undefined;
  // The load names a tier after its track; say so when that would not give this tier back.
  const derived = trackName === '' ? 'untitled' : trackName;
  if (lane === 0 && (derived !== name || typeof metadata.nested_in === 'string')) {
    ownMetadata = { ...(ownMetadata ?? {}), [ANNOT_TRACK_KEY]: { tier: name, ...(typeof metadata.nested_in === 'string' ? { nested_in: metadata.nested_in } : {}) } };
  }
  const verbatim = lane === 0 && isObject(metadata.track as OtioValue);
  return {
    OTIO_SCHEMA: typeof metadata.otio_schema === 'string' && lane === 0 ? metadata.otio_schema : 'Track.1',
    // A track the import kept is written with its own fields only; others get OTIO's defaults.
    ...(verbatim ? {} : { kind: 'Video', source_range: null, effects: [], enabled: true }),
    ...(lane === 0 ? fields : {}),
    ...(lane === 0 ? (ownMetadata === undefined && verbatim ? {} : { metadata: ownMetadata ?? {} }) : { metadata: { [ANNOT_TRACK_KEY]: { lane_of: mainTrack } } }),
    name: trackName,
    children,
    markers,
  };
}
