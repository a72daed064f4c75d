import type { RationalTime } from '../../time/rational-time.js';
import { isObject, type OtioObject, type OtioValue } from './otio-json.js';
import { addTimes, rateOf, subtractTimes, writeOtioRange } from './otio-time.js';
import { itemDuration, notNegative } from './read-duration.js';
import { durationOf, startOf, type ReadState } from './read-state.js';

export interface Span {
  readonly start: RationalTime;
  readonly end: RationalTime;
}

/** The part of its parent's time a trimmed track shows, on the timeline. */
export interface TrimWindow {
  /** Whether a point (a transition's cut) lies in it, edges included. */
  holds(at: RationalTime): boolean;
  /** What of [start, end) it shows; null when nothing (a zero-length item on an edge is inside). */
  clip(start: RationalTime, end: RationalTime): Span | null;
}

/**
 * What a track shows of its parent's time: with a source_range, from `origin` (where its
 * start_time plays) for its duration; inside a nested item, no more than the item shows
 * (`bounds`). Null when nothing trims it; 'offset only' for a trim that shows none of the items,
 * which older cmx_3600 output writes as the record start: read as an offset, or the whole track
 * would vanish.
 */
export function trimWindow(state: ReadState, track: OtioObject, path: string, origin: RationalTime, bounds?: Span): TrimWindow | 'offset only' | null {
  if (!isObject(track.source_range) && bounds === undefined) return null;
  const duration = isObject(track.source_range) ? durationOf(state, track.source_range, `${path}.source_range`) : null;
  const length = duration === null ? null : notNegative(state, duration, `${path}.source_range.duration`);
  if (bounds === undefined && length !== null && length.gt(state.zero) && missesEveryItem(state, track, path, length)) return 'offset only';
  let first = isObject(track.source_range) ? origin : (bounds as Span).start;
  let last = length === null ? null : addTimes(origin, length);
  if (bounds !== undefined) {
    if (bounds.start.gt(first)) first = bounds.start;
    if (last === null || bounds.end.lt(last)) last = bounds.end;
  }
  return windowOver(first, last);
}

function missesEveryItem(state: ReadState, track: OtioObject, path: string, length: RationalTime): boolean {
  const trimStart = startOf(state, track.source_range, `${path}.source_range`);
  const extent = itemDuration(state, { ...track, source_range: null }, path);
  return extent.gt(state.zero) && (!addTimes(trimStart, length).gt(state.zero) || !trimStart.lt(extent));
}

/** [first, last], last null for a window open at its end. A longer item must overlap it by more than a point. */
export function windowOver(first: RationalTime, last: RationalTime | null): TrimWindow {
  const holds = (at: RationalTime): boolean => !at.lt(first) && (last === null || !at.gt(last));
  return {
    holds,
    clip(start, end) {
      if (start.equals(end)) return holds(start) ? { start, end } : null;
      if (!end.gt(first) || (last !== null && !start.lt(last))) return null;
      return { start: start.lt(first) ? first : start, end: last !== null && end.gt(last) ? last : end };
    },
  };
}

/** An item's source_range cut as the trim cuts the item: later start, shorter duration, at the rate it was written in. */
export function cutRange(range: OtioValue | undefined, mediaStart: RationalTime, placedAt: RationalTime, visible: Span): OtioObject {
  const start = addTimes(mediaStart, subtractTimes(visible.start, placedAt));
  return writeOtioRange(start, subtractTimes(visible.end, visible.start), rateOf(range));
}
