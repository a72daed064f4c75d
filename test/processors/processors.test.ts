import { join } from 'node:path';
import fc from 'fast-check';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import type { OpLoggedStore } from '../../src/oplog/op-logged-store.js';
import { changesOf } from '../../src/processors/density-change-points.js';
import { ProcessorParamsError, UnknownProcessorError } from '../../src/processors/errors.js';
import { parseParamArgs } from '../../src/processors/params.js';
import type { Processor } from '../../src/processors/processor.js';
import { listProcessors, registerProcessor, resolveProcessorParams, runProcessor, unregisterProcessor } from '../../src/processors/registry.js';
import { validateBody } from '../../src/schemas/registry.js';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { openServiceStore } from '../../src/service/open-service-store.js';
import { AnnotationNotFoundError } from '../../src/store/errors.js';
import { MemoryStore } from '../../src/store/memory.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { tempDir } from '../support/sample-annot.js';

const files = tempDir('annot-processors-');
afterAll(files.cleanup);
let fileNumber = 0;

const GENERATED = new RationalTime(1_700_000_000_000, 1000);
let idNumber = 0;
const nextId = () => `00000000-0000-4000-8000-${String(++idNumber).padStart(12, '0')}`;

function word(start: string, end: string, options: { confidence?: number | null; asset?: string; tier?: string; rate?: number } = {}): Annotation {
  return makeAnnotation({
    id: nextId(),
    tier: options.tier ?? 'words',
    reference: mediaRef(options.asset ?? 'talk.wav', TimeInterval.fromSeconds(start, end, options.rate ?? 1000)),
    body: { text: `w${idNumber}` },
    body_schema_uri: 'annot://schema/word/v1',
    provenance: { was_generated_by: 'user:test', generated_at_time: GENERATED },
    confidence: options.confidence ?? null,
  });
}

async function seeded(store: OpLoggedStore, annotations: readonly Annotation[], tiers = ['words']): Promise<AnnotationService> {
  for (const name of tiers) await store.addTier(makeTier({ name }));
  await store.addMany(annotations);
  return new AnnotationService(store);
}

const stores: Array<[string, () => Promise<OpLoggedStore>]> = [
  ['MemoryStore', async () => new MemoryStore()],
  ['SqliteStore', async () => SqliteStore.open(join(files.dir, `p-${fileNumber++}.annot`), { create: true }) as Promise<OpLoggedStore>],
];

