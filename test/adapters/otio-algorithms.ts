/**
 * OpenTimelineIO's time algorithms, re-written for the tests from OTIO's documentation and its
 * C++ sources (item.cpp, track.cpp, stack.cpp, track_algo.py), independently of annot's reader,
 * in OTIO's own double-precision seconds:
 * - an item's trimmed_range is its source_range, else its available_range (a clip's media's, a
 *   track's children end to end with transitions taking no time, a stack's longest child);
 * - range_of_child_at_index: a child starts where the items before it end; a transition spans its
 *   cut from in_offset before to out_offset after;
 * - handles_of_child: the in_offset of the transition before, the out_offset of the one after;
 * - track_trimmed_to_range: what a trim leaves of a track, children cut at its edges.
 * `normalTree` gives a timeline as an editor shows it, as lines to compare.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };
export type Range = readonly [start: number, duration: number];

export const isObj = (value: Json | undefined): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
export const kindOf = (value: Json | undefined): string => (isObj(value) && typeof value.OTIO_SCHEMA === 'string' ? value.OTIO_SCHEMA.replace(/\.\d+$/, '') : '');
export const childrenOf = (value: Json | undefined): Json[] => (isObj(value) && Array.isArray(value.children) ? value.children : []);

/** A RationalTime in seconds. */
export function seconds(time: Json | undefined): number | null {
  if (!isObj(time) || typeof time.value !== 'number' || typeof time.rate !== 'number') return null;
  return time.value / time.rate;
}

export function rangeOf(range: Json | undefined): Range | null {
  if (!isObj(range)) return null;
  const start = seconds(range.start_time);
  const duration = seconds(range.duration);
  return start === null || duration === null ? null : [start, duration];
}

/** The media reference a clip plays. */
export function activeReference(clip: Obj): Json | undefined {
  if (isObj(clip.media_references)) return clip.media_references[typeof clip.active_media_reference_key === 'string' ? clip.active_media_reference_key : 'DEFAULT_MEDIA'];
  return clip.media_reference;
}

export function availableRange(item: Obj): Range {
  const kind = kindOf(item);
  if (kind === 'Clip') {
    const reference = activeReference(item);
    return (isObj(reference) ? rangeOf(reference.available_range) : null) ?? [0, 0];
  }
  let total = 0;
  for (const child of childrenOf(item)) {
    if (!isObj(child)) continue;
    if (kind === 'Stack') total = Math.max(total, duration(child));
    else if (kind === 'Track' && kindOf(child) !== 'Transition') total += duration(child);
  }
  return [0, total];
}

export function trimmedRange(item: Obj): Range {
  return rangeOf(item.source_range) ?? availableRange(item);
}

export function duration(item: Obj): number {
  return kindOf(item) === 'Transition' ? 0 : trimmedRange(item)[1];
}

/** range_of_child_at_index of a track (or of a stack: every child at 0). */
export function rangeOfChild(parent: Obj, index: number): Range {
  const children = childrenOf(parent) as Obj[];
  const child = children[index];
  if (kindOf(parent) === 'Stack') return [0, duration(child)];
  let start = 0;
  for (let i = 0; i < index; i++) start += duration(children[i]);
  if (kindOf(child) === 'Transition') {
    const before = seconds(child.in_offset) ?? 0;
    return [start - before, before + (seconds(child.out_offset) ?? 0)];
  }
  return [start, duration(child)];
}

export function handlesOfChild(track: Obj, index: number): [number | null, number | null] {
  const children = childrenOf(track) as Obj[];
  const before = children[index - 1];
  const after = children[index + 1];
  return [before && kindOf(before) === 'Transition' ? seconds(before.in_offset) : null, after && kindOf(after) === 'Transition' ? seconds(after.out_offset) : null];
}

/** Seconds as text, rounded as OTIO's double comparisons would forgive. */
const t = (value: number): string => (Math.round(value * 1e9) / 1e9).toFixed(9);

/**
 * A gap that says nothing but its length (no name, metadata, effects or markers; the start of a
 * gap's range says nothing, it has no media): the space between items, which any writer may make
 * again or split; its length is in the items' places and the track's duration.
 */
export function isBareGap(item: Obj): boolean {
  const empty = (value: Json | undefined) => value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (isObj(value) && Object.keys(value).length === 0);
  return kindOf(item) === 'Gap' && (item.name ?? '') === '' && empty(item.metadata) && empty(item.effects) && empty(item.markers) && (item.enabled ?? true) === true;
}

/**
 * The timeline as an editor shows it, one line per item: its path of names, kind, name, where it
 * plays in its parent (trimmed as track_trimmed_to_range trims), what of its media it shows,
 * its duration, metadata, effects and markers. Bare gaps are left out (see isBareGap).
 */
