import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { LoadOptions } from '../adapter.js';
import type { SourceLocation } from '../errors.js';
import type { ImportClock } from '../import-clock.js';
import type { OtioValue } from './otio-json.js';
import { OTIO_TIMELINE_META } from './otio-model.js';
import { builtAnnotations } from './pending-annotations.js';
import { readTimelineMarkers, walkTopStack } from './read-stack.js';
import { newReadState } from './read-state.js';
import { topStack } from './read-top.js';

export interface ReadOtio {
  tiers: Tier[];
  meta: Record<string, string>;
  /** Built as they are consumed (once). */
  annotations: Iterable<Annotation>;
  clock: ImportClock;
  /** The JSON path of the annotation built or handed over last. */
  placeOfAnnotation: () => SourceLocation;
}

/**
 * Reads an OTIO timeline in passes over one state (read-state.ts): the top (read-top.ts), the
 * tracks of the stack (read-stack.ts), each track's children (read-track.ts, read-items.ts) and
 * markers (read-markers.ts). Each track becomes a tier; clips, transitions, gaps worth keeping and
 * nested items become annotations at their exact rational times; a nested stack's or track's own
 * tracks become tiers linked to the nested item, so the writer puts them back inside it.
 */
export function readOtio(root: OtioValue, options: LoadOptions): ReadOtio {
  const state = newReadState(options);
  const top = topStack(state, root);
  walkTopStack(state, top);
  readTimelineMarkers(state, top);
  const at = { path: '$' };
  return {
    tiers: state.tiers,
    meta: { [OTIO_TIMELINE_META]: JSON.stringify(top.parts) },
    annotations: builtAnnotations(state.pending, state.provenance, at),
    clock: state.clock,
    placeOfAnnotation: () => ({ path: at.path }),
  };
}
