import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { labelStudioCodec } from '../../src/adapters/label-studio/codec.js';
import { jamsFormat } from '../../src/adapters/jams/format.js';
import { labelStudioFormat } from '../../src/adapters/label-studio/format.js';
import { inferFormat, readHead, registerAdapter } from '../../src/adapters/registry.js';
import { webAnnotationFormat } from '../../src/adapters/web-annotation/format.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { loadIntoAnnot, loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/label_studio/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/label_studio/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-ls-'));

const load = (path: string, extra: Partial<LoadOptions> = {}) => loadWith(labelStudioCodec, path, extra);

/** The fields label_studio keeps: tier, time, asset, body (the whole result) and confidence. */
function kept(annotation: Annotation) {
  const reference = annotation.reference;
  return {
    tier: annotation.tier,
    interval: reference.kind === 'media' ? reference.interval.valueKey() : null,
    asset: reference.kind === 'media' ? reference.asset_id : null,
    body: annotation.body,
    confidence: annotation.confidence,
  };
}

async function roundTrip(store: AnnotationStore, name = 'out.labelstudio.json') {
  const target = join(work, name);
  const report = await labelStudioCodec.dump(store, target, { targetName: target, warn: () => undefined });
  return { ...(await load(target)), report, target };
}

/** Loads a file into a fresh `.annot` (SqliteStore), as `annot convert x.ext x.annot` does. */
const intoAnnot = (path: string, name: string): Promise<SqliteStore> => loadIntoAnnot(labelStudioCodec, path, join(work, `${name}.annot`));

describe('the label_studio format descriptor', () => {
  it('claims .labelstudio.json and sniffs exports but not JAMS', () => {
    expect(labelStudioFormat.extensions).toContain('.labelstudio.json');
    expect(labelStudioFormat.sniff(readFileSync(join(FIXTURES, 'predictions.labelstudio.json')))).toBe(true);
    expect(labelStudioFormat.sniff(Buffer.from('{"annotations": [{"namespace": "beat", "annotation_metadata": {}, "data": []}], "file_metadata": {}}'))).toBe(false);
  });
});

describe('telling the JSON formats apart', () => {
  beforeAll(() => [jamsFormat, labelStudioFormat, webAnnotationFormat].forEach(registerAdapter));
  const fixture = (dir: string, name: string) => new URL(`../../fixtures/${dir}/${name}`, import.meta.url).pathname;

  it('takes .labelstudio.json as Label Studio whatever it holds', () => {
    expect(inferFormat({ path: 'x.labelstudio.json', head: Buffer.from('{"type": "Annotation"}') }).name).toBe('label_studio');
  });

  it.each([
    ['label_studio', 'audio-regions-task.json', 'label_studio'],
    ['label_studio', 'timeline-webhook.json', 'label_studio'],
    ['web_annotation', 'single.json', 'web_annotation'],
    ['jams', 'dense-pitch.jams', 'jams'],
  ])('decides a plain .json by its content (%s/%s is %s)', (dir, name, expected) => {
    expect(inferFormat({ path: 'input.json', head: readHead(fixture(dir, name)) }).name).toBe(expected);
  });
});

