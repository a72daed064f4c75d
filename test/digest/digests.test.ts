import fc from 'fast-check';
import { annotationBodyDigest, annotationValueDigest } from '../../src/digest/digests.js';
import { annotationEtag } from '../../src/digest/etag.js';
import { NonStringBodyKeyError } from '../../src/json/errors.js';
import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { annotationArb, sampleAnnotation } from '../model/arbitraries.js';

function regenerate(a: Annotation): Annotation {
  return makeAnnotation({
    ...a,
    id: undefined,
    provenance: { was_generated_by: 'agent:other', was_attributed_to: 'user:carol', was_derived_from: [a.id], generated_at_time: new RationalTime(1_800_000_000_000, 1000) },
  });
}

describe('annotationValueDigest', () => {
  it('is 64 lower-case hex', () => {
    expect(annotationValueDigest(sampleAnnotation())).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps its value when an identical annotation is regenerated, while the ETag changes', () => {
    fc.assert(
      fc.property(annotationArb, (a) => {
        const b = regenerate(a);
        expect(annotationValueDigest(b)).toBe(annotationValueDigest(a));
        expect(annotationBodyDigest(b)).toBe(annotationBodyDigest(a));
        expect(annotationEtag(b)).not.toBe(annotationEtag(a));
      }),
      { numRuns: 100 },
    );
  });

  const base = sampleAnnotation({ body: { text: 'hello', speaker: null, extra: { deep: [1, 2] } }, body_schema_uri: 'annot://schema/label/v1' });
  const variants: Array<[string, Annotation]> = [
    ['a top-level body value', makeAnnotation({ ...base, body: { ...base.body, text: 'hullo' } })],
    ['a nested body value', makeAnnotation({ ...base, body: { ...base.body, extra: { deep: [1, 3] } } })],
    ['a body key', makeAnnotation({ ...base, body: { text: 'hello', speaker: null, extra2: { deep: [1, 2] } } })],
    ['the tier', makeAnnotation({ ...base, tier: 'words2' })],
    ['the schema', makeAnnotation({ ...base, body_schema_uri: 'annot://schema/label/v2' })],
    ['the confidence', makeAnnotation({ ...base, confidence: 0.5 })],
    ['confidence absent instead of 0', makeAnnotation({ ...base, confidence: null })],
    ['the interval end', makeAnnotation({ ...base, reference: mediaRef('sha256:' + 'ab'.repeat(32), TimeInterval.fromSeconds('1.5', '2.001', 1000)) })],
    ['the asset', makeAnnotation({ ...base, reference: mediaRef('sha256:' + 'cd'.repeat(32), TimeInterval.fromSeconds('1.5', '2', 1000)) })],
    ['the reference kind', makeAnnotation({ ...base, reference: annotationRef(base.id) })],
  ];

  it.each(variants)('changes when %s changes', (_label, changed) => {
    expect(annotationValueDigest(changed)).not.toBe(annotationValueDigest(base));
  });

  it('tells confidence 0 from no confidence', () => {
    const zero = makeAnnotation({ ...base, confidence: 0 });
    const none = makeAnnotation({ ...base, confidence: null });
    expect(annotationValueDigest(zero)).not.toBe(annotationValueDigest(none));
  });

  it('gives every variant a distinct digest', () => {
    const digests = new Set([base, ...variants.map(([, a]) => a)].map(annotationValueDigest));
    expect(digests.size).toBe(variants.length + 1);
  });

  it('ignores the order of body keys', () => {
    const a = makeAnnotation({ ...base, body: { a: 1, b: { x: 1, y: 2 } } });
    const b = makeAnnotation({ ...base, body: { b: { y: 2, x: 1 }, a: 1 } });
    expect(annotationValueDigest(a)).toBe(annotationValueDigest(b));
    expect(annotationEtag(a)).toBe(annotationEtag(b));
  });

  it('digests 1/24 s and 2/48 s differently: a spurious miss, accepted and never a false hit', () => {
    const at24 = makeAnnotation({ ...base, reference: mediaRef('a', new TimeInterval(new RationalTime(1, 24), new RationalTime(2, 24))) });
    const at48 = makeAnnotation({ ...base, reference: mediaRef('a', new TimeInterval(new RationalTime(2, 48), new RationalTime(4, 48))) });
    expect(annotationValueDigest(at24)).not.toBe(annotationValueDigest(at48));
  });

  it('raises NonStringBodyKeyError for a Map with non-string keys anywhere in a body that bypassed makeAnnotation', () => {
    const forged = { ...base, body: { outer: [{ inner: new Map<unknown, unknown>([[1, 'x']]) }] } } as unknown as Annotation;
    expect(() => annotationValueDigest(forged)).toThrow(NonStringBodyKeyError);
    expect(() => annotationValueDigest(forged)).toThrow('body["outer"][0]["inner"]');
    expect(() => annotationBodyDigest(forged)).toThrow(NonStringBodyKeyError);
    expect(() => annotationEtag(forged)).toThrow(NonStringBodyKeyError);
  });
});

describe('annotationBodyDigest', () => {
  const base = sampleAnnotation();

  it('is the same for one body over different assets, intervals, tiers and confidences', () => {
    const elsewhere = makeAnnotation({ ...base, tier: 'other', confidence: 0.1, reference: mediaRef('b', TimeInterval.fromSeconds('7', '8', 1)) });
    expect(annotationBodyDigest(elsewhere)).toBe(annotationBodyDigest(base));
    expect(annotationValueDigest(elsewhere)).not.toBe(annotationValueDigest(base));
  });

  it('changes with the schema and differs from the value digest (domain separation)', () => {
    expect(annotationBodyDigest(makeAnnotation({ ...base, body_schema_uri: 'annot://schema/word/v2' }))).not.toBe(annotationBodyDigest(base));
    expect(annotationBodyDigest(base)).not.toBe(annotationValueDigest(base));
  });
});
