import type { JsonValue } from '../../json/json-body.js';
import { RationalTime } from '../../time/rational-time.js';
import { ImportClock } from '../import-clock.js';
import { isObject, schemaName, type OtioObject, type OtioValue } from './otio-json.js';
import { addTimes, readOtioTime } from './otio-time.js';

export const ZERO = new RationalTime(0, 1);

const clock = new ImportClock(1_000_000);

/** A RationalTime a body kept (a source_range's start, an offset), exact; null when there is none. */
export function keptTime(value: JsonValue | OtioValue | undefined): RationalTime | null {
  return readOtioTime(value as OtioValue, clock, false, 'body');
}

/** A kept TimeRange's start and duration. */
export function keptRange(range: OtioValue | undefined): { start: RationalTime | null; duration: RationalTime | null } {
  return isObject(range) ? { start: keptTime(range.start_time), duration: keptTime(range.duration) } : { start: null, duration: null };
}

/**
 * The duration OTIO gives an item the writer built (trimmed_range): its source_range's, else a
 * clip's media's, a track's children end to end, a stack's longest child.
 */
export function writtenDuration(item: OtioValue): RationalTime {
  if (!isObject(item)) return ZERO;
  const own = keptRange(item.source_range).duration;
  if (own !== null) return own;
  const kind = schemaName(item);
  if (kind === 'Clip') return availableDuration(item) ?? ZERO;
  const children = Array.isArray(item.children) ? item.children : [];
  let total = ZERO;
  for (const child of children) {
    if (kind === 'Stack') {
      const length = writtenDuration(child);
      if (length.gt(total)) total = length;
    } else if ((kind === 'Track' || kind === 'Sequence') && schemaName(child) !== 'Transition') total = addTimes(total, writtenDuration(child));
  }
  return total;
}

/** The available_range of a clip's (or a kept clip body's) active media reference. */
export function availableRange(clip: OtioObject): OtioValue | undefined {
  const references = clip.media_references;
  const key = typeof clip.active_media_reference_key === 'string' ? clip.active_media_reference_key : 'DEFAULT_MEDIA';
  const reference = isObject(references) ? references[key] : clip.media_reference;
  return isObject(reference) ? reference.available_range : undefined;
}

function availableDuration(clip: OtioObject): RationalTime | null {
  return keptRange(availableRange(clip)).duration;
}
