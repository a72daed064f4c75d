import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { loadIntoStore } from '../../src/adapters/load-into-store.js';
import { otioCodec } from '../../src/adapters/otio/codec.js';
import { otioFormat } from '../../src/adapters/otio/format.js';
import { OTIO_TIMELINE_META } from '../../src/adapters/otio/otio-model.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadOptions, loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/otio/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/otio/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-otio-'));

const options = (extra: Partial<LoadOptions> = {}): LoadOptions => loadOptions({ sourceName: 'in.otio', ...extra });

const load = (path: string, extra: Partial<LoadOptions> = {}) => loadWith(otioCodec, path, extra);


function loadText(text: string, name = 'case.otio') {
  const path = join(work, name);
  writeFileSync(path, text);
  return load(path, { sourceName: name });
}

async function dump(store: AnnotationStore, name = 'out.otio') {
  const target = join(work, name);
  const report = await otioCodec.dump(store, target, { targetName: target, warn: () => undefined });
  return { target, report, json: JSON.parse(readFileSync(target, 'utf8').replace(/-?\b(?:Inf|Infinity|NaN)\b/g, 'null')) as Record<string, unknown> };
}

/** What OTIO keeps of an annotation, without the clip-marker link (ids change on each import). */
function kept(annotations: readonly Annotation[]) {
  const rows = annotations.map((annotation) => {
    const { owner_annotation_id: _owner, ...body } = annotation.body as Record<string, unknown>;
    void _owner;
    return JSON.stringify({
      tier: annotation.tier,
      interval: annotation.reference.kind === 'media' ? annotation.reference.interval.valueKey() : null,
      asset: annotation.reference.kind === 'media' ? annotation.reference.asset_id : null,
      body,
    });
  });
  return rows.sort();
}

/** A tier as OTIO keeps it, without the id of the nested item it links to (ids change on each import, see kept). */
function tierView(tiers: readonly Tier[]) {
  return tiers.map((tier) => {
    const { nested_item: _item, ...metadata } = tier.metadata;
    void _item;
    return { name: tier.name, stereotype: tier.stereotype, parent: tier.parent, metadata };
  });
}

const seconds = (annotation: Annotation | undefined) =>
  annotation?.reference.kind === 'media' ? [annotation.reference.interval.start.toFraction(), annotation.reference.interval.end.toFraction()].map((f) => `${f.num}/${f.den}`) : null;

describe('the otio format descriptor', () => {
  it('sniffs OTIO JSON', () => {
    expect(otioFormat.sniff(readFileSync(join(FIXTURES, 'hand-written.otio')))).toBe(true);
    expect(otioFormat.sniff(Buffer.from('{"annotations": []}'))).toBe(false);
    expect(otioFormat.bodySchemas).toEqual(['annot://schema/otio-clip/v1', 'annot://schema/otio-marker/v1']);
  });
});

