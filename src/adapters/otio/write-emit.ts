import type { RationalTime } from '../../time/rational-time.js';
import { isObject, type OtioObject, type OtioValue } from './otio-json.js';
import { ANNOT_TRACK_KEY, nestedTierLabel, uniqueName, type AnnotTrackInfo } from './otio-model.js';
import { addTimes, rateOf, subtractTimes, writeOtioRange } from './otio-time.js';
import type { Plan, TrackPlan } from './write-allocate.js';
import { nestedKindOf, type DropCount, type Timed } from './write-collect.js';
import { gap, writeItem, writeMarker, writeTransition, cutOf } from './write-items.js';
import { trackName, trackTrim, writeTrack } from './write-track.js';
import { writtenDuration, ZERO } from './write-time.js';

/** What the emit pass builds beside the tree: where each item with markers went, and the lanes of nested tiers. */
interface Emit {
  readonly plan: Plan;
  readonly placed: Array<{ readonly id: string; readonly origin: RationalTime; readonly object: OtioObject }>;
  /** Extra tracks for overlapping annotations of nested tiers, written at the top (`lane_of_tier`). */
  readonly nestedLanes: OtioObject[];
  readonly dropped: DropCount;
  /** The tier names the load will give, in the order it gives them (see claimName). */
  readonly names: Set<string>;
}

/**
 * The writer's last pass: the OTIO tree of the plan (Timeline.1 › Stack.1 › Track.1 ›
 * Clip.2/Gap.1/Transition.1/nested Stack.1 and Track.1, Marker.2). Items are laid out in time
 * order with gaps between them; a nested item gets its tiers back inside it, laid out from its
 * own time zero; markers go back onto what owned them.
 */
export function emitTimeline(plan: Plan): OtioObject {
  const emit: Emit = { plan, placed: [], nestedLanes: [], dropped: plan.collected.dropped, names: new Set() };
  const tracks = emitTopTracks(emit);
  tracks.push(...emit.nestedLanes);
  const markers = plan.collected.timelineMarkers.map((marker) => writeMarker(marker, ZERO));
  markers.push(...attachItemMarkers(emit));
  const parts = plan.collected.parts;
  return {
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
      markers,
    },
  };
}

function emitTopTracks(emit: Emit): OtioValue[] {
  const tracks: OtioValue[] = [];
  for (const plan of emit.plan.top) {
    const lone = loneItem(emit, plan, ZERO, (name) => name);
    if (lone !== null) {
      tracks.push(lone);
      continue;
    }
    const main = tracks.length;
    tracks.push(emitTrack(emit, plan, ZERO, trackName(plan.content.tier, plan.content.name)));
    for (const lane of plan.lanes.slice(1)) tracks.push(emitLane(emit, plan, lane, { lane_of: main }));
  }
  return tracks;
}

/**
 * A tier's own track: lane 0, its transitions and markers, laid out from where its trim puts its
 * time zero. `base` is the name the load derives the tier's from; when that does not give the
 * tier's, the track says its tier.
 */
function emitTrack(emit: Emit, plan: TrackPlan, zero: RationalTime, base: string): OtioObject {
  const { tier, name, transitions, trackMarkers } = plan.content;
  const nestedIn = tier?.metadata.nested_in;
  const info = plan.orphan && typeof nestedIn === 'string' ? { tier: claimName(emit, name, name), nested_in: nestedIn } : tierInfo(emit, base, name);
  const trim = trackTrim(tier, plan.lanes[0], transitions, zero, plan.orphan);
  const children = layOut(emit, plan.lanes[0], transitions, trim.origin);
  const markers = trackMarkers.map((marker) => writeMarker(marker, trim.origin));
  const track = writeTrack(tier, name, children, markers, info, false);
  if (trim.dropRange) track.source_range = null;
  return track;
}

/** An extra track for what overlaps on a tier, at the timeline's time, saying whose lane it is. */
function emitLane(emit: Emit, plan: TrackPlan, lane: readonly Timed[], info: AnnotTrackInfo): OtioObject {
  return writeTrack(plan.content.tier, plan.content.name, layOut(emit, lane, [], ZERO), [], info, true);
}

/** Items in time order from `from`, gaps between them, each transition on its cut. */
function layOut(emit: Emit, lane: readonly Timed[], transitions: readonly Timed[], from: RationalTime): OtioValue[] {
  const children: OtioValue[] = [];
  let cursor = from;
  const pending = [...transitions].sort((a, b) => cutOf(a).compare(cutOf(b)));
  const flush = (until: RationalTime | null): void => {
    while (pending.length > 0 && (until === null || cutOf(pending[0]).le(until))) {
      const transition = pending.shift() as Timed;
      const cut = cutOf(transition);
      if (cut.gt(cursor)) {
        children.push(gap(subtractTimes(cut, cursor)));
        cursor = cut;
      }
      children.push(writeTransition(transition, cut));
    }
  };
  for (const item of lane) {
    const { start, end } = item.reference.interval;
    flush(start);
    if (start.lt(cursor)) {
      emit.dropped.add('items starting before the start of their track (OTIO lays a track out from its start)');
      continue;
    }
    if (start.gt(cursor)) children.push(gap(subtractTimes(start, cursor)));
    children.push(emitItem(emit, item));
    cursor = end;
  }
  flush(null);
  return children;
}