describe('loading Label Studio exports', () => {
  it('turns audio regions into annotations on their from_name tier and keeps untimed results out of the annotations', async () => {
    const { annotations, store, warnings } = await load(join(FIXTURES, 'predictions.labelstudio.json'));
    expect((await store.listTiers()).map((t) => t.name)).toEqual(['speaker', 'transcript', 'activity']);
    expect(annotations.map((a) => [a.tier, kept(a).interval, a.body.id])).toEqual([
      ['speaker', '1/2|9/4', 'r1'],
      ['transcript', '1/2|9/4', 'r2'],
      ['speaker', '5/2|4/1', 'p1'],
      ['speaker', '4/1|41/8', 'p2'],
      ['activity', TimeInterval.fromSeconds('1602708145.233', '1602708375.312', 1000).valueKey(), 't1'],
    ]);
    expect(warnings.join('\n')).toMatch(/1 Label Studio results have no time/);
    expect(await store.getMeta('label_studio.tasks')).toContain('"choices":["calm"]');
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('gives predictions their score as confidence (the result score first, then the prediction score)', async () => {
    const { annotations } = await load(join(FIXTURES, 'predictions.labelstudio.json'));
    expect(annotations.map((a) => a.confidence)).toEqual([null, null, 0.35, 0.8, null]);
    expect(annotations[2].provenance.was_attributed_to).toBe('agent:diarizer-2');
    expect(annotations[0].provenance.was_attributed_to).toBe('ann@example.org');
  });

  it('keeps region ids, to_name, type, origin and the other result keys in the body', async () => {
    const { annotations } = await load(join(FIXTURES, 'predictions.labelstudio.json'));
    expect(annotations[1].body).toEqual({
      id: 'r2',
      type: 'textarea',
      from_name: 'transcript',
      to_name: 'audio',
      value: { start: 0.5, end: 2.25, text: ['hello there'] },
      time_unit: 'seconds',
      task: 0,
      container: { kind: 'annotations', index: 0 },
      extra: { parentID: 'r1' },
    });
    expect(annotations[4].body.time_unit).toBe('epoch_ms');
  });

  it('reads timeline frame ranges at the frame rate the label config gives', async () => {
    const { annotations } = await load(join(FIXTURES, 'timeline-webhook.json'));
    expect(annotations.map((a) => [kept(a).interval, a.body.framerate, kept(a).asset])).toEqual([
      ['1/25|2/5', '25', 'tests/opossum_snow_short.mp4'],
      ['1/5|3/5', '25', 'tests/opossum_snow_short.mp4'],
    ]);
  });

  it('spans a keyframe track from its first keyframe to the one that disables it, or to framesCount', async () => {
    const path = join(work, 'video.json');
    const key = (frame: number, enabled: boolean) => ({ frame, enabled, time: frame / 25, x: 1, y: 1, width: 2, height: 2, rotation: 0 });
    const track = (id: string, sequence: object[]) => ({ id, type: 'videorectangle', from_name: 'box', to_name: 'video', value: { sequence, framesCount: 500, labels: ['Car'] } });
    writeFileSync(path, JSON.stringify([{ data: { video: 'v.mp4' }, annotations: [{ result: [track('a', [key(10, true), key(50, false)]), track('b', [key(100, true), key(120, true)])] }] }]));
    const { annotations } = await load(path);
    expect(annotations.map((a) => [kept(a).interval, a.body.framerate, a.body.time_unit])).toEqual([
      ['2/5|2/1', '25', 'frames'],
      ['4/1|20/1', '25', 'frames'],
    ]);
  });

  it('reads float seconds exactly or says how many it rounded', async () => {
    const { annotations, document } = await load(join(FIXTURES, 'audio-regions-task.json'));
    expect(annotations).toHaveLength(2);
    const { count } = document.quantization();
    const start = (annotations[0].reference as { interval: TimeInterval }).interval.start;
    expect(Math.abs(start.toSeconds() - 12.778410892095105)).toBeLessThan(1e-9);
    expect(count).toBeGreaterThanOrEqual(0);
  });

  it('rejects a region that ends before it starts, naming its JSON path', async () => {
    const path = join(work, 'backwards.json');
    writeFileSync(path, JSON.stringify([{ data: { audio: 'a.wav' }, annotations: [{ result: [{ id: 'x', type: 'labels', from_name: 'l', to_name: 'audio', value: { start: 3, end: 1, labels: ['A'] } }] }] }]));
    const error = await load(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as Error).message).toMatch(/\(\$\[0\]\.annotations\[0\]\.result\[0\]\.value\): expected a region with 0 <= start <= end/);
  });

  it('names the line and column of malformed JSON', async () => {
    const path = join(work, 'broken.json');
    writeFileSync(path, '[\n  {"data": {"audio": "a.wav"},\n   "annotations": [}]');
    await expect(load(path)).rejects.toThrow(`${path}:3:20: expected a JSON value; the file is not valid JSON`);
  });

  it('rejects JSON that is no Label Studio export', async () => {
    const path = join(work, 'other.json');
    writeFileSync(path, '{"hello": 1}');
    await expect(load(path)).rejects.toThrow(`${path} ($): expected a Label Studio export`);
  });
});

describe('writing Label Studio imports', () => {
  it('writes tasks back with their data, annotators, predictions and untimed results', async () => {
    const { store, annotations } = await load(join(FIXTURES, 'predictions.labelstudio.json'));
    const again = await roundTrip(store);
    expect(again.annotations.map(kept)).toEqual(annotations.map(kept));
    const written = JSON.parse(readFileSync(again.target, 'utf8'));
    expect(written[0].data).toEqual({ audio: 'https://example.org/talk.wav' });
    expect(written[0].annotations[0].completed_by).toEqual({ id: 3, email: 'ann@example.org' });
    expect(written[0].annotations[0].result.map((r: { id: string }) => r.id)).toEqual(['r1', 'r2', 'c1']);
    expect(written[0].predictions[0].result[0]).toEqual({ id: 'p1', type: 'labels', from_name: 'speaker', to_name: 'audio', value: { start: 2.5, end: 4, labels: ['Bob'] }, score: 0.35 });
  });

  it('writes a changed interval into the region and keeps the float spelling of unchanged ones', async () => {
    const { store, annotations } = await load(join(FIXTURES, 'audio-regions-task.json'));
    const [first] = annotations;
    await store.update(makeAnnotation({ ...first, reference: mediaRef((first.reference as { asset_id: string }).asset_id, TimeInterval.fromSeconds('10', '11.5', 1000)) }));
    const { target } = await roundTrip(store);
    const written = JSON.parse(readFileSync(target, 'utf8'));
    const values = written[0].annotations[0].result.map((r: { value: unknown }) => r.value);
    expect(values).toEqual([{ choices: ['Lo-Fi'] }, { start: 10, end: 11.5, labels: ['Beat'] }, { end: 59.39854733358493, labels: ['Other'], start: 55.747572792986325 }]);
  });

  it('writes annotations from other formats as labels results on one task per asset', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'words' }));
    const provenance = { was_generated_by: 'user:x', generated_at_time: RationalTime.now(1000) };
    await store.add(makeAnnotation({ tier: 'words', reference: mediaRef('a.wav', TimeInterval.fromSeconds('1', '2', 1000)), body: { text: 'hi' }, body_schema_uri: 'annot://schema/label/v1', provenance }));
    await store.add(makeAnnotation({ tier: 'words', reference: mediaRef('a.wav', TimeInterval.fromSeconds('2', '3', 1000)), body: { text: 'yo' }, body_schema_uri: 'annot://schema/label/v1', provenance, confidence: 0.4 }));
    const { target, annotations } = await roundTrip(store);
    const written = JSON.parse(readFileSync(target, 'utf8'));
    expect(written).toHaveLength(1);
    expect(written[0].data).toEqual({ audio: 'a.wav' });
    expect(written[0].annotations[0].result[0].value).toEqual({ start: 1, end: 2, labels: ['hi'] });
    expect(written[0].predictions[0].result[0].score).toBe(0.4);
    expect(annotations.map((a) => [a.tier, kept(a).interval, a.confidence])).toEqual([
      ['words', '1/1|2/1', null],
      ['words', '2/1|3/1', 0.4],
    ]);
  });
});