describe.each(stores)('processors on %s', (_kind, open) => {
  let store: OpLoggedStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(async () => {
    await store.close();
  });

  describe('low_confidence_review', () => {
    it('flags exactly the annotations under the threshold, creating the review tier, in one logged batch by processor:low_confidence_review', async () => {
      const low = word('0', '1', { confidence: 0.2 });
      const atThreshold = word('1', '2', { confidence: 0.5 });
      const high = word('2', '3', { confidence: 0.9 });
      const none = word('3', '4');
      const service = await seeded(store, [low, atThreshold, high, none]);
      const before = await service.latestClock();

      const result = await runProcessor('low_confidence_review', service, {});

      expect(result).toMatchObject({ flagged: 1, already_flagged: 0, scanned: 4, review_tier: 'for-review' });
      expect(await store.getTier('for-review')).not.toBeNull();
      const [candidate] = await store.byTier('for-review');
      expect(candidate.body).toEqual({ reason: 'low_confidence', source_id: low.id, source_tier: 'words', source_confidence: 0.2, threshold: 0.5 });
      expect(candidate.body_schema_uri).toBe('annot://schema/review-candidate/v1');
      expect(validateBody(candidate.body_schema_uri, candidate.body).valid).toBe(true);
      expect(candidate.reference).toEqual(low.reference);
      expect(candidate.provenance).toMatchObject({ was_generated_by: 'processor:low_confidence_review', was_derived_from: [low.id] });
      expect(candidate.confidence).toBeNull();

      const log = await service.readOpLog({ fromClock: before + 1 });
      expect(log.map((entry) => [entry.kind, entry.actor])).toEqual([
        ['add_tier', 'processor:low_confidence_review'],
        ['add_annotation', 'processor:low_confidence_review'],
      ]);
      expect(new Set(log.map((entry) => JSON.stringify(entry.received_at))).size).toBe(1);
      expect(result.clock).toBe(log[log.length - 1].clock);
    });

    it('flags nothing new on a second run, and writes nothing to the op-log', async () => {
      const service = await seeded(store, [word('0', '1', { confidence: 0.1 }), word('1', '2', { confidence: 0.3 })]);
      await runProcessor('low_confidence_review', service, {});
      const clock = await service.latestClock();

      const again = await runProcessor('low_confidence_review', service, {});

      expect(again).toMatchObject({ flagged: 0, already_flagged: 2, scanned: 2, clock });
      expect(await store.byTier('for-review')).toHaveLength(2);
      expect(await service.latestClock()).toBe(clock);
    });

    it('flags an annotation without an interval through an AnnotationRef to it', async () => {
      const target = word('0', '1');
      const note = makeAnnotation({
        id: nextId(),
        tier: 'notes',
        reference: annotationRef(target.id),
        body: { text: 'maybe' },
        body_schema_uri: 'annot://schema/label/v1',
        provenance: { was_generated_by: 'agent:x', generated_at_time: GENERATED },
        confidence: 0.4,
      });
      const service = await seeded(store, [target, note], ['words', 'notes']);

      await runProcessor('low_confidence_review', service, { review_tier: 'triage' });

      const [candidate] = await store.byTier('triage');
      expect(candidate.reference).toEqual({ kind: 'annotation', target_id: note.id });
      expect(candidate.body.source_id).toBe(note.id);
    });

    it('considers only the named tier, and names the actor it is given', async () => {
      const service = await seeded(store, [word('0', '1', { confidence: 0.1 }), word('1', '2', { confidence: 0.1, tier: 'asr' })], ['words', 'asr']);

      const result = await runProcessor('low_confidence_review', service, { tier: 'asr', threshold: 0.2 }, { actor: 'user:alice' });

      expect(result).toMatchObject({ flagged: 1, scanned: 1 });
      const [candidate] = await store.byTier('for-review');
      expect(candidate.body.source_tier).toBe('asr');
      expect((await service.readOpLog()).filter((entry) => entry.actor === 'user:alice')).toHaveLength(2);
    });

    it('refuses a tier filter naming a tier the store does not have', async () => {
      const service = await seeded(store, [word('0', '1', { confidence: 0.1 })]);
      await expect(runProcessor('low_confidence_review', service, { tier: 'nope' })).rejects.toThrow(AnnotationNotFoundError);
      expect(await service.latestClock()).toBe(0);
    });
  });

  describe('detect_density_change_points', () => {
    // The reference implementation's worked example: one start at 0 s, five between 5 and 5.04 s, one at 10 s.
    const example = () => ['0', '5', '5.01', '5.02', '5.03', '5.04', '10'].map((start) => word(start, start));

    it('marks the instants where the count per bucket changes by at least min_delta, with the counts in the body', async () => {
      const service = await seeded(store, example());
      const before = await service.latestClock();

      const result = await runProcessor('detect_density_change_points', service, {});

      expect(result).toMatchObject({ change_points: 2, already_present: 0, buckets: 11, assets: 1, bucket_seconds: '1', target_tier: 'density-change-points' });
      const points = await store.byTier('density-change-points');
      expect(points.map((p) => [(p.reference as { interval: TimeInterval }).interval.start.toSecondsString(), p.body.delta])).toEqual([
        ['5', 5],
        ['6', -5],
      ]);
      expect(points[0].body).toEqual({ bucket_seconds: '1', count_before: 0, count_after: 5, delta: 5, source_tier: null });
      expect(points.every((p) => (p.reference as { interval: TimeInterval }).interval.isPoint)).toBe(true);
      expect(points.every((p) => validateBody(p.body_schema_uri, p.body).valid)).toBe(true);
      const log = await service.readOpLog({ fromClock: before + 1 });
      expect(log.map((entry) => entry.kind)).toEqual(['add_tier', 'add_annotation', 'add_annotation']);
      expect(log.every((entry) => entry.actor === 'processor:detect_density_change_points')).toBe(true);
    });

    it('marks nothing when no change reaches min_delta', async () => {
      const service = await seeded(store, example());
      expect(await runProcessor('detect_density_change_points', service, { min_delta: 100 })).toMatchObject({ change_points: 0 });
    });

    it('writes no second point at an instant already marked on the target tier', async () => {
      const service = await seeded(store, example());
      await runProcessor('detect_density_change_points', service, {});
      const clock = await service.latestClock();

      const again = await runProcessor('detect_density_change_points', service, {});

      expect(again).toMatchObject({ change_points: 0, already_present: 2, clock });
      expect(await store.byTier('density-change-points')).toHaveLength(2);
    });

    it('buckets exactly: a start at 0.3 s is in bucket 3 of 0.1 s, where floating point would say 2', async () => {
      // 0.3 / 0.1 === 2.9999999999999996 in floating point.
      const starts = ['0.2', '0.3', '0.3', '0.3'];
      const service = await seeded(store, starts.map((start) => word(start, start)));

      await runProcessor('detect_density_change_points', service, { bucket_seconds: '0.1', min_delta: 2 });

      const [point] = await store.byTier('density-change-points');
      expect((point.reference as { interval: TimeInterval }).interval.start.toSecondsString()).toBe('0.3');
      expect(point.body).toMatchObject({ bucket_seconds: '0.1', count_before: 1, count_after: 3 });
    });

    it('counts each asset on its own, or only the one asked for', async () => {
      const burst = (asset: string) => ['0', '2', '2', '2'].map((start) => word(start, start, { asset }));
      const service = await seeded(store, [...burst('a.wav'), ...burst('b.wav')]);

      expect(await runProcessor('detect_density_change_points', service, { asset_id: 'b.wav' })).toMatchObject({ change_points: 1, assets: 1 });
      expect(await runProcessor('detect_density_change_points', service, {})).toMatchObject({ change_points: 1, already_present: 1, assets: 2 });
      const assets = (await store.byTier('density-change-points')).map((p) => (p.reference as { asset_id: string }).asset_id).sort();
      expect(assets).toEqual(['a.wav', 'b.wav']);
    });

    it('takes a ratio bucket length and writes the points at exact times', async () => {
      const starts = ['0', '1/3', '1/3', '1/3', '1/3'].map((start) => word(start, start, { rate: 3 }));
      const service = await seeded(store, starts);
      await runProcessor('detect_density_change_points', service, { bucket_seconds: '1/3' });
      const [point] = await store.byTier('density-change-points');
      expect((point.reference as { interval: TimeInterval }).interval.start.valueKey()).toBe('1/3');
      expect(point.body.bucket_seconds).toBe('1/3');
    });
  });
});

