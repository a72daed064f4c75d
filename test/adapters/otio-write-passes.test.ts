import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import type { OtioObject } from '../../src/adapters/otio/otio-json.js';
import { OTIO_CLIP_SCHEMA, OTIO_MARKER_SCHEMA } from '../../src/adapters/otio/otio-model.js';
import { allocate } from '../../src/adapters/otio/write-allocate.js';
import { collect } from '../../src/adapters/otio/write-collect.js';
import { emitTimeline } from '../../src/adapters/otio/write-emit.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { MemoryStore } from '../../src/store/memory.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadWith } from './codec-harness.js';

/**
 * Each pass of the OTIO writer on its own: collect sorts what a store holds, allocate decides
 * where each tier goes, emit builds the tree. Times in frames at 24.
 */
const provenance = { was_generated_by: 't', generated_at_time: new RationalTime(0, 1000) };
const span = (start: number, end: number) => new TimeInterval(new RationalTime(start, 24), new RationalTime(end, 24));
const rt = (value: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value });
const range = (start: number, duration: number) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start), duration: rt(duration) });

function item(tier: string, start: number, end: number, body: Record<string, unknown>, id?: string): Annotation {
  const schema = body.kind === 'marker' ? OTIO_MARKER_SCHEMA : OTIO_CLIP_SCHEMA;
  return makeAnnotation({ id, tier, reference: mediaRef('file:///m.mov', span(start, end)), body, body_schema_uri: schema, provenance });
}

const STACK_ID = '00000000-0000-4000-8000-000000000001';
const CLIP_ID = '00000000-0000-4000-8000-000000000002';

/** A track V: clip a (0-3) with a marker, a nested stack S (3-7, its own time from 2) holding tier "V / S / inner", a transition at 3. */
async function store(): Promise<MemoryStore> {
  const out = new MemoryStore();
  await out.addTier(makeTier({ name: 'V', metadata: { track_name: 'V', otio_schema: 'Track.1', track: { kind: 'Video' } } }));
  await out.addTier(makeTier({ name: 'V / S / inner', metadata: { track_name: 'inner', otio_schema: 'Track.1', track: {}, nested_in: 'V', nested_item: STACK_ID } }));
  await out.addTier(makeTier({ name: 'markers', metadata: { otio_role: 'timeline-markers' } }));
  await out.addMany([
    item('V', 0, 3, { kind: 'clip', name: 'a', otio_schema: 'Clip.2', source_range: range(10, 3) }, CLIP_ID),
    item('V', 1, 1, { kind: 'marker', name: 'on a', owner: 'clip', owner_annotation_id: CLIP_ID }),
    item('V', 3, 7, { kind: 'item', name: 'S', otio_schema: 'Stack.1', source_range: range(2, 4) }, STACK_ID),
    item('V', 2, 4, { kind: 'transition', name: 't', otio_schema: 'Transition.1', extra: { in_offset: rt(1), out_offset: rt(1) } }),
    item('V / S / inner', 3, 7, { kind: 'clip', name: 'x', otio_schema: 'Clip.2', source_range: range(0, 4) }),
    item('markers', 5, 5, { kind: 'marker', name: 'on timeline', owner: 'timeline' }),
  ]);
  return out;
}

describe('collect: what each annotation becomes', () => {
  it('sorts items, transitions, item markers and timeline markers, and finds the nested items', async () => {
    const collected = await collect(await store());
    expect(collected.tiers.map((tier) => [tier.name, tier.items.map((a) => a.body.name), tier.transitions.map((a) => a.body.name)])).toEqual([
      ['V', ['a', 'S'], ['t']],
      ['V / S / inner', ['x'], []],
    ]);
    expect([...collected.itemMarkers.keys()]).toEqual([CLIP_ID]);
    expect(collected.timelineMarkers.map((a) => a.body.name)).toEqual(['on timeline']);
    expect([...collected.nestedItems.keys()]).toEqual([STACK_ID]);
    expect(collected.dropped.list()).toEqual([{ what: 'provenance', count: 6 }]);
  });
});

