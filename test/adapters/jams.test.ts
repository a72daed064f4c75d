import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { LoadOptions } from '../../src/adapters/adapter.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { jamsCodec } from '../../src/adapters/jams/codec.js';
import { jamsFormat } from '../../src/adapters/jams/format.js';
import { makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import type { AnnotationStore } from '../../src/store/store.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { allOf, loadIntoAnnot, loadOptions, loadWith } from './codec-harness.js';

const FIXTURES = new URL('../../fixtures/jams/', import.meta.url).pathname;
const CORPUS = new URL('../../fixtures/corpus/jams/', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'annot-jams-'));

const options = (extra: Partial<LoadOptions> = {}): LoadOptions => loadOptions({ sourceName: 'in.jams', ...extra });

const load = (path: string, extra: Partial<LoadOptions> = {}) => loadWith(jamsCodec, path, extra);

const all = allOf;

/** The fields the jams format keeps: tier, time, asset, body and confidence (not ids, not provenance). */
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

async function roundTrip(store: AnnotationStore, name = 'out.jams') {
  const target = join(work, name);
  const report = await jamsCodec.dump(store, target, { targetName: target, warn: () => undefined });
  return { ...(await load(target)), report, target };
}

/** Loads a file into a fresh `.annot` (SqliteStore), as `annot convert x.ext x.annot` does. */
const intoAnnot = (path: string, name: string): Promise<SqliteStore> => loadIntoAnnot(jamsCodec, path, join(work, `${name}.annot`));

describe('the jams format descriptor', () => {
  it('sniffs JAMS text and gzip .jamz, and not Label Studio exports', () => {
    expect(jamsFormat.sniff(readFileSync(join(FIXTURES, 'two-chords-nan.jams')))).toBe(true);
    expect(jamsFormat.sniff(readFileSync(join(FIXTURES, 'beats-nan.jamz')))).toBe(true);
    expect(jamsFormat.sniff(Buffer.from('[{"data": {"audio": "a.wav"}, "annotations": [{"result": []}]}]'))).toBe(false);
  });
});

describe('loading JAMS', () => {
  it('makes one tier per JAMS annotation and numbers a namespace that occurs twice', async () => {
    const { store } = await load(join(FIXTURES, 'two-chords-nan.jams'));
    const tiers = await store.listTiers();
    expect(tiers.map((tier) => tier.name)).toEqual(['chord#1', 'chord#2']);
    expect(tiers[0].metadata.jams).toMatchObject({ namespace: 'chord', position: 0, dense: false });
  });

  it('keeps values verbatim, confidence in [0, 1] as the confidence, and other confidences and NaN in the body', async () => {
    const { annotations } = await load(join(FIXTURES, 'two-chords-nan.jams'));
    expect(annotations.map(kept).slice(0, 3)).toEqual([
      { tier: 'chord#1', interval: '0/1|5/2', asset: 'jams:musicbrainz:0000-1111', body: { value: 'C:maj', confidence: null, non_finite: { '/confidence': 'NaN' } }, confidence: null },
      { tier: 'chord#1', interval: '5/2|15/4', asset: 'jams:musicbrainz:0000-1111', body: { value: 'G:maj' }, confidence: 0.75 },
      {
        tier: 'chord#1',
        interval: '15/4|15/4',
        asset: 'jams:musicbrainz:0000-1111',
        body: { value: { root: 'N', weights: [1, null, null] }, confidence: 7, non_finite: { '/value/weights/1': 'NaN', '/value/weights/2': '-Infinity' } },
        confidence: null,
      },
    ]);
    for (const annotation of annotations) expect(validateBody(annotation.body_schema_uri, annotation.body).errors).toEqual([]);
  });

  it('attributes annotations to the annotator, else the curator, and stamps the adapter', async () => {
    const { annotations } = await load(join(FIXTURES, 'two-chords-nan.jams'));
    expect(annotations[0].provenance.was_attributed_to).toBe('A. Nnotator');
    expect(annotations[3].provenance.was_attributed_to).toBe('Curator');
    expect(annotations[0].provenance.was_generated_by).toBe('adapter:jams');
  });

  it('reads gzip-compressed .jamz files', async () => {
    const { annotations } = await load(join(FIXTURES, 'beats-nan.jamz'));
    expect(annotations.length).toBeGreaterThan(10);
    expect(annotations[0].body).toEqual({ value: 1, confidence: null, non_finite: { '/confidence': 'NaN' } });
  });

  it('reads the old dense column form and writes it back dense', async () => {
    const { store, annotations } = await load(join(FIXTURES, 'dense-pitch.jams'));
    expect(annotations.map((a) => [kept(a).interval, a.body.value])).toEqual([
      ['1/10|3/10', 220],
      ['3/10|2/5', 246.942],
      ['1/2|3/5', 277.183],
      ['11/20|13/20', 293.665],
    ]);
    const { target } = await roundTrip(store);
    const written = JSON.parse(readFileSync(target, 'utf8'));
    expect(written.annotations[0].data.time).toEqual([0.1, 0.3, 0.5, 0.55]);
  });

  it('picks the finest decimal rate the times need and quantizes nothing when they fit', async () => {
    const { annotations, document } = await load(join(FIXTURES, 'two-chords-nan.jams'));
    const interval = (annotations[0].reference as { interval: TimeInterval }).interval;
    // decimalRateFor should give 100 here; until it reduces 5/2 correctly it may pick a finer power of ten.
    expect(String(interval.start.r)).toMatch(/^10*$/);
    expect(document.quantization()).toEqual({ count: 0, maxErrorSeconds: 0 });
  });

  it('honours --rate and counts what it had to round, or refuses under --strict-time', async () => {
    const coarse = await load(join(FIXTURES, 'two-chords-nan.jams'), { rate: 2 });
    expect(coarse.document.quantization().count).toBeGreaterThan(0);
    await expect(load(join(FIXTURES, 'two-chords-nan.jams'), { rate: 2, strictTime: true })).rejects.toThrow(/strict-time/);
  });

  it('rejects a negative time with the JSON path of the observation', async () => {
    const path = join(work, 'negative.jams');
    writeFileSync(path, JSON.stringify({ annotations: [{ namespace: 'beat', data: [{ time: 1, duration: 0, value: 1 }, { time: -20, duration: 0, value: 1 }] }], file_metadata: {} }));
    const error = await jamsCodec.load(path, options({ sourceName: path })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatParseError);
    expect((error as Error).message).toBe(`${path} ($.annotations[0].data[1].time): expected a non-negative time in seconds, got -20 (JAMS times and durations cannot be negative)`);
  });

  it('names the line and column of malformed JSON', async () => {
    const path = join(work, 'broken.jams');
    writeFileSync(path, '{\n  "annotations": [\n    {"namespace": "beat", "data": [}\n  ]\n}');
    await expect(jamsCodec.load(path, options({ sourceName: path }))).rejects.toThrow(`${path}:3:36: expected a JSON value; the file is not valid JSON`);
  });
});