export function normalTree(root: Json): string[] {
  const lines: string[] = [];
  const top = kindOf(root) === 'Timeline' && isObj(root) ? root.tracks : root;
  if (isObj(root) && kindOf(root) === 'Timeline') {
    const { tracks: _tracks, ...fields } = root;
    void _tracks;
    lines.push(`timeline ${canonical({ metadata: {}, global_start_time: null, ...fields })}`);
  }
  if (isObj(top)) visit(top, 'stack', null, [0, duration(top)], lines);
  return lines;
}

/** Fields the lines give in their own way; any other is compared as written. */
const NORMALISED = new Set(['OTIO_SCHEMA', 'name', 'source_range', 'children', 'markers', 'media_reference', 'media_references', 'active_media_reference_key', 'in_offset', 'out_offset', 'metadata', 'effects', 'enabled', 'kind', 'transition_type', 'parameters']);

/** `window`: what of the item's own time shows, when something (its parent's trim) cuts it. */
function visit(item: Obj, path: string, window: Range | null, placed: Range, lines: string[]): void {
  const kind = kindOf(item);
  const own = trimmedRange(item);
  const shown = window ?? own;
  const fields: Obj = { schema: String(item.OTIO_SCHEMA), name: item.name ?? '', placed: [t(placed[0]), t(placed[1])], shows: [t(shown[0]), t(shown[1])], duration: t(shown[1]) };
  // What OTIO's reader fills in for a field a file leaves out.
  const defaults: Obj = kind === 'Transition' ? { metadata: {} } : { metadata: {}, effects: [], enabled: true, ...(kind === 'Track' ? { kind: 'Video' } : {}) };
  for (const key of ['metadata', 'effects', 'enabled', 'kind', 'transition_type', 'parameters']) {
    const value = item[key] ?? defaults[key];
    if (value !== undefined && (key !== 'kind' || kind === 'Track')) fields[key] = value;
  }
  const other = Object.entries(item).filter(([key]) => !NORMALISED.has(key));
  if (other.length > 0) fields.other = Object.fromEntries(other);
  if (kind === 'Clip') fields.media = [item.media_reference ?? null, item.media_references ?? null, item.active_media_reference_key ?? null];
  if (kind === 'Transition') fields.offsets = [t(seconds(item.in_offset) ?? 0), t(seconds(item.out_offset) ?? 0)];
  fields.markers = (Array.isArray(item.markers) ? item.markers : []).map((marker) => markerLine(marker));
  lines.push(`${path} ${canonical(fields)}`);
  if (kind !== 'Track' && kind !== 'Stack') return;
  // The composition's own trim, and what its parent shows of it.
  const visible: Range = rangeOf(item.source_range) ?? [0, own[1]];
  const bound = window === null ? visible : window;
  childrenOf(item).forEach((child, index) => {
    if (!isObj(child)) return;
    const [start, length] = rangeOfChild(item, index);
    const cut = kindOf(child) === 'Transition' ? holds(bound, start + (seconds(child.in_offset) ?? 0), [start, length]) : intersect([start, length], bound);
    if (cut === null || (kindOf(child) === 'Gap' && isBareGap(child))) return;
    const childStart = trimmedRange(child)[0];
    const inside: Range | null = cut[0] === start && cut[1] === length ? null : [childStart + cut[0] - start, cut[1]];
    visit(child, `${path}/${String(child.name ?? '')}`, inside, [cut[0] - bound[0], cut[1]], lines);
  });
}

const eps = 1e-9;

/** A transition stays whole when the window holds its cut. */
function holds([from, span]: Range, cut: number, range: Range): Range | null {
  return cut >= from - eps && cut <= from + span + eps ? range : null;
}

/** What of [start, start + length) shows in the window: none when it only touches an edge (a point on the edge shows). */
function intersect([start, length]: Range, [from, span]: Range): Range | null {
  const end = start + length;
  const to = from + span;
  if (length === 0) return start >= from - eps && start <= to + eps ? [start, 0] : null;
  if (end <= from + eps || start >= to - eps) return null;
  const a = Math.max(start, from);
  const b = Math.min(end, to);
  return [a, b - a];
}

function markerLine(marker: Json): Json {
  if (!isObj(marker)) return marker;
  const range = rangeOf(marker.marked_range);
  return { name: marker.name ?? '', color: marker.color ?? null, comment: marker.comment ?? null, metadata: marker.metadata ?? {}, at: range ? [t(range[0]), t(range[1])] : null };
}

/** JSON with every object's keys sorted: the order of keys says nothing in OTIO. */
function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObj(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  return JSON.stringify(value);
}
