import { FormatParseError } from '../../src/adapters/errors.js';
import type { Finding } from '../../src/adapters/finding.js';
import { checkedBody } from '../../src/adapters/otio/body-check.js';
import type { OtioObject } from '../../src/adapters/otio/otio-json.js';
import { OTIO_CLIP_SCHEMA } from '../../src/adapters/otio/otio-model.js';
import { isBareGap } from '../../src/adapters/otio/read-bodies.js';
import { itemDuration } from '../../src/adapters/otio/read-duration.js';
import { readMarkers } from '../../src/adapters/otio/read-markers.js';
import { walkTopStack } from '../../src/adapters/otio/read-stack.js';
import { newReadState, type ReadState } from '../../src/adapters/otio/read-state.js';
import { topStack } from '../../src/adapters/otio/read-top.js';
import { walkTrack } from '../../src/adapters/otio/read-track.js';
import { trimWindow, windowOver } from '../../src/adapters/otio/read-trim.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { loadOptions } from './codec-harness.js';

/**
 * Each pass of the OTIO reader on its own, over a state made for the test: the top of the file,
 * durations, trims, markers, a track's children, the stack's tracks and nested items, and the
 * check of each body against its schema. Times are in frames at 24.
 */
function state(): { state: ReadState; findings: Finding[] } {
  const findings: Finding[] = [];
  return { state: newReadState(loadOptions({ sourceName: 't.otio', report: (finding) => findings.push(finding) })), findings };
}

const rt = (value: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value });
const range = (start: number, duration: number) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start), duration: rt(duration) });
const clip = (name: string, start: number, duration: number, extra: OtioObject = {}): OtioObject => ({ OTIO_SCHEMA: 'Clip.2', name, source_range: range(start, duration), ...extra });
const gap = (duration: number, extra: OtioObject = {}): OtioObject => ({ OTIO_SCHEMA: 'Gap.1', name: '', source_range: range(0, duration), effects: [], markers: [], enabled: true, metadata: {}, ...extra });
const track = (name: string, children: OtioObject[], extra: OtioObject = {}): OtioObject => ({ OTIO_SCHEMA: 'Track.1', name, children, ...extra });
const frames = (time: RationalTime) => (time.v * 24) / time.r;
const f = (n: number) => new RationalTime(n, 24);

/** What the walk kept: tier, body kind and name, and the interval in frames. */
const kept = (read: ReadState) => read.pending.map((p) => [p?.tier, p?.body.kind, p?.body.name, frames(p!.interval.start), frames(p!.interval.end)]);

describe('topStack: the top of the file', () => {
  it("takes a Timeline's stack, keeping the timeline's and the stack's own fields apart from the tracks", () => {
    const { state: read } = state();
    const top = topStack(read, { OTIO_SCHEMA: 'Timeline.1', name: 'T', tracks: { OTIO_SCHEMA: 'Stack.1', name: 'S', children: [track('V', [])], markers: [] } });
    expect(top).toMatchObject({ path: '$.tracks', parts: { timeline: { OTIO_SCHEMA: 'Timeline.1', name: 'T' }, stack: { OTIO_SCHEMA: 'Stack.1', name: 'S' } } });
    expect(top.children).toHaveLength(1);
  });

  it('reads a lone track as the one track of a stack, and a lone item as the one item of one track', () => {
    const { state: read } = state();
    expect(topStack(read, track('V', [])).children).toEqual([track('V', [])]);
    const lone = topStack(read, clip('c', 0, 1)).children[0] as OtioObject;
    expect(lone).toMatchObject({ OTIO_SCHEMA: 'Track.1', children: [clip('c', 0, 1)] });
  });

  it('refuses a bare SerializableObject and a timeline without a stack, naming the path', () => {
    const { state: read } = state();
    expect(() => topStack(read, { OTIO_SCHEMA: 'SerializableObject.1' })).toThrow(/t\.otio \(\$\.OTIO_SCHEMA\): an OTIO timeline/);
    expect(() => topStack(read, { OTIO_SCHEMA: 'Timeline.1', tracks: [] })).toThrow(FormatParseError);
  });
});

describe("itemDuration: OTIO's trimmed_range duration", () => {
  it("is a source_range's, else a clip's media's; a track's items end to end without transitions; a stack's longest", () => {
    const { state: read } = state();
    expect(frames(itemDuration(read, clip('c', 5, 7), '$'))).toBe(7);
    const media = { OTIO_SCHEMA: 'Clip.2', name: 'm', media_references: { DEFAULT_MEDIA: { OTIO_SCHEMA: 'ExternalReference.1', available_range: range(100, 9) } } };
    expect(frames(itemDuration(read, media, '$'))).toBe(9);
    const transition = { OTIO_SCHEMA: 'Transition.1', in_offset: rt(2), out_offset: rt(2) };
    expect(frames(itemDuration(read, track('t', [clip('a', 0, 3), transition, gap(4), clip('b', 0, 5)]), '$'))).toBe(12);
    expect(frames(itemDuration(read, { OTIO_SCHEMA: 'Stack.1', children: [track('x', [clip('a', 0, 3)]), track('y', [clip('b', 0, 8)])] }, '$'))).toBe(8);
  });

  it('refuses a clip that has no duration at all, or one below zero, naming its path', () => {
    const { state: read } = state();
    expect(() => itemDuration(read, { OTIO_SCHEMA: 'Clip.1', media_reference: null }, '$.x')).toThrow(/\(\$\.x\): a clip with a source_range/);
    expect(() => itemDuration(read, clip('c', 0, -1), '$.x')).toThrow(/\(\$\.x\.source_range\.duration\): a duration of 0 or more/);
  });
});