describe('writing JAMS', () => {
  it('writes NaN tokens, metadata and sandboxes back as they were', async () => {
    const { store } = await load(join(FIXTURES, 'two-chords-nan.jams'));
    const { target, annotations, report } = await roundTrip(store);
    const text = readFileSync(target, 'utf8');
    expect(text).toContain('"confidence": NaN');
    expect(text).toContain('-Infinity');
    const original = await load(join(FIXTURES, 'two-chords-nan.jams'));
    expect(annotations.map(kept)).toEqual(original.annotations.map(kept));
    expect(await store.listMeta()).toEqual(await (await load(target)).store.listMeta());
    expect((await (await load(target)).store.listTiers()).map((t) => t.metadata)).toEqual((await store.listTiers()).map((t) => t.metadata));
    expect(report.dropped).toEqual([
      { what: 'ids', count: 4 },
      { what: 'provenance', count: 4 },
    ]);
  });

  it('gzips when the target is .jamz', async () => {
    const { store } = await load(join(FIXTURES, 'beats-nan.jamz'));
    const { target } = await roundTrip(store, 'out.jamz');
    expect(JSON.parse(gunzipSync(readFileSync(target)).toString('utf8').replace(/NaN/g, 'null')).annotations.length).toBeGreaterThan(0);
  });

  it('writes a tier from another format in a namespace of the JAMS schemata, its name in the sandbox, and reads the name back', async () => {
    // Tier names are not namespaces (jams.load refuses "words" with NamespaceError): words are
    // `lyrics`, song sections `segment_open`, any other text `tag_open` (issue 30).
    const store = new MemoryStore();
    const provenance = { was_generated_by: 'user:x', generated_at_time: RationalTime.now(1000) };
    const add = (tier: string, start: string, body: Record<string, string>, schema: string) =>
      store.add(makeAnnotation({ tier, reference: mediaRef('a.wav', TimeInterval.fromSeconds(start, '2', 1000)), body, body_schema_uri: schema, provenance }));
    for (const name of ['A: Äußerung', 'words', 'sections']) await store.addTier(makeTier({ name }));
    await add('A: Äußerung', '1.5', { text: 'hallo', speaker: 'A' }, 'annot://schema/label/v1');
    await add('words', '1', { text: 'hello' }, 'annot://schema/word/v1');
    await add('sections', '0', { label: 'verse 1' }, 'annot://schema/song-section/v1');
    const { annotations, report, target } = await roundTrip(store);
    const written = JSON.parse(readFileSync(target, 'utf8')) as { annotations: Array<{ namespace: string; sandbox: unknown; data: Array<{ value: unknown }> }> };
    expect(written.annotations.map((annotation) => [annotation.namespace, annotation.sandbox, annotation.data.map((observation) => observation.value)])).toEqual([
      ['tag_open', { annot: { tier: 'A: Äußerung' } }, ['hallo']],
      ['lyrics', { annot: { tier: 'words' } }, ['hello']],
      ['segment_open', { annot: { tier: 'sections' } }, ['verse 1']],
    ]);
    expect(annotations.map(kept)).toEqual([
      { tier: 'A: Äußerung', interval: '3/2|2/1', asset: 'jams:unspecified', body: { value: 'hallo' }, confidence: null },
      { tier: 'words', interval: '1/1|2/1', asset: 'jams:unspecified', body: { value: 'hello' }, confidence: null },
      { tier: 'sections', interval: '0/1|2/1', asset: 'jams:unspecified', body: { value: 'verse 1' }, confidence: null },
    ]);
    expect(report.dropped).toContainEqual({ what: 'body fields other than a JAMS value', count: 1 });
  });

  it('refuses a time before 0, which JAMS cannot hold', async () => {
    const store = new MemoryStore();
    await store.addTier(makeTier({ name: 'markers' }));
    await store.add(makeAnnotation({ tier: 'markers', reference: mediaRef('a.wav', TimeInterval.fromSeconds('-1', '2', 1000)), body: { text: 'early' }, body_schema_uri: 'annot://schema/label/v1', provenance: { was_generated_by: 'user:x', generated_at_time: RationalTime.now(1000) } }));
    await expect(roundTrip(store, 'negative.jams')).rejects.toThrow('jams: an annotation of tier "markers" starts at -1 s; JAMS times cannot be negative, so it cannot hold it');
  });
});

