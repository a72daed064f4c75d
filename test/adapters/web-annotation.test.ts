import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { webAnnotationCodec } from '../../src/adapters/web-annotation/codec.js';
import { webAnnotationFormat } from '../../src/adapters/web-annotation/format.js';
import { temporalFragment, withTemporal } from '../../src/adapters/web-annotation/media-fragment.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadIntoAnnot, loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/web_annotation/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/web_annotation/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-wa-'));

const load = (path: string, extra: Partial<LoadOptions> = {}) => loadWith(webAnnotationCodec, path, extra);

/** The fields web_annotation keeps: id, tier, time, asset and body (not confidence, not provenance). */
function kept(annotation: Annotation) {
  const reference = annotation.reference;
  return {
    id: annotation.id,
    tier: annotation.tier,
    interval: reference.kind === 'media' ? reference.interval.valueKey() : null,
    asset: reference.kind === 'media' ? reference.asset_id : null,
    body: annotation.body,
  };
}

async function roundTrip(store: AnnotationStore, name = 'out.jsonld') {
  const target = join(work, name);
  const report = await webAnnotationCodec.dump(store, target, { targetName: target, warn: () => undefined });
  return { ...(await load(target)), report, target };
}

const seconds = (a: Annotation) => {
  const interval = (a.reference as { interval: TimeInterval }).interval;
  return [interval.start.toSecondsString(), interval.end.toSecondsString()];
};

/** Loads a file into a fresh `.annot` (SqliteStore), as `annot convert x.ext x.annot` does. */
const intoAnnot = (path: string, name: string): Promise<SqliteStore> => loadIntoAnnot(webAnnotationCodec, path, join(work, `${name}.annot`));

describe('media fragments', () => {
  it.each([
    ['t=10,20', { start: '10', end: '20' }],
    ['t=npt:10,20', { start: '10', end: '20' }],
    ['t=,20', { start: '0', end: '20' }],
    ['t=7', { start: '7', end: null }],
    ['t=npt:00:01:02.5', { start: '62.5', end: null }],
    ['t=1:02:03.25,1:02:04', { start: '3723.25', end: '3724' }],
    ['xywh=1,2,3,4&t=11,42', { start: '11', end: '42' }],
    ['#t=3971.24', { start: '3971.24', end: null }],
  ])('reads %s', (fragment, expected) => {
    expect(temporalFragment(fragment)).toEqual(expected);
  });

  it('finds no time in spatial or XPointer fragments', () => {
    expect(temporalFragment('xywh=100,100,300,300')).toBeNull();
    expect(temporalFragment('xpointer(/doc/body/section[2]/para[1])')).toBeNull();
  });

  it('refuses malformed and non-npt times', () => {
    expect(() => temporalFragment('t=20,10')).toThrow(/start no later than the end/);
    expect(() => temporalFragment('t=abc')).toThrow(/expected npt seconds/);
    expect(() => temporalFragment('t=smpte:00:00:01:00')).toThrow(/smpte time codes are not supported/);
  });

  it('prints what it reads (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 10 ** 6 }), fc.boolean(), (start, length, open) => {
        const a = new RationalTime(start, 1000);
        const b = new RationalTime(start + length, 1000);
        const { fragment, exact } = withTemporal('xywh=1,2,3,4', a, open ? null : b);
        expect(exact).toBe(true);
        const read = temporalFragment(fragment)!;
        expect(RationalTime.fromSeconds(read.start, 1000).equals(a)).toBe(true);
        expect(read.end === null ? null : RationalTime.fromSeconds(read.end, 1000).equals(b)).toBe(open ? null : true);
      }),
    );
  });
});

