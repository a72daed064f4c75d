import { makeTier } from '../../model/tier.js';
import { placedInFile } from '../refusal-place.js';
import { isObject, type OtioObject } from './otio-json.js';
import { ANNOT_TRACK_KEY, LAYER_KEY, LONE_ITEM_LAYER, NESTED_IN_KEY, NESTED_ITEM_KEY } from './otio-model.js';
import { annotInfo, nameOf } from './read-bodies.js';
import { uniqueTier, type ReadState } from './read-state.js';

/** Where a nested tier sits: the tier of the track holding the nested item, and that item's annotation. */
export interface NestedLink {
  readonly outerTier: string;
  readonly itemId: string;
}

/** Declares a tier (its name made unique) and returns its name; a refused name is named at `path`, the JSON path of what the tier is read from. */
export function declareTier(state: ReadState, base: string, metadata: Record<string, unknown>, path: string): string {
  const name = uniqueTier(state, base);
  try {
    state.tiers.push(makeTier({ name, metadata }));
  } catch (error) {
    throw placedInFile(error, state.file, { path });
  }
  return name;
}

/**
 * The tier of a track: named after it (or as our dump named it, see ANNOT_TRACK_KEY), its own
 * fields kept in `track` so the writer puts them back; inside a nested item, linked to it.
 */
export function declareTrackTier(state: ReadState, track: OtioObject, base: string, path: string, link?: NestedLink): string {
  const info = annotInfo(track);
  const { children: _children, markers: _markers, name: _name, OTIO_SCHEMA, ...fields } = withoutAnnotKey(track);
  void _children;
  void _markers;
  void _name;
  const metadata: Record<string, unknown> = { track_name: nameOf(track), otio_schema: typeof OTIO_SCHEMA === 'string' ? OTIO_SCHEMA : 'Track.1', track: fields };
  if (info?.nested_in !== undefined) metadata[NESTED_IN_KEY] = info.nested_in;
  return declareTier(state, info?.tier ?? base, { ...metadata, ...linkMetadata(link) }, path);
}

/**
 * The tier of a nested track: its fields are the nested item's (its annotation holds them), so
 * the tier holds only its name and the link.
 */
export function declareNestedTrackTier(state: ReadState, track: OtioObject, base: string, path: string, link: NestedLink): string {
  const metadata = { track_name: nameOf(track), otio_schema: String(track.OTIO_SCHEMA), ...linkMetadata(link) };
  return declareTier(state, annotInfo(track)?.tier ?? base, metadata, path);
}

/** The tier of an item standing alone in a stack, written back alone (see LAYER_KEY). */
export function declareLoneItemTier(state: ReadState, item: OtioObject, base: string, path: string, link?: NestedLink): string {
  return declareTier(state, base, { track_name: nameOf(item), [LAYER_KEY]: LONE_ITEM_LAYER, ...linkMetadata(link) }, path);
}

function linkMetadata(link: NestedLink | undefined): Record<string, string> {
  return link === undefined ? {} : { [NESTED_IN_KEY]: link.outerTier, [NESTED_ITEM_KEY]: link.itemId };
}

/** The object without what our dump added to its metadata (see ANNOT_TRACK_KEY). */
export function withoutAnnotKey(object: OtioObject): OtioObject {
  if (!isObject(object.metadata) || !(ANNOT_TRACK_KEY in object.metadata)) return object;
  const { [ANNOT_TRACK_KEY]: _info, ...metadata } = object.metadata;
  void _info;
  return { ...object, metadata };
}
