import { makeAnnotation, mediaRef } from '../../model/annotation.js';
import type { RationalTime } from '../../time/rational-time.js';
import { TimeInterval } from '../../time/time-interval.js';
import { placedInFile } from '../refusal-place.js';
import { checkedBody } from './body-check.js';
import type { Body } from './read-bodies.js';
import type { ReadState } from './read-state.js';

export interface Found {
  readonly tier: string;
  readonly asset: string;
  readonly start: RationalTime;
  readonly end: RationalTime;
  readonly body: Body;
  readonly schema: string;
  /** The JSON path of the item or marker, for what the check says. */
  readonly path: string;
  /** Set when something refers to it (its markers, a nested tier). */
  readonly id?: string;
}

/**
 * Keeps an annotation of the walk. Its body is checked against its schema and the annotation built
 * once now, so that a file is refused before any of it is consumed; it is built again then.
 */
export function keepAnnotation(state: ReadState, found: Found): void {
  const { tier, asset, start, end, schema, id } = found;
  const interval = end.lt(start) ? TimeInterval.point(start) : new TimeInterval(start, end);
  const body = checkedBody(state, found.body, schema, found.path);
  try {
    makeAnnotation({ id, tier, reference: mediaRef(asset, interval), body, body_schema_uri: schema, provenance: state.provenance });
  } catch (error) {
    throw placedInFile(error, state.file, { path: found.path });
  }
  state.pending.push({ id, tier, asset, interval, body, schema, path: found.path });
}
