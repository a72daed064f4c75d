import type { RationalTime } from '../../time/rational-time.js';
import { isObject, schemaName, type OtioValue } from './otio-json.js';
import { OTIO_MARKER_SCHEMA } from './otio-model.js';
import { keepAnnotation } from './read-annotation.js';
import { markerBody, type MarkerOwnerKind } from './read-bodies.js';
import { durationOf, fail, startOf, type ReadState } from './read-state.js';
import { addTimes } from './otio-time.js';

/** Who holds a list of markers, and where its time zero lies on the timeline. */
export interface MarkerOwner {
  readonly tier: string;
  readonly asset: string;
  /**
   * The timeline time of the owner's time zero: a marker's marked_range is in its owner's time
   * (a clip's media time, a track's own time), as OTIO's transformed_time maps it.
   */
  readonly origin: RationalTime;
  /** `clip` for any item of a track (a clip, a gap or a nested stack kept as an annotation). */
  readonly owner: MarkerOwnerKind;
  readonly ownerId?: string;
}

/** The markers of one owner, each an annotation at its time on the timeline. */
export function readMarkers(state: ReadState, list: OtioValue | undefined, path: string, owner: MarkerOwner): void {
  if (!Array.isArray(list)) return;
  list.forEach((marker, index) => {
    const where = `${path}[${index}]`;
    if (!isObject(marker) || schemaName(marker) !== 'Marker') return fail(state, where, 'a "Marker.2" object');
    const range = marker.marked_range;
    const start = addTimes(owner.origin, startOf(state, range, `${where}.marked_range`));
    const duration = durationOf(state, range, `${where}.marked_range`) ?? state.zero;
    const body = markerBody(marker, owner.owner, owner.ownerId);
    keepAnnotation(state, { tier: owner.tier, asset: owner.asset, start, end: addTimes(start, duration), body, schema: OTIO_MARKER_SCHEMA, path: where });
  });
}
