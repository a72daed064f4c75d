import type { Tier } from '../../model/tier.js';
import type { RationalTime } from '../../time/rational-time.js';
import { isObject, type OtioObject, type OtioValue } from './otio-json.js';
import { ANNOT_TRACK_KEY, type AnnotTrackInfo } from './otio-model.js';
import { addTimes, subtractTimes } from './otio-time.js';
import type { Timed } from './write-collect.js';
import { cutOf } from './write-items.js';
import { keptRange, ZERO } from './write-time.js';

/**
 * A track from its tier: the fields the import kept (kind, source_range, effects, metadata) as
 * they were, OTIO's defaults otherwise, and `annot` info when the track alone would not say which
 * tier it is (see ANNOT_TRACK_KEY). A lane (an extra track for overlapping annotations) has only
 * the info.
 */
export function writeTrack(tier: Tier | undefined, name: string, children: OtioValue[], markers: OtioObject[], info: AnnotTrackInfo | null, lane: boolean): OtioObject {
  const metadata = tier?.metadata ?? {};
  const fields = !lane && isObject(metadata.track as OtioValue) ? (metadata.track as OtioObject) : {};
  const verbatim = !lane && isObject(metadata.track as OtioValue);
  let own: OtioObject | undefined = lane ? undefined : isObject(fields.metadata) ? fields.metadata : undefined;
  if (info !== null) own = { ...(own ?? {}), [ANNOT_TRACK_KEY]: info as OtioObject };
  return {
    OTIO_SCHEMA: !lane && typeof metadata.otio_schema === 'string' ? metadata.otio_schema : 'Track.1',
    ...(verbatim ? {} : { kind: 'Video', source_range: null, effects: [], enabled: true }),
    ...fields,
    ...(own === undefined && verbatim ? {} : { metadata: own ?? {} }),
    name: trackName(tier, name),
    children,
    markers,
  };
}

/** The name the tier's track had, else the tier's. */
export function trackName(tier: Tier | undefined, name: string): string {
  return typeof tier?.metadata.track_name === 'string' ? tier.metadata.track_name : name;
}

export interface TrackTrim {
  /** Where the track's own time zero lies on the timeline: its children are laid out from there. */
  readonly origin: RationalTime;
  /** The kept source_range no longer fits what the tier holds: the track is written untrimmed. */
  readonly dropRange: boolean;
}

/**
 * Where a kept track's local time 0 lies on the timeline: `zero` (where its parent's time starts)
 * minus its source_range's start. When an item or transition now starts before that point, or
 * ends after the trim's end, the trim cannot be kept: the track is written untrimmed from `zero`.
 * A tier written at the top though it was nested (`orphan`) has its items at their times on the
 * timeline, which the load does not trim: its trim's end is not checked.
 */
export function trackTrim(tier: Tier | undefined, items: readonly Timed[], transitions: readonly Timed[], zero: RationalTime, orphan: boolean): TrackTrim {
  const fields = tier && isObject(tier.metadata.track as OtioValue) ? (tier.metadata.track as OtioObject) : null;
  const range = fields?.source_range;
  if (!isObject(range)) return { origin: zero, dropRange: false };
  const { start: kept, duration } = keptRange(range);
  const start = kept ?? ZERO;
  const origin = subtractTimes(zero, start);
  const earliest = [...items.map((item) => item.reference.interval.start), ...transitions.map(cutOf)];
  if (earliest.some((time) => time.lt(origin))) return { origin: zero, dropRange: true };
  if (duration === null || orphan) return { origin, dropRange: false };
  // The trim also ends the track: it shows start_time to start_time + duration, `zero` to
  // `zero` + duration on the timeline, and the load leaves out or cuts what lies past that.
  const last = addTimes(zero, duration);
  const latest = [...items.map((item) => item.reference.interval.end), ...transitions.map(cutOf)];
  // A trim that misses every item is read as an offset only (see the reader's trimWindow): kept as it is.
  const extent = latest.reduce((max, time) => (time.gt(max) ? time : max), origin);
  const offsetOnly = latest.length > 0 && (!addTimes(start, duration).gt(ZERO) || !start.lt(subtractTimes(extent, origin)));
  if (!offsetOnly && latest.some((time) => time.gt(last))) return { origin: zero, dropRange: true };
  return { origin, dropRange: false };
}