describe('changesOf', () => {
  /** The obvious walk over every bucket from the first to the last, for comparison. */
  function denseWalk(counts: Map<bigint, number>, minDelta: number) {
    const indices = [...counts.keys()].sort((a, b) => (a < b ? -1 : 1));
    const changes = [];
    for (let index = indices[0] + 1n; index <= indices[indices.length - 1]; index++) {
      const before = counts.get(index - 1n) ?? 0;
      const after = counts.get(index) ?? 0;
      if (Math.abs(after - before) >= minDelta) changes.push({ index, before, after });
    }
    return changes;
  }

  it('finds the same changes as walking every bucket, empty ones included, while visiting only non-empty ones', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -30, max: 30 }), fc.integer({ min: 1, max: 9 })), { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 6 }), (entries, minDelta) => {
        const counts = new Map(entries.map(([index, count]) => [BigInt(index), count]));
        expect(changesOf(counts, minDelta)).toEqual(denseWalk(counts, minDelta));
      }),
    );
  });
});

describe('the processor registry', () => {
  const echo: Processor = {
    name: 'test_echo',
    description: 'returns its params',
    paramsSchema: { type: 'object', properties: { n: { type: 'integer', default: 7 }, on: { type: 'boolean' } }, additionalProperties: false },
    run: async (_service, params, context) => ({ params, actor: context.actor }),
  };
  afterEach(() => {
    unregisterProcessor('test_echo');
  });

  it('lists the built-ins by name with their params schemas', () => {
    const names = listProcessors().map((p) => p.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['detect_density_change_points', 'low_confidence_review']));
    expect(listProcessors().find((p) => p.name === 'low_confidence_review')?.params_schema).toMatchObject({ type: 'object' });
  });

  it('runs a registered processor with its defaults filled in and actor processor:<name>', async () => {
    registerProcessor(echo);
    const result = await runProcessor('test_echo', new AnnotationService(new MemoryStore()), { on: true });
    expect(result).toEqual({ params: { n: 7, on: true }, actor: 'processor:test_echo' });
  });

  it('refuses an unknown name with a message listing the known ones', async () => {
    const run = runProcessor('no_such', new AnnotationService(new MemoryStore()));
    await expect(run).rejects.toThrow(UnknownProcessorError);
    await expect(run).rejects.toThrow(/known: detect_density_change_points, low_confidence_review/);
  });

  it('refuses params that break the schema, naming every offending param', () => {
    const attempt = () => resolveProcessorParams('low_confidence_review', { threshold: 2, colour: 'red' });
    expect(attempt).toThrow(ProcessorParamsError);
    expect(attempt).toThrow(/params\.threshold/);
    expect(attempt).toThrow(/params\.colour: unexpected key/);
    expect(() => resolveProcessorParams('detect_density_change_points', { bucket_seconds: '0' })).toThrow(/bucket_seconds: expected a positive number of seconds/);
    expect(() => resolveProcessorParams('detect_density_change_points', { bucket_seconds: 'soon' })).toThrow(/bucket_seconds/);
    expect(() => resolveProcessorParams('detect_density_change_points', { min_delta: 1.5 })).toThrow(/min_delta/);
    expect(() => resolveProcessorParams('low_confidence_review', { tier: 'for-review' })).toThrow(/params\.tier: is the review tier/);
  });
});

