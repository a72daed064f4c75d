import type { RationalTime } from '../../time/rational-time.js';
import { isObject, schemaName, type OtioObject } from './otio-json.js';
import { addTimes } from './otio-time.js';
import { activeReference } from './read-bodies.js';
import { durationOf, fail, type ReadState } from './read-state.js';

/**
 * An item's duration as OTIO's trimmed_range gives it: its source_range's when it has one; else a
 * clip's media's available_range, a track's children end to end (transitions take no time), a
 * stack's longest child.
 */
export function itemDuration(state: ReadState, item: OtioObject, path: string): RationalTime {
  const own = durationOf(state, item.source_range, `${path}.source_range`);
  if (own) return notNegative(state, own, `${path}.source_range.duration`);
  const kind = schemaName(item);
  if (kind === 'Clip') return mediaDuration(state, item, path);
  const children = Array.isArray(item.children) ? item.children : [];
  let total = state.zero;
  children.forEach((child, index) => {
    if (!isObject(child) || (kind !== 'Stack' && kind !== 'Track' && kind !== 'Sequence')) return;
    if (kind === 'Stack') {
      const length = itemDuration(state, child, `${path}.children[${index}]`);
      if (length.gt(total)) total = length;
    } else if (schemaName(child) !== 'Transition') {
      total = addTimes(total, itemDuration(state, child, `${path}.children[${index}]`));
    }
  });
  return total;
}

function mediaDuration(state: ReadState, clip: OtioObject, path: string): RationalTime {
  const reference = activeReference(clip);
  const available = isObject(reference) ? durationOf(state, reference.available_range, `${path}.media_reference.available_range`) : null;
  if (available) return notNegative(state, available, `${path}.media_reference.available_range.duration`);
  return fail(state, path, 'a clip with a source_range, or a media reference with an available_range (its duration)');
}

/** An item cannot last less than nothing: laid out, it would move back over the items before it. */
export function notNegative(state: ReadState, duration: RationalTime, path: string): RationalTime {
  return duration.lt(state.zero) ? fail(state, path, 'a duration of 0 or more') : duration;
}