describe('loading web annotations', () => {
  it('sniffs JSON-LD annotations', () => {
    expect(webAnnotationFormat.sniff(readFileSync(join(FIXTURES, 'collection.jsonld')))).toBe(true);
  });

  it('reads a collection with an embedded first page, every kind of time, and keeps untimed annotations in meta', async () => {
    const { annotations, store, warnings } = await load(join(FIXTURES, 'collection.jsonld'));
    expect(annotations.map(seconds)).toEqual([
      ['10', '20'],
      ['62.5', '64'],
      ['7', '7'],
      ['11', '42'],
      ['0', '20'],
    ]);
    expect(annotations.map((a) => (a.reference as { asset_id: string }).asset_id)).toEqual(Array(5).fill('http://example.org/talk.mp4'));
    expect(annotations[2].body.time).toEqual({ pointer: '', fragment: 't=7', in_iri: true, open_ended: true });
    expect(annotations[3].body.time).toEqual({ pointer: '', fragment: 'xywh=1,2,3,4&t=11,42', in_iri: true });
    expect(annotations[4].body.time).toEqual({ pointer: '/selector/1/value', fragment: 't=,20' });
    expect(warnings.join('\n')).toMatch(/1 annotations have no media-fragment time/);
    expect(JSON.parse((await store.getMeta('web_annotation.untimed'))!)).toEqual([{ index: 4, annotation: expect.objectContaining({ id: 'http://example.org/anno/image' }) }]);
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('takes urn:uuid ids as annotation ids and keeps other ids in the body', async () => {
    const { annotations } = await load(join(FIXTURES, 'collection.jsonld'));
    expect(annotations[0].id).toBe('6f1c2b1e-8a44-4a0e-9d55-0c3a4a1b2c3d');
    expect(annotations[0].body.source_id).toBeUndefined();
    expect(annotations[1].body.source_id).toBe('http://example.org/anno/npt');
  });

  it('attributes annotations to their creator and keeps the body, created and generator verbatim', async () => {
    const { annotations } = await load(join(FIXTURES, 'collection.jsonld'));
    expect(annotations[0].provenance.was_attributed_to).toBe('http://example.org/user/ann');
    expect(annotations[0].body.annotation).toMatchObject({
      created: '2024-03-01T10:00:00Z',
      generator: { id: 'http://example.org/tool', type: 'Software', name: 'Notes 1.0' },
      body: { type: 'TextualBody', value: 'Opening remarks', purpose: 'describing', format: 'text/plain', language: 'en' },
    });
  });

  it('names the JSON path of a malformed time', async () => {
    const path = join(work, 'bad-time.json');
    writeFileSync(path, JSON.stringify({ type: 'Annotation', target: { source: 'v.mp4', selector: { type: 'FragmentSelector', value: 't=9,3' } } }));
    const error = await load(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as Error).message).toBe(`${path} ($.target.selector.value): expected a start no later than the end in "t=9,3"`);
  });

  it('names the line and column of malformed JSON', async () => {
    const path = join(work, 'broken.json');
    writeFileSync(path, '{"type": "Annotation",\n "target": "a.mp4#t=1,2",,}');
    await expect(load(path)).rejects.toThrow(`${path}:2:26: expected a property name in double quotes; the file is not valid JSON`);
  });
});

describe('writing web annotations', () => {
  it('gives the document back as it was read: targets verbatim, open-ended t=7, untimed annotations in place', async () => {
    const original = JSON.parse(readFileSync(join(FIXTURES, 'collection.jsonld'), 'utf8'));
    const { store, annotations } = await load(join(FIXTURES, 'collection.jsonld'));
    const again = await roundTrip(store);
    expect(JSON.parse(readFileSync(again.target, 'utf8'))).toEqual(original);
    expect(again.annotations.map(kept)).toEqual(annotations.map(kept).map((k, i) => (i === 0 ? k : { ...k, id: expect.any(String) })));
  });

  it('rewrites only the t= of a target whose interval changed', async () => {
    const { store, annotations } = await load(join(FIXTURES, 'collection.jsonld'));
    const move = async (index: number, start: string, end: string) => {
      const a = annotations[index];
      await store.update(makeAnnotation({ ...a, reference: mediaRef('http://example.org/talk.mp4', TimeInterval.fromSeconds(start, end, 1000)) }));
    };
    await move(2, '8', '8');
    await move(3, '12', '40.5');
    await move(4, '1', '2');
    const { target } = await roundTrip(store);
    const items = JSON.parse(readFileSync(target, 'utf8')).first.items;
    expect(items[2].target).toBe('http://example.org/talk.mp4#t=8');
    expect(items[3].target).toBe('http://example.org/talk.mp4#xywh=1,2,3,4&t=12,40.5');
    expect(items[5].target.selector[1]).toEqual({ type: 'FragmentSelector', value: 't=1,2' });
  });

  it('writes urn:uuid ids and a FragmentSelector for annotations from other formats, and says what it drops', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'words' }));
    await store.add(
      makeAnnotation({
        id: '11111111-2222-4333-8444-555555555555',
        tier: 'words',
        reference: mediaRef('talk.wav', TimeInterval.fromSeconds('1.25', '2', 1000)),
        body: { text: 'hello' },
        body_schema_uri: 'annot://schema/label/v1',
        provenance: { was_generated_by: 'user:x', generated_at_time: RationalTime.now(1000) },
        confidence: 0.5,
      }),
    );
    const { target, annotations, report } = await roundTrip(store);
    const written = JSON.parse(readFileSync(target, 'utf8'));
    expect(written.type).toBe('AnnotationCollection');
    expect(written.first.items[0]).toMatchObject({
      id: 'urn:uuid:11111111-2222-4333-8444-555555555555',
      body: { type: 'TextualBody', value: 'hello' },
      target: { source: 'talk.wav', selector: { type: 'FragmentSelector', value: 't=1.25,2' } },
      creator: 'user:x',
    });
    expect(annotations.map((a) => [a.id, ...seconds(a)])).toEqual([['11111111-2222-4333-8444-555555555555', '1.25', '2']]);
    expect(report.dropped).toEqual([
      { what: 'provenance', count: 1 },
      { what: 'confidence', count: 1 },
    ]);
  });
});