describe('the label_studio round trip (property)', () => {
  const region = fc.record({
    tier: fc.constantFrom('speaker', 'label', 'transcript'),
    start: fc.integer({ min: 0, max: 10_000_000 }),
    length: fc.integer({ min: 0, max: 100_000 }),
    labels: fc.array(fc.string(), { maxLength: 3 }),
    kind: fc.constantFrom('annotations' as const, 'predictions' as const),
    confidence: fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000)),
    id: fc.stringMatching(/^[A-Za-z0-9_-]{10}$/),
  });

  it('keeps tiers, intervals, results and confidence exactly through dump and load', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(region, { maxLength: 8 }), async (regions) => {
        const store = new MemoryStore();
        for (const name of new Set(regions.map((r) => r.tier))) await store.addTier(makeTier({ name }));
        for (const r of regions) {
          const start = new RationalTime(r.start, 1000);
          const end = new RationalTime(r.start + r.length, 1000);
          await store.add(
            makeAnnotation({
              tier: r.tier,
              reference: mediaRef('https://example.org/a.wav', new TimeInterval(start, end)),
              body: { id: r.id, type: 'labels', from_name: r.tier, to_name: 'audio', value: { start: start.toSeconds(), end: end.toSeconds(), labels: r.labels }, time_unit: 'seconds', task: 0, container: { kind: r.kind, index: 0 } },
              body_schema_uri: 'annot://schema/label-studio-region/v1',
              provenance: { was_generated_by: 'test', generated_at_time: RationalTime.now(1000) },
              confidence: r.confidence,
            }),
          );
        }
        const before: Annotation[] = [];
        for await (const a of store.all()) before.push(a);
        const after = await roundTrip(store, 'property.labelstudio.json');
        // The writer groups a task's results by container, annotations first.
        const order = (a: Annotation) => ((a.body as { container: { kind: string } }).container.kind === 'annotations' ? 0 : 1);
        const expected = [...before].sort((a, b) => order(a) - order(b)).map(kept);
        expect(after.annotations.map(kept)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });
});

/** Corpus files that are rejected, and why: none. Untimed results load into meta only (see the counts). */
const TIMED_REGIONS: Record<string, number> = {
  'lsc_legacy_completions_348.json': 0, // legacy completions whose start/end are character offsets in text, not times
  'lsc_pathtrack_ls-video_export.json': 1, // one videorectangle keyframe track
  'lsf_audio_classification_no_times.json': 0, // a file-level choice only
  'lsf_audio_regions_task.json': 2,
  'lsf_empty_result.json': 0,
  'lsf_timeseries_epoch_ms.json': 2,
  'lsf_timeseries_index_readonly.json': 2,
  'lsf_video_bboxes.json': 3,
  'lsml_timelinelabels_webhook.json': 2,
};

describe('the Label Studio corpus', () => {
  const files = readdirSync(CORPUS).filter((name) => name.endsWith('.json'));
  it('has corpus files to check', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s loads, goes into a .annot file and back out as Label Studio unchanged', async (name) => {
    const first = await load(join(CORPUS, name));
    if (name in TIMED_REGIONS) expect(first.annotations).toHaveLength(TIMED_REGIONS[name]);
    const annot = await intoAnnot(join(CORPUS, name), name);
    const second = await roundTrip(annot, `corpus-${name}`);
    await annot.close();
    expect(second.annotations.map(kept)).toEqual(first.annotations.map(kept));
    expect(second.annotations.map((a) => a.id)).toEqual(first.annotations.map((a) => a.id).map(() => expect.any(String)));
  });
});