/**
 * A clip or item; a nested stack or track with its tiers inside it. `lead`: how much of its start
 * a trim cut off (an item standing alone in a stack starts at the stack's start), given back.
 */
function emitItem(emit: Emit, item: Timed, lead?: RationalTime): OtioObject {
  const written = writeItem(item);
  // The item's own time zero on the timeline: its markers and nested children are placed from it.
  const origin = subtractTimes(item.reference.interval.start, written.sourceStart);
  if (lead !== undefined && lead.gt(ZERO)) {
    const length = subtractTimes(item.reference.interval.end, item.reference.interval.start);
    written.object.source_range = writeOtioRange(subtractTimes(written.sourceStart, lead), addTimes(length, lead), rateOf(written.object.source_range));
  }
  const nested = nestedKindOf(item);
  if (nested !== null) fillNested(emit, item, written.object, nested, origin);
  if (emit.plan.collected.itemMarkers.has(item.id)) emit.placed.push({ id: item.id, origin, object: written.object });
  return written.object;
}

function fillNested(emit: Emit, item: Timed, object: OtioObject, kind: 'Stack' | 'Track', zero: RationalTime): void {
  const layers = emit.plan.inside.get(item.id) ?? [];
  const itemName = typeof object.name === 'string' ? object.name : '';
  if (kind === 'Stack') object.children = layers.map((layer) => emitLayer(emit, layer, zero, (name) => nestedTierLabel(item.tier, 'stack', itemName, name)));
  else if (layers.length > 0) fillNestedTrack(emit, layers[0], object, zero, nestedTierLabel(item.tier, 'track', '', itemName));
  // Without a source_range its length is its children's: when they no longer add up to its interval, it says its length.
  const duration = subtractTimes(item.reference.interval.end, item.reference.interval.start);
  if (!isObject(object.source_range) && !writtenDuration(object).equals(duration)) object.source_range = writeOtioRange(ZERO, duration);
}

/** A layer of a nested stack: its item alone when it stood alone, else its track. */
function emitLayer(emit: Emit, layer: TrackPlan, zero: RationalTime, label: (name: string) => string): OtioObject {
  const lone = loneItem(emit, layer, zero, label);
  if (lone !== null) return lone;
  const track = emitTrack(emit, layer, zero, label(trackName(layer.content.tier, layer.content.name)));
  for (const lane of layer.lanes.slice(1)) emit.nestedLanes.push(emitLane(emit, layer, lane, { lane_of_tier: layer.content.name }));
  return track;
}

/** A nested track's children and markers from its tier; its own fields are the item's. */
function fillNestedTrack(emit: Emit, layer: TrackPlan, track: OtioObject, zero: RationalTime, base: string): void {
  const { name, transitions, trackMarkers } = layer.content;
  const info = tierInfo(emit, base, name);
  if (info !== null) track.metadata = { ...(isObject(track.metadata) ? track.metadata : {}), [ANNOT_TRACK_KEY]: info as OtioObject };
  track.children = layOut(emit, layer.lanes[0], transitions, zero);
  track.markers = trackMarkers.map((marker) => writeMarker(marker, zero));
  for (const lane of layer.lanes.slice(1)) emit.nestedLanes.push(emitLane(emit, layer, lane, { lane_of_tier: name }));
}

/**
 * The one item of a tier that stood alone in a stack, when it still is alone and has its name. It
 * started at the stack's start: what a trim cut off there is given back (the stack's trim hides it).
 */
function loneItem(emit: Emit, plan: TrackPlan, zero: RationalTime, label: (name: string) => string): OtioObject | null {
  const { items, transitions, trackMarkers, name } = plan.content;
  if (!plan.loneItem || items.length !== 1 || transitions.length > 0 || trackMarkers.length > 0) return null;
  const item = items[0];
  const itemName = typeof item.body.name === 'string' ? item.body.name : '';
  if (item.reference.interval.start.lt(zero) || uniqueName(emit.names, label(itemName)) !== name) return null;
  claimName(emit, label(itemName), name);
  return emitItem(emit, item, subtractTimes(item.reference.interval.start, zero));
}

/**
 * `{tier}` when the load, deriving a name from `base` as it does (made unique among the names it
 * gave before), would not give the tier's name; null when it would. Either way the name is taken.
 */
function tierInfo(emit: Emit, base: string, name: string): AnnotTrackInfo | null {
  if (uniqueName(emit.names, base) === name) {
    claimName(emit, base, name);
    return null;
  }
  claimName(emit, name, name);
  return { tier: name };
}

function claimName(emit: Emit, base: string, name: string): string {
  emit.names.add(uniqueName(emit.names, base));
  return name;
}

/** Markers onto the items that own them; those whose item is gone, for the timeline. */
function attachItemMarkers(emit: Emit): OtioObject[] {
  const markers = new Map(emit.plan.collected.itemMarkers);
  for (const placed of emit.placed) {
    const attached = markers.get(placed.id);
    if (!attached) continue;
    placed.object.markers = attached.map((marker) => writeMarker(marker, placed.origin));
    markers.delete(placed.id);
  }
  return [...markers.values()].flatMap((orphans) => orphans.map((marker) => writeMarker(marker, ZERO)));
}
