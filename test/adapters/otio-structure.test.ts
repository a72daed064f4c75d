import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import { parseOtioJson } from '../../src/adapters/otio/otio-json.js';
import { loadIntoAnnot } from './codec-harness.js';
import { childrenOf, duration, handlesOfChild, isObj, kindOf, normalTree, rangeOfChild, trimmedRange, type Json, type Obj } from './otio-algorithms.js';

const FIXTURES = new URL('../../fixtures/otio/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/otio/', import.meta.url).pathname;
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'annot-otio-structure-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const read = (path: string): Json => parseOtioJson(readFileSync(path, 'utf8'), path) as Json;

/** OTIO → .annot → OTIO, as `annot convert` does it twice. */
async function roundTrip(path: string, name: string): Promise<Json> {
  const store = await loadIntoAnnot(otioCodec, path, join(work, `${name}.annot`));
  const target = join(work, `${name}.otio`);
  try {
    await otioCodec.dump(store, target, { targetName: target, warn: () => undefined });
  } finally {
    await store.close();
  }
  return read(target);
}

/** Lines only one side has: `-` before, `+` after. */
function differences(before: string[], after: string[]): string[] {
  const left = [...before];
  const right = [...after];
  const out: string[] = [];
  for (const line of before) {
    const index = right.indexOf(line);
    if (index !== -1) {
      right.splice(index, 1);
      left.splice(left.indexOf(line), 1);
    }
  }
  for (const line of left) out.push(`- ${line}`);
  for (const line of right) out.push(`+ ${line}`);
  if (out.length === 0 && before.join('\n') !== after.join('\n')) out.push('order');
  return out;
}

const files = [
  ...readdirSync(FIXTURES).filter((file) => file.endsWith('.otio')).map((file) => [`fixtures/otio/${file}`, join(FIXTURES, file)]),
  ...readdirSync(CORPUS).filter((file) => file.endsWith('.otio')).map((file) => [`fixtures/corpus/otio/${file}`, join(CORPUS, file)]),
];

/**
 * The differences that remain, each with its reason, matched in order. A file that holds one item
 * and no timeline comes back as a timeline: annot writes timelines, and its one track holds the item.
 */
