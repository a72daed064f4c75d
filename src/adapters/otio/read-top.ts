import { isObject, schemaName, type OtioObject, type OtioValue } from './otio-json.js';
import type { TimelineParts } from './otio-model.js';
import { syntheticTrack } from './read-bodies.js';
import { fail, type ReadState } from './read-state.js';

/** The top of the file: the stack whose children are the timeline's tracks, and what surrounds it. */
export interface TopStack {
  readonly children: readonly OtioValue[];
  readonly markers: OtioValue | undefined;
  /** JSON path of the stack. */
  readonly path: string;
  /** The timeline's and the stack's own fields, kept in the store's meta for the way back. */
  readonly parts: TimelineParts;
}

const BARE_OBJECTS = new Set(['SerializableObject', 'SerializableObjectWithMetadata', 'SerializableCollection']);

/**
 * A Timeline's stack; a Stack read as one; a lone Track (or Sequence) as the one track of a stack;
 * a lone item (a clip, a Subtitles.1, a schema annot does not know) as the one item of one track.
 * A bare SerializableObject has no time to read annotations from and is refused.
 */
export function topStack(state: ReadState, root: OtioValue): TopStack {
  const kind = schemaName(root);
  if (!isObject(root) || kind === null) return fail(state, '$', 'an OTIO document: an object with "OTIO_SCHEMA": "Timeline.1"');
  if (BARE_OBJECTS.has(kind)) {
    return fail(state, '$.OTIO_SCHEMA', `an OTIO timeline ("Timeline.1"), a stack, a track or an item; this file holds a bare ${String(root.OTIO_SCHEMA)}, which has no time to read annotations from`);
  }
  let timeline: Record<string, unknown> = {};
  let stack: OtioObject;
  let path = '$';
  if (kind === 'Timeline') {
    const { tracks, ...fields } = root;
    if (!isObject(tracks) || schemaName(tracks) !== 'Stack') return fail(state, '$.tracks', 'the timeline\'s tracks: a "Stack.1" object');
    timeline = fields;
    stack = tracks;
    path = '$.tracks';
  } else if (kind === 'Stack') stack = root;
  else if (kind === 'Track' || kind === 'Sequence') stack = { OTIO_SCHEMA: 'Stack.1', name: '', children: [root] };
  else stack = { OTIO_SCHEMA: 'Stack.1', name: '', children: [syntheticTrack('', root)] };
  const { children, markers, ...stackFields } = stack;
  return { children: Array.isArray(children) ? children : [], markers, path, parts: { timeline, stack: stackFields } };
}