describe('allocate: where each tier goes', () => {
  it('puts a nested tier inside its item, and a tier whose item is gone at the top, saying it was nested', async () => {
    const plan = allocate(await collect(await store()));
    expect(plan.top.map((p) => p.content.name)).toEqual(['V']);
    expect(plan.inside.get(STACK_ID)?.map((p) => p.content.name)).toEqual(['V / S / inner']);
    const orphaned = await store();
    await orphaned.delete(STACK_ID);
    const second = allocate(await collect(orphaned));
    expect(second.top.map((p) => [p.content.name, p.orphan])).toEqual([
      ['V', false],
      ['V / S / inner', true],
    ]);
  });

  it('splits a tier whose annotations overlap into lanes', async () => {
    const out = new MemoryStore();
    await out.addTier(makeTier({ name: 'L' }));
    await out.addMany([item('L', 0, 4, { kind: 'clip', name: 'a' }), item('L', 2, 6, { kind: 'clip', name: 'b' }), item('L', 4, 8, { kind: 'clip', name: 'c' })]);
    const plan = allocate(await collect(out));
    expect(plan.top[0].lanes.map((lane) => lane.map((a) => a.body.name))).toEqual([['a', 'c'], ['b']]);
  });
});

describe('emit: the tree', () => {
  it('lays the track out with the transition on its cut, the nested stack holding its tier from its own time zero, and markers on their owners', async () => {
    const timeline = emitTimeline(allocate(await collect(await store())));
    const stack = timeline.tracks as OtioObject;
    expect((stack.markers as OtioObject[]).map((marker) => marker.name)).toEqual(['on timeline']);
    const [track] = stack.children as OtioObject[];
    const children = track.children as OtioObject[];
    expect(children.map((child) => [child.OTIO_SCHEMA, child.name])).toEqual([
      ['Clip.2', 'a'],
      ['Transition.1', 't'],
      ['Stack.1', 'S'],
    ]);
    // The clip's media starts at 10: its marker at 1 on the timeline is at 11 in its media.
    expect((children[0].markers as OtioObject[]).map((marker) => (marker.marked_range as OtioObject).start_time)).toEqual([{ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: 11 }]);
    // The stack's own time zero is at 3 - 2 = 1 on the timeline: its inner track starts with a 2-frame gap.
    const inner = (children[2].children as OtioObject[])[0];
    expect(inner).toMatchObject({ OTIO_SCHEMA: 'Track.1', name: 'inner' });
    expect((inner.children as OtioObject[]).map((child) => [child.OTIO_SCHEMA, (child.source_range as OtioObject).duration])).toEqual([
      ['Gap.1', { OTIO_SCHEMA: 'RationalTime.1', rate: 24, value: 2 }],
      ['Clip.2', rt(4)],
    ]);
    expect(children[2].source_range).toEqual(range(2, 4));
  });
});

describe('the passes together: overlapping annotations of a nested tier', () => {
  it('go to an extra track at the top that names its tier (lane_of_tier), and load back into that tier', async () => {
    const source = await store();
    await source.addMany([item('V / S / inner', 4, 6, { kind: 'clip', name: 'y', otio_schema: 'Clip.2' })]);
    const timeline = emitTimeline(allocate(await collect(source)));
    const tracks = (timeline.tracks as OtioObject).children as OtioObject[];
    expect(tracks.map((track) => [track.name, (track.metadata as OtioObject | undefined)?.annot ?? null])).toEqual([
      ['V', null],
      ['inner', { lane_of_tier: 'V / S / inner' }],
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'annot-otio-lanes-')), 'lanes.otio');
    writeFileSync(path, JSON.stringify(timeline));
    const back = await loadWith(otioCodec, path);
    expect((await back.store.listTiers()).map((tier) => tier.name)).toEqual(['V', 'V / S / inner', 'markers']);
    expect(back.annotations.filter((a) => a.tier === 'V / S / inner').map((a) => a.body.name).sort()).toEqual(['x', 'y']);
  });
});