describe('loading an OTIO timeline', () => {
  it('lays out clips after gaps at exact rational times, NTSC float rates included', async () => {
    const { annotations, store } = await load(join(FIXTURES, 'hand-written.otio'));
    const named = (name: string) => annotations.find((annotation) => annotation.body.name === name);
    expect(seconds(named('ntsc'))).toEqual(['0/1', '1001/625']); // 48 frames at 30000/1001
    // gap of 1 s, then 24 frames at 23.976 (the decimal as written: 23976/1000, not NTSC)
    expect(seconds(named('film'))).toEqual(['1626/625', `${1626 * 2997 + 625 * 3000}/${625 * 2997}`].map((text) => {
      const [num, den] = text.split('/').map(BigInt);
      const g = (a: bigint, b: bigint): bigint => (b === 0n ? a : g(b, a % b));
      return `${num / g(num, den)}/${den / g(num, den)}`;
    }));
    expect(named('ntsc')?.reference).toMatchObject({ asset_id: 'file:///a.mov' });
    expect(named('ntsc')?.body).toMatchObject({ kind: 'clip', otio_schema: 'Clip.2', metadata: { note: 'ntsc' }, active_media_reference_key: 'DEFAULT_MEDIA' });
    expect((await store.listTiers()).map((tier) => tier.name)).toEqual(['V1', 'V1 / nested / inner', 'untitled', 'markers']);
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('reads markers of the timeline, tracks and clips at their time on the track', async () => {
    const { annotations } = await load(join(FIXTURES, 'hand-written.otio'));
    const marker = (name: string) => annotations.find((annotation) => annotation.body.kind === 'marker' && annotation.body.name === name);
    expect(marker('timeline start')).toMatchObject({ tier: 'markers', body: { owner: 'timeline' } });
    expect(seconds(marker('track note'))).toEqual(['2/1', '3/1']);
    expect(seconds(marker('on clip'))).toEqual(['1001/3000', '1001/3000']); // 10 frames into the clip at 30000/1001
    const clip = annotations.find((annotation) => annotation.body.name === 'ntsc');
    expect(marker('on clip')?.body).toMatchObject({ owner: 'clip', owner_annotation_id: clip?.id, color: 'BLUE' });
  });

  it('spans a transition over its cut from in_offset before to out_offset after, without moving the clips', async () => {
    const { annotations } = await load(join(FIXTURES, 'hand-written.otio'));
    const film = annotations.find((annotation) => annotation.body.name === 'film');
    const transition = annotations.find((annotation) => annotation.body.kind === 'transition');
    const after = annotations.find((annotation) => annotation.body.name === 'after');
    const cut = film?.reference.kind === 'media' ? film.reference.interval.end : null;
    expect(after?.reference.kind === 'media' && cut && after.reference.interval.start.equals(cut)).toBe(true);
    if (transition?.reference.kind !== 'media' || !cut) throw new Error('no transition');
    expect(transition.reference.interval.start.toSeconds()).toBeCloseTo(cut.toSeconds() - 0.25, 9);
    expect(transition.reference.interval.end.toSeconds()).toBeCloseTo(cut.toSeconds() + 0.25, 9);
    expect(transition.body).toMatchObject({ name: 'dissolve', extra: { transition_type: 'SMPTE_Dissolve' } });
  });

  it('flattens a nested stack into a tier of its own at its place in the timeline', async () => {
    const { annotations } = await load(join(FIXTURES, 'hand-written.otio'));
    const stack = annotations.find((annotation) => annotation.body.name === 'nested');
    const inside = annotations.find((annotation) => annotation.body.name === 'inside');
    expect(stack?.body).toMatchObject({ kind: 'item', otio_schema: 'Stack.1' });
    expect(inside?.tier).toBe('V1 / nested / inner');
    // the stack shows its children from 12 frames in: the inner clip, after a 12-frame gap, starts where the stack does
    if (stack?.reference.kind !== 'media' || inside?.reference.kind !== 'media') throw new Error('missing');
    expect(inside.reference.interval.start.equals(stack.reference.interval.start)).toBe(true);
  });

  it('honours --rate by quantizing to it and counting, and --strict-time refuses to', async () => {
    const exact = await otioCodec.load(join(FIXTURES, 'hand-written.otio'), options());
    for await (const annotation of exact.annotations) expect(annotation).toBeDefined();
    expect(exact.quantization().count).toBe(0);
    const forced = await otioCodec.load(join(FIXTURES, 'hand-written.otio'), options({ rate: 1000 }));
    const rates = new Set<number>();
    for await (const annotation of forced.annotations) if (annotation.reference.kind === 'media') rates.add(annotation.reference.interval.start.r);
    expect([...rates]).toEqual([1000]);
    expect(forced.quantization().count).toBeGreaterThan(0);
    await expect(otioCodec.load(join(FIXTURES, 'hand-written.otio'), options({ rate: 1000, strictTime: true }))).rejects.toThrow(/strict-time/);
  });

  const malformed: Array<[string, string, RegExp]> = [
    ['truncated JSON', '{\n  "OTIO_SCHEMA": "Timeline.1",\n  "tracks": {', /case\.otio:3:14: expected a property name in double quotes/],
    ['a file that is not an OTIO object', '[1, 2]', /case\.otio \(\$\): an OTIO document/],
    ['a track child that is not an item', '{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "children": [7]}]}}', /\(\$\.tracks\.children\[0\]\.children\[0\]\): an OTIO item object/],
    ['a clip without any duration', '{"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "children": [{"OTIO_SCHEMA": "Clip.1", "name": "x", "media_reference": null}]}]}}', /\(\$\.tracks\.children\[0\]\.children\[0\]\): a clip with a source_range/],
  ];
  it.each(malformed)('rejects %s with a FormatParseError naming the file and the place', async (_what, text, message) => {
    const attempt = loadText(text);
    await expect(attempt).rejects.toBeInstanceOf(FormatParseError);
    await expect(attempt).rejects.toThrow(message);
  });
});

describe('dumping OTIO', () => {
  it('writes a Timeline with versioned schema names that loads back with markers', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'shots' }));
    const provenance = { was_generated_by: 't', generated_at_time: RationalTime.now(1000) };
    await store.addMany([
      makeAnnotation({ tier: 'shots', reference: mediaRef('file:///x.mov', new TimeInterval(new RationalTime(1, 2), new RationalTime(2, 1))), body: { text: 'shot 1' }, body_schema_uri: 'annot://schema/label/v1', provenance }),
      makeAnnotation({ tier: 'shots', reference: mediaRef('file:///x.mov', TimeInterval.point(new RationalTime(3, 1))), body: { text: 'cue' }, body_schema_uri: 'annot://schema/label/v1', provenance }),
    ]);
    const { json, target } = await dump(store);
    const text = readFileSync(target, 'utf8');
    for (const schema of ['"Timeline.1"', '"Stack.1"', '"Track.1"', '"Clip.2"', '"Gap.1"', '"Marker.2"', '"RationalTime.1"', '"TimeRange.1"', '"ExternalReference.1"']) expect(text).toContain(schema);
    expect(json.OTIO_SCHEMA).toBe('Timeline.1');
    const back = await load(target);
    expect(back.annotations.map((annotation) => [annotation.body.kind, annotation.body.name, seconds(annotation)])).toEqual([
      ['marker', 'cue', ['3/1', '3/1']],
      ['clip', 'shot 1', ['1/2', '2/1']],
    ]);
  });

  it('puts overlapping annotations of one tier on extra tracks that load back into the same tier', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'layer' }));
    const provenance = { was_generated_by: 't', generated_at_time: RationalTime.now(1000) };
    const at = (start: number, end: number, name: string) => makeAnnotation({ tier: 'layer', reference: mediaRef('m', TimeInterval.fromSeconds(start, end, 24)), body: { kind: 'clip', name }, body_schema_uri: 'annot://schema/otio-clip/v1', provenance });
    await store.addMany([at(0, 2, 'a'), at(1, 3, 'b'), at(2, 4, 'c')]);
    const { json, target } = await dump(store, 'lanes.otio');
    expect(((json.tracks as { children: unknown[] }).children).length).toBe(2);
    const back = await load(target);
    expect((await back.store.listTiers()).map((tier) => tier.name)).toEqual(['layer']);
    expect(back.annotations.map((annotation) => `${annotation.body.name}:${seconds(annotation)?.join('-')}`).sort()).toEqual(['a:0/1-2/1', 'b:1/1-3/1', 'c:2/1-4/1']);
  });
});