describe('the jams round trip (property)', () => {
  const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
  const observation = fc.record({
    start: fc.integer({ min: 0, max: 10_000_000 }),
    length: fc.integer({ min: 0, max: 100_000 }),
    value: jsonValue,
    confidence: fc.option(fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000)),
    oddConfidence: fc.option(fc.oneof(fc.string(), fc.integer({ min: 2, max: 100 }))),
  });
  const tierSpec = fc.record({ namespace: fc.constantFrom('chord', 'beat', 'tag_open', 'segment_open'), observations: fc.array(observation, { maxLength: 5 }) });

  it('keeps tiers, intervals, values and confidence exactly through dump and load', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tierSpec, { minLength: 1, maxLength: 4 }), async (specs) => {
        const store = new MemoryStore();
        const total = (namespace: string) => specs.filter((spec) => spec.namespace === namespace).length;
        const seen = new Map<string, number>();
        for (const [index, spec] of specs.entries()) {
          seen.set(spec.namespace, (seen.get(spec.namespace) ?? 0) + 1);
          // Tier names come back from namespaces: numbered only when a namespace occurs more than once.
          const name = total(spec.namespace) > 1 ? `${spec.namespace}#${seen.get(spec.namespace)}` : spec.namespace;
          await store.addTier(makeTier({ name, metadata: { jams: { namespace: spec.namespace, position: index, annotation: { namespace: spec.namespace, sandbox: {} }, dense: index % 2 === 1 } } }));
          for (const o of spec.observations) {
            const body: Record<string, unknown> = { value: o.value };
            if (o.confidence === null && o.oddConfidence !== null) body.confidence = o.oddConfidence;
            await store.add(
              makeAnnotation({
                tier: name,
                reference: mediaRef('jams:unspecified', new TimeInterval(new RationalTime(o.start, 1000), new RationalTime(o.start + o.length, 1000))),
                body,
                body_schema_uri: 'annot://schema/jams-observation/v1',
                provenance: { was_generated_by: 'test', generated_at_time: RationalTime.now(1000) },
                confidence: o.confidence,
              }),
            );
          }
        }
        const before = (await all(store)).map(kept);
        const after = await roundTrip(store, 'property.jams');
        expect(after.annotations.map(kept)).toEqual(before);
      }),
      { numRuns: 40 },
    );
  });
});

/** Corpus files that are rejected, and why. Every other file must load and round-trip. */
const REJECTED: Record<string, RegExp> = {
  // The marl/jams schema-invalid fixture: one observation has time -20.
  'jams_fixture_invalid_negative_time.jams': /\(\$\.annotations\[0\]\.data\[\d+\]\.time\): expected a non-negative time/,
};

describe('the JAMS corpus', () => {
  const files = readdirSync(CORPUS).filter((name) => /\.jam[sz]$/.test(name));
  it('has corpus files to check', () => expect(files.length).toBeGreaterThan(0));
  it.each(files)('%s loads, goes into a .annot file and back out as JAMS unchanged, or is rejected for a stated reason', async (name) => {
    const path = join(CORPUS, name);
    if (REJECTED[name]) {
      const error = await load(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FormatParseError);
      expect((error as Error).message).toMatch(REJECTED[name]);
      return;
    }
    const first = await load(path);
    const annot = await intoAnnot(path, name);
    const second = await roundTrip(annot, `corpus-${name}`);
    await annot.close();
    expect(second.annotations.map(kept)).toEqual(first.annotations.map(kept));
    expect((await second.store.listTiers()).map((t) => [t.name, t.metadata])).toEqual((await first.store.listTiers()).map((t) => [t.name, t.metadata]));
    // A file without file_metadata gets a minimal one on the way out (JAMS requires it).
    expect(await second.store.listMeta()).toMatchObject(await first.store.listMeta());
  });
});