const LONE_ITEM = (schema: string) => [new RegExp(`^- stack \\{.*"schema":"${schema}"`), /^\+ timeline /, /^\+ stack \{.*"schema":"Stack\.1"/, /^\+ stack\/ \{.*"schema":"Track\.1"/, new RegExp(`^\\+ stack// \\{.*"schema":"${schema}"`)];
const KNOWN: Readonly<Record<string, { reason: string; differences: RegExp[] }>> = {
  'fixtures/corpus/otio/otio_srt_example_subtitles_schema.otio': { reason: 'one Subtitles.1 item, no timeline: written as a timeline holding it', differences: LONE_ITEM('Subtitles\\.1') },
  'fixtures/corpus/otio/otio_unknown_schema.otio': { reason: 'one BogusName.3 item, no timeline: written as a timeline holding it', differences: LONE_ITEM('BogusName\\.3') },
};

describe('OTIO structure kept on OTIO → .annot → OTIO (every sample file)', () => {
  // The timeline as an editor shows it (otio-algorithms.ts normalTree): schema kinds, names,
  // placements and durations by OTIO's algorithms, what of their media items show, effects,
  // markers, transitions' offsets, metadata and every other field, before and after.
  it.each(files)('%s', async (name, path) => {
    const before = normalTree(read(path));
    const after = normalTree(await roundTrip(path, name.replace(/\W/g, '_')));
    const found = differences(before, after);
    const known = KNOWN[name]?.differences ?? [];
    expect(found.length).toBe(known.length);
    found.forEach((difference, index) => expect(difference).toMatch(known[index]));
  }, 60_000);
});

/** The track (or stack) at a path of child indices below the timeline's stack. */
function at(root: Json, ...indices: number[]): Obj {
  let node = (root as Obj).tracks as Obj;
  for (const index of indices) node = childrenOf(node)[index] as Obj;
  return node;
}

const secondsOf = (range: readonly [number, number]) => range.map((value) => Math.round(value * 1e6) / 1e6);

describe("OTIO's own assertions, before and after the round trip", () => {
  it("clip_example.otio: test_documentation's test_clip (a trailing gap keeps the track at 19/24 s)", async () => {
    const path = join(FIXTURES, 'otio_clip_example.otio');
    for (const timeline of [read(path), await roundTrip(path, 'clip-example')]) {
      const track = at(timeline, 0);
      expect(childrenOf(track).map((child) => [kindOf(child), (child as Obj).name])).toEqual([
        ['Gap', 'Gap A'],
        ['Clip', 'Clip-001'],
        ['Transition', 'Dissolve'],
        ['Gap', 'Gap B'],
      ]);
      expect(duration(track)).toBeCloseTo(19 / 24, 9);
      expect(secondsOf(trimmedRange(track))).toEqual(secondsOf([0, 19 / 24]));
      expect(secondsOf(rangeOfChild(track, 1))).toEqual(secondsOf([8 / 24, 3 / 24]));
      expect(handlesOfChild(track, 1)).toEqual([null, 1 / 24]);
      expect(duration(at(timeline, 0, 0))).toBeCloseTo(8 / 24, 9);
      expect(secondsOf(trimmedRange(at(timeline, 0, 1)))).toEqual(secondsOf([3 / 24, 3 / 24]));
      // The transition spans its cut at 11 from in_offset 2 before to out_offset 1 after.
      expect(secondsOf(rangeOfChild(track, 2))).toEqual(secondsOf([9 / 24, 3 / 24]));
    }
  });

  it("tlRender's Gap2.otio: each track ends with its gap (4 s and 3 s), the stack lasts 4 s", async () => {
    const path = join(FIXTURES, 'tlrender_Gap2.otio');
    for (const timeline of [read(path), await roundTrip(path, 'gap2')]) {
      expect(duration(at(timeline, 0))).toBeCloseTo(4, 9);
      expect(duration(at(timeline, 1))).toBeCloseTo(3, 9);
      expect(duration((timeline as Obj).tracks as Obj)).toBeCloseTo(4, 9);
      expect(childrenOf(at(timeline, 0)).map((child) => [kindOf(child), (child as Obj).name])).toEqual([
        ['Clip', 'BART_2021-02-07'],
        ['Gap', 'Gap'],
      ]);
    }
  });

  it('nested_example.otio: stacks and a track stay nested with their clips, each effect once', async () => {
    const path = join(FIXTURES, 'otio_nested_example.otio');
    const effects = (value: Json): string[] => (Array.isArray(value) ? value.flatMap(effects) : isObj(value) ? [...(Array.isArray(value.effects) ? value.effects.map((effect) => kindOf(effect)) : []), ...Object.values(value).flatMap(effects)] : []);
    for (const timeline of [read(path), await roundTrip(path, 'nested')]) {
      expect(childrenOf((timeline as Obj).tracks)).toHaveLength(1);
      const track = at(timeline, 0);
      expect(childrenOf(track).map((child) => [kindOf(child), childrenOf(child).map((inner) => (inner as Obj).name)])).toEqual([
        ['Clip', []],
        ['Stack', ['Clip Inside A Stack 1']],
        ['Clip', []],
        ['Stack', ['Clip Inside A Stack 2']],
        ['Clip', []],
        ['Track', ['Clip Inside A Track']],
        ['Clip', []],
      ]);
      expect(effects(timeline).sort()).toEqual(['FreezeFrame', 'LinearTimeWarp']);
      // Each nested item lasts what its source_range says; the track, the sum of its items.
      expect([1, 3, 5].map((index) => Math.round(duration(at(timeline, 0, index)) * 24))).toEqual([31, 29, 4]);
      expect(Math.round(duration(track) * 24)).toBe(636);
    }
  });

  it("track-end-trim.otio: the track's own source_range comes back, and it shows the same", async () => {
    const path = join(FIXTURES, 'track-end-trim.otio');
    const written = await roundTrip(path, 'track-end-trim');
    expect(trimmedRange(at(written, 0)).map((value) => value * 24)).toEqual([2, 10]);
    expect((at(written, 0).source_range as Obj).start_time).toEqual((at(read(path), 0).source_range as Obj).start_time);
  });

  it("tlRender's Markers.otio: markers stay on the clips, gaps and tracks that hold them", async () => {
    const path = join(FIXTURES, 'tlrender_Markers.otio');
    const owners = (timeline: Json) => [0, 1].flatMap((index) => [at(timeline, index), ...childrenOf(at(timeline, index))].map((item) => [(item as Obj).name, ((item as Obj).markers as Obj[]).map((marker) => marker.name)]));
    expect(owners(await roundTrip(path, 'markers'))).toEqual(owners(read(path)));
  });
});

/** Random timelines: tracks of clips, gaps, transitions between clips, nested stacks and tracks, markers and trims. */
const frame = (value: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: 24, value });
const span = (start: number, length: number) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: frame(start), duration: frame(length) });
const markerArb = fc
  .record({ name: fc.constantFrom('m', 'n', ''), at: fc.integer({ min: 0, max: 60 }), length: fc.integer({ min: 0, max: 3 }), color: fc.constantFrom('RED', 'GREEN') })
  .map(({ name, at, length, color }) => ({ OTIO_SCHEMA: 'Marker.2', name, color, metadata: {}, marked_range: span(at, length) }));