describe('parseParamArgs', () => {
  it('types each key=value by the params schema: numbers as numbers, exact-time params as text', () => {
    expect(parseParamArgs('detect_density_change_points', ['min_delta=4', 'bucket_seconds=0.1', 'asset_id=a=b.wav'])).toEqual({
      min_delta: 4,
      bucket_seconds: '0.1',
      asset_id: 'a=b.wav',
    });
    expect(parseParamArgs('low_confidence_review', ['threshold=.25'])).toEqual({ threshold: 0.25 });
  });

  it('reports every malformed pair at once', () => {
    const attempt = () => parseParamArgs('detect_density_change_points', ['min_delta=many', 'colour=red', 'novalue', 'min_delta=2', 'min_delta=3']);
    expect(attempt).toThrow(ProcessorParamsError);
    expect(attempt).toThrow(/params\.min_delta: expected a number, got "many"/);
    expect(attempt).toThrow(/params\.colour: unknown param \(known: asset_id, bucket_seconds, min_delta, target_tier, tier\)/);
    expect(attempt).toThrow(/"novalue": expected key=value/);
    expect(attempt).toThrow(/params\.min_delta: given twice/);
  });
});

describe('openServiceStore', () => {
  it('opens an existing .annot file and refuses a missing one unless asked to create it', async () => {
    const path = join(files.dir, 'opened.annot');
    await expect(openServiceStore(path)).rejects.toThrow(/no such \.annot file/);
    const created = await openServiceStore(path, { create: true });
    await created.close();
    const reopened = await openServiceStore(path);
    expect(reopened.kind).toBe('sqlite');
    await reopened.close();
  });
});