describe('the web_annotation round trip (property)', () => {
  const item = fc.record({
    id: fc.uuid().map((u) => u.toLowerCase()),
    start: fc.integer({ min: 0, max: 10_000_000 }),
    length: fc.integer({ min: 0, max: 100_000 }),
    text: fc.string(),
    motivation: fc.option(fc.constantFrom('commenting', 'tagging', 'describing'), { nil: undefined }),
    inIri: fc.boolean(),
  });

  it('keeps ids, intervals, assets and bodies exactly through dump and load', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 6 }), async (items) => {
        const store = new MemoryStore();
        await store.addTier(makeTier({ name: 'annotations' }));
        for (const i of items) {
          const start = new RationalTime(i.start, 1000);
          const end = new RationalTime(i.start + i.length, 1000);
          const fragment = withTemporal('', start, end).fragment;
          const annotation: Record<string, unknown> = { type: 'Annotation', body: { type: 'TextualBody', value: i.text } };
          if (i.motivation) annotation.motivation = i.motivation;
          const target = i.inIri ? `http://example.org/v.mp4#${fragment}` : { source: 'http://example.org/v.mp4', selector: { type: 'FragmentSelector', value: fragment } };
          const time = i.inIri ? { pointer: '', fragment, in_iri: true } : { pointer: '/selector/value', fragment };
          await store.add(
            makeAnnotation({
              id: i.id,
              tier: 'annotations',
              reference: mediaRef('http://example.org/v.mp4', new TimeInterval(start, end)),
              body: { annotation, target, time },
              body_schema_uri: 'annot://schema/web-annotation/v1',
              provenance: { was_generated_by: 'test', generated_at_time: RationalTime.now(1000) },
            }),
          );
        }
        const before: Annotation[] = [];
        for await (const a of store.all()) before.push(a);
        const after = await roundTrip(store, 'property.jsonld');
        expect(after.annotations.map(kept)).toEqual(before.map(kept));
      }),
      { numRuns: 40 },
    );
  });
});

/** How many timed annotations each corpus file holds; none is rejected (see the notes). */
const TIMED: Record<string, number> = {
  'iiif_0015_start_pointselector.json': 0, // the PointSelector is the manifest's start, not an annotation
  'iiif_0064_opera_one_canvas_ranges.json': 2, // the #t= of structure Ranges are not annotations
  'iiif_0103_poetry_reading_annotations.json': 1,
  'iiif_0489_multimedia_canvas_xywh_t.json': 5,
  'ramp_lunchroom_manners_structure.json': 0,
  'w3c_anno17_video_target_accessibility.json': 0,
  'w3c_anno23_video_fragment_selector.json': 0, // t=30,60 selects part of the body, not of the target
  'w3c_anno2_audio_body.json': 0,
  'w3c_anno41_complete.json': 0, // an XPointer FragmentSelector refined by a TextPositionSelector: not time
  'w3c_invalid_fragmentselector_no_value.json': 0, // invalid per the W3C suite; loads as one untimed annotation kept verbatim
};

describe('the Web Annotation corpus', () => {
  const files = readdirSync(CORPUS).filter((name) => name.endsWith('.json'));
  it('has corpus files to check', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s loads, goes into a .annot file and back out as W3C JSON-LD unchanged', async (name) => {
    const first = await load(join(CORPUS, name));
    if (name in TIMED) expect(first.annotations).toHaveLength(TIMED[name]);
    const annot = await intoAnnot(join(CORPUS, name), name);
    const second = await roundTrip(annot, `corpus-${name}`);
    await annot.close();
    const withoutIds = (k: ReturnType<typeof kept>) => ({ ...k, id: k.body.source_id === undefined ? k.id : 'from source_id' });
    expect(second.annotations.map(kept).map(withoutIds)).toEqual(first.annotations.map(kept).map(withoutIds));
    expect(await second.store.getMeta('web_annotation.untimed')).toEqual(await first.store.getMeta('web_annotation.untimed'));
  });
});