const metadataArb = fc.constantFrom({}, {}, { note: 'x' });
const clipArb = fc
  .record({ name: fc.constantFrom('a', 'b', 'c', ''), start: fc.integer({ min: 0, max: 50 }), length: fc.integer({ min: 1, max: 12 }), markers: fc.array(markerArb, { maxLength: 2 }), metadata: metadataArb, timedByMedia: fc.boolean() })
  .map(({ name, start, length, markers, metadata, timedByMedia }) => ({
    OTIO_SCHEMA: 'Clip.2',
    name,
    metadata,
    source_range: timedByMedia ? null : span(start, length),
    effects: [],
    markers,
    enabled: true,
    media_references: { DEFAULT_MEDIA: { OTIO_SCHEMA: 'ExternalReference.1', metadata: {}, name: '', target_url: `file:///${name}.mov`, available_range: timedByMedia ? span(start, length) : null } },
    active_media_reference_key: 'DEFAULT_MEDIA',
  }));
const gapArb = fc
  .record({ name: fc.constantFrom('', '', 'Gap'), length: fc.integer({ min: 1, max: 8 }), markers: fc.array(markerArb, { maxLength: 1 }) })
  .map(({ name, length, markers }) => ({ OTIO_SCHEMA: 'Gap.1', name, metadata: {}, source_range: span(0, length), effects: [], markers, enabled: true }));
const trimArb = fc.option(fc.record({ start: fc.integer({ min: 0, max: 6 }), length: fc.integer({ min: 1, max: 30 }) }), { nil: undefined });

const { tree: treeArb } = fc.letrec((tie) => ({
  tree: fc
    .record({ children: fc.array(tie('item'), { minLength: 1, maxLength: 5 }), trim: trimArb, name: fc.constantFrom('V', 'A', ''), markers: fc.array(markerArb, { maxLength: 1 }) })
    .map(({ children, trim, name, markers }) => ({ ...trackOf(name, withTransitions(children as Obj[]), trim), markers })),
  item: fc.oneof({ maxDepth: 2, depthIdentifier: 'nest' }, clipArb, clipArb, gapArb, tie('nestedTrack'), tie('nestedStack')),
  nestedTrack: fc.record({ inner: tie('tree'), trim: trimArb }).map(({ inner, trim }) => ({ ...(inner as Obj), name: 'N', ...(trim ? { source_range: span(trim.start, trim.length) } : {}) })),
  nestedStack: fc
    .record({ layers: fc.array(fc.oneof(tie('tree'), clipArb), { minLength: 1, maxLength: 2 }), trim: trimArb, markers: fc.array(markerArb, { maxLength: 1 }), effects: fc.constantFrom([], [{ OTIO_SCHEMA: 'LinearTimeWarp.1', name: '', metadata: {}, effect_name: 'LinearTimeWarp', time_scalar: 2 }]) })
    .map(({ layers, trim, markers, effects }) => ({ OTIO_SCHEMA: 'Stack.1', name: 'S', metadata: {}, source_range: trim ? span(trim.start, trim.length) : null, effects, markers, enabled: true, children: layers })),
}));

function trackOf(name: string, children: Obj[], trim: { start: number; length: number } | undefined): Obj {
  return { OTIO_SCHEMA: 'Track.1', name, metadata: {}, source_range: trim ? span(trim.start, trim.length) : null, effects: [], markers: [], enabled: true, kind: 'Video', children };
}

/** A transition between two clips next to each other, no longer than either. */
function withTransitions(children: Obj[]): Obj[] {
  const out: Obj[] = [];
  children.forEach((child, index) => {
    out.push(child);
    const next = children[index + 1];
    if (next && kindOf(child) === 'Clip' && kindOf(next) === 'Clip' && index % 2 === 0) {
      out.push({ OTIO_SCHEMA: 'Transition.1', name: 't', metadata: {}, transition_type: 'SMPTE_Dissolve', parameters: {}, in_offset: frame(1), out_offset: frame(1) });
    }
  });
  return out;
}

describe('OTIO structure kept on random timelines (property)', () => {
  it('gives the same timeline back, nesting, gaps, trims and markers included', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(treeArb, { minLength: 1, maxLength: 3 }), async (tracks) => {
        const timeline = { OTIO_SCHEMA: 'Timeline.1', name: 'random', metadata: {}, global_start_time: null, tracks: { OTIO_SCHEMA: 'Stack.1', name: 'tracks', metadata: {}, source_range: null, effects: [], markers: [], enabled: true, children: tracks } };
        const path = join(work, `random-${run++}.otio`);
        writeFileSync(path, JSON.stringify(timeline));
        expect(differences(normalTree(timeline as Json), normalTree(await roundTrip(path, `random-${run}`)))).toEqual([]);
      }),
      { numRuns: Number(process.env.OTIO_RUNS ?? 60), seed: Number(process.env.OTIO_SEED ?? 20261127) },
    );
  }, 120_000);
});