describe('OTIO round trips', () => {
  it('keeps the hand-written timeline: tiers, clips, gaps, transitions, nested items and markers', async () => {
    const first = await load(join(FIXTURES, 'hand-written.otio'));
    const { target } = await dump(first.store, 'rt.otio');
    const second = await load(target);
    expect(tierView(await second.store.listTiers())).toEqual(tierView(await first.store.listTiers()));
    expect(kept(second.annotations)).toEqual(kept(first.annotations));
    expect(await second.store.getMeta(OTIO_TIMELINE_META)).toEqual(await first.store.getMeta(OTIO_TIMELINE_META));
  });

  it('round-trips random stores through OTIO (property)', async () => {
    const rates = fc.constantFrom(24, 25, 30, 1000, 48000);
    const span = fc.tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 500 }), rates);
    const name = fc.string({ maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom('a', 'b'), span, name), { maxLength: 10 }), async (items) => {
        const store = new MemoryStore();
        await store.addTier(makeTier({ name: 'a' }));
        await store.addTier(makeTier({ name: 'b', metadata: { note: 'x' } }));
        const provenance = { was_generated_by: 't', generated_at_time: RationalTime.now(1000) };
        const annotations = items.map(([tier, [start, length, rate], label]) =>
          makeAnnotation({
            tier,
            reference: mediaRef('file:///m.mov', new TimeInterval(new RationalTime(start, rate), new RationalTime(start + length, rate))),
            body: length === 0 ? { kind: 'marker', name: label, color: 'RED' } : { kind: 'clip', name: label },
            body_schema_uri: length === 0 ? 'annot://schema/otio-marker/v1' : 'annot://schema/otio-clip/v1',
            provenance,
          }),
        );
        await store.addMany(annotations);
        const { target } = await dump(store, 'property.otio');
        const back = await load(target);
        const view = (list: readonly Annotation[]) => list.map((annotation) => `${annotation.tier}|${annotation.body.kind}|${annotation.body.name}|${annotation.reference.kind === 'media' ? annotation.reference.interval.valueKey() : ''}`).sort();
        expect(view(back.annotations)).toEqual(view(annotations));
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * Every corpus file loads (or is rejected, see the table), goes into a .annot file, comes back
 * out as OTIO and loads again with the same tiers and annotations.
 */
// Files rejected as invalid, and why. None so far: a lone item at the top (otio_unknown_schema's
// BogusName.3, the Subtitles.1 file) loads as a one-item track.
const REJECTED: Readonly<Record<string, RegExp>> = {};
const corpusFiles = readdirSync(CORPUS).filter((file) => file.endsWith('.otio'));
describe('the OTIO corpus', () => {
  it.each(corpusFiles.length > 0 ? corpusFiles : ['none'])('%s round-trips through .annot and back to OTIO', async (file) => {
    if (REJECTED[file]) {
      await expect(load(join(CORPUS, file))).rejects.toThrow(REJECTED[file]);
      await expect(load(join(CORPUS, file))).rejects.toBeInstanceOf(FormatParseError);
      return;
    }
    const first = await load(join(CORPUS, file));
    for (const annotation of first.annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
    const sqlite = await SqliteStore.open(join(work, `${file}.annot`));
    try {
      await loadIntoStore({ tiers: await first.store.listTiers(), meta: await first.store.listMeta(), annotations: first.store.all(), quantization: () => ({ count: 0, maxErrorSeconds: 0 }) }, sqlite);
      const { target } = await dump(sqlite, `corpus-${file}`);
      const second = await load(target);
      expect(tierView(await second.store.listTiers())).toEqual(tierView(await first.store.listTiers()));
      expect(kept(second.annotations)).toEqual(kept(first.annotations));
      expect(first.document.quantization().count).toBe(0);
    } finally {
      await sqlite.close();
    }
  }, 60000);
});