describe('trimWindow: what a trimmed track shows', () => {
  it('is none without a source_range; from the origin for its duration with one; no more than a nested item shows', () => {
    const { state: read } = state();
    expect(trimWindow(read, track('t', [clip('a', 0, 10)]), '$', f(0))).toBeNull();
    const window = trimWindow(read, track('t', [clip('a', 0, 10)], { source_range: range(2, 5) }), '$', f(0));
    if (window === null || window === 'offset only') throw new Error('expected a window');
    expect(window.clip(f(-2), f(8))).toEqual({ start: f(0), end: f(5) });
    const bounded = trimWindow(read, track('t', [clip('a', 0, 10)]), '$', f(0), { start: f(1), end: f(3) });
    if (bounded === null || bounded === 'offset only') throw new Error('expected a window');
    expect(bounded.clip(f(0), f(10))).toEqual({ start: f(1), end: f(3) });
  });

  it("reads a trim that shows none of the items (older cmx_3600 output) as an offset only", () => {
    const { state: read } = state();
    expect(trimWindow(read, track('t', [clip('a', 0, 10)], { source_range: range(-100, 5) }), '$', f(0))).toBe('offset only');
  });

  it('keeps a point on an edge, and leaves out an item that only touches it', () => {
    const window = windowOver(f(0), f(5));
    expect(window.clip(f(5), f(5))).toEqual({ start: f(5), end: f(5) });
    expect(window.clip(f(5), f(7))).toBeNull();
    expect(window.holds(f(5))).toBe(true);
  });
});

describe('readMarkers: markers at their time on the timeline', () => {
  it("places each marker at its owner's time zero plus its marked_range, and names its owner", () => {
    const { state: read } = state();
    const marker = { OTIO_SCHEMA: 'Marker.2', name: 'm', color: 'RED', marked_range: range(3, 1) };
    readMarkers(read, [marker], '$.markers', { tier: 'V', asset: 'a', origin: f(10), owner: 'clip', ownerId: 'id-1' });
    expect(kept(read)).toEqual([['V', 'marker', 'm', 13, 14]]);
    expect(read.pending[0]?.body).toMatchObject({ owner: 'clip', owner_annotation_id: 'id-1', color: 'RED', marked_range: marker.marked_range });
  });

  it('refuses a marker list holding something else', () => {
    const { state: read } = state();
    expect(() => readMarkers(read, [{ OTIO_SCHEMA: 'Clip.2' }], '$.markers', { tier: 'V', asset: 'a', origin: f(0), owner: 'track' })).toThrow(/\(\$\.markers\[0\]\): a "Marker\.2" object/);
  });
});

describe("walkTrack: a track's children", () => {
  it('lays items end to end, leaves out a bare gap between them, keeps a trailing gap and a gap that says something', () => {
    const { state: read } = state();
    const children = [gap(2, { name: 'named' }), clip('a', 0, 3), gap(4), clip('b', 0, 5), gap(6)];
    walkTrack(read, track('V', children), '$', { tier: 'V', origin: f(0) });
    expect(kept(read)).toEqual([
      ['V', 'item', 'named', 0, 2],
      ['V', 'clip', 'a', 2, 5],
      ['V', 'clip', 'b', 9, 14],
      ['V', 'item', '', 14, 20],
    ]);
  });

  it('spans a transition from in_offset before its cut to out_offset after, without moving the clips', () => {
    const { state: read } = state();
    const transition = { OTIO_SCHEMA: 'Transition.1', name: 't', in_offset: rt(1), out_offset: rt(2) };
    walkTrack(read, track('V', [clip('a', 0, 3), transition, clip('b', 0, 3)]), '$', { tier: 'V', origin: f(0) });
    expect(kept(read)).toEqual([
      ['V', 'clip', 'a', 0, 3],
      ['V', 'transition', 't', 2, 5],
      ['V', 'clip', 'b', 3, 6],
    ]);
  });

  it("cuts what crosses the track's trim, leaves out what lies outside it, and says how many", () => {
    const { state: read, findings } = state();
    walkTrack(read, track('V', [clip('a', 10, 5), clip('b', 20, 5), clip('c', 30, 5)], { source_range: range(2, 5) }), '$', { tier: 'V', origin: f(0) });
    expect(kept(read)).toEqual([
      ['V', 'clip', 'a', 0, 3],
      ['V', 'clip', 'b', 3, 5],
    ]);
    expect(read.pending[0]?.body.source_range).toEqual(range(12, 3));
    expect(findings.map((finding) => [finding.code, finding.message])).toEqual([['otio_track_trimmed', expect.stringMatching(/1 item\(s\) wholly outside it left out, 2 cut to it/)]]);
  });

  it("puts a nested stack's layers on tiers linked to the item's annotation, from the stack's own time zero", () => {
    const { state: read } = state();
    const stack = { OTIO_SCHEMA: 'Stack.1', name: 'S', source_range: range(2, 4), children: [track('inner', [clip('x', 0, 10)]), clip('alone', 0, 6)] };
    walkTrack(read, track('V', [clip('a', 0, 3), stack]), '$', { tier: 'V', origin: f(0) });
    expect(kept(read)).toEqual([
      ['V', 'clip', 'a', 0, 3],
      ['V', 'item', 'S', 3, 7],
      ['V / S / inner', 'clip', 'x', 3, 7],
      ['V / S / alone', 'clip', 'alone', 3, 7],
    ]);
    const itemId = read.pending[1]?.id;
    expect(read.tiers.map((tier) => [tier.name, tier.metadata.nested_in, tier.metadata.nested_item, tier.metadata.otio_layer])).toEqual([
      ['V / S / inner', 'V', itemId, undefined],
      ['V / S / alone', 'V', itemId, 'item'],
    ]);
    expect(read.pending[1]?.body).not.toHaveProperty('extra.children');
  });

  it("gives a nested track one tier; its fields (effects, source_range) stay on the item's annotation only", () => {
    const { state: read } = state();
    const nested = track('N', [clip('x', 0, 2)], { source_range: range(0, 2), effects: [{ OTIO_SCHEMA: 'FreezeFrame.1' }] });
    walkTrack(read, track('V', [nested]), '$', { tier: 'V', origin: f(0) });
    expect(read.tiers.map((tier) => [tier.name, tier.metadata])).toEqual([['V / N', { track_name: 'N', otio_schema: 'Track.1', nested_in: 'V', nested_item: read.pending[0]?.id }]]);
    expect(read.pending[0]?.body).toMatchObject({ kind: 'item', otio_schema: 'Track.1', extra: { effects: [{ OTIO_SCHEMA: 'FreezeFrame.1' }] } });
  });
});

describe("walkTopStack: the stack's tracks", () => {
  it('makes a tier of each track, and merges back the lanes our dump added for overlaps', () => {
    const { state: read } = state();
    const lane = track('V', [clip('b', 0, 2)], { metadata: { annot: { lane_of: 0 } } });
    walkTopStack(read, { children: [track('V', [clip('a', 0, 3)]), lane], markers: undefined, path: '$', parts: { timeline: {}, stack: {} } });
    expect(read.tiers.map((tier) => tier.name)).toEqual(['V']);
    expect(kept(read)).toEqual([
      ['V', 'clip', 'a', 0, 3],
      ['V', 'clip', 'b', 0, 2],
    ]);
  });
});

describe('checkedBody: a body its own schema refuses', () => {
  it('passes a valid body as it is', () => {
    const { state: read, findings } = state();
    const body = { kind: 'clip', name: 'a', metadata: {} };
    expect(checkedBody(read, body, OTIO_CLIP_SCHEMA, '$.c')).toBe(body);
    expect(findings).toEqual([]);
  });

  it("moves a field the schema refuses to extra, verbatim, with a warning naming its JSON path", () => {
    const { state: read, findings } = state();
    const body = checkedBody(read, { kind: 'clip', name: 7, metadata: true, active_media_reference_key: { a: 1 }, extra: { enabled: true } }, OTIO_CLIP_SCHEMA, '$.c');
    expect(body).toEqual({ kind: 'clip', name: '', extra: { enabled: true, name: 7, metadata: true, active_media_reference_key: { a: 1 } } });
    expect(findings.map((finding) => [finding.code, finding.severity, finding.location.path])).toEqual([
      ['otio_field_kept_verbatim', 'warning', '$.c.name'],
      ['otio_field_kept_verbatim', 'warning', '$.c.metadata'],
      ['otio_field_kept_verbatim', 'warning', '$.c.active_media_reference_key'],
    ]);
  });

  it('refuses a body whose own fields the schema refuses, naming the path', () => {
    const { state: read } = state();
    expect(() => checkedBody(read, { kind: 'nonsense', name: '' }, OTIO_CLIP_SCHEMA, '$.c')).toThrow(/t\.otio \(\$\.c\.kind\): a value the otio-clip\/v1 body can hold/);
  });
});

describe('isBareGap', () => {
  it('is a gap that says nothing but its length', () => {
    expect(isBareGap(gap(3))).toBe(true);
    expect(isBareGap({ OTIO_SCHEMA: 'Gap.1', source_range: range(0, 3) })).toBe(true);
    expect(isBareGap(gap(3, { name: 'Gap' }))).toBe(false);
    expect(isBareGap(gap(3, { metadata: { a: 1 } }))).toBe(false);
    expect(isBareGap(gap(3, { source_range: range(5, 3) }))).toBe(true);
    expect(isBareGap(gap(3, { markers: null }))).toBe(false);
    expect(isBareGap(gap(3, { effects: [{ OTIO_SCHEMA: 'Effect.1' }] }))).toBe(false);
  });
});
