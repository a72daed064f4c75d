import { NonStringBodyKeyError, NotJsonError } from '../../src/json/errors.js';
import {
  annotationInterval,
  annotationRef,
  makeAnnotation,
  mediaRef,
  reviseAnnotation,
} from '../../src/model/annotation.js';
import { InvalidAnnotationError } from '../../src/model/errors.js';
import { generatedAtIsKnown, UNKNOWN_GENERATED_AT } from '../../src/model/provenance.js';
import { InvalidBodySchemaUriError } from '../../src/schemas/errors.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';
import { sampleAnnotation } from './arbitraries.js';

describe('makeAnnotation', () => {
  it('builds a frozen annotation with a fresh lower-case UUID when no id is given', () => {
    const a = sampleAnnotation({ id: undefined });
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.body)).toBe(true);
    expect(Object.isFrozen(a.provenance.was_derived_from)).toBe(true);
  });

  it('stores a given UUID in lower case', () => {
    expect(sampleAnnotation({ id: 'ABCDEF01-2345-6789-ABCD-EF0123456789' }).id).toBe('abcdef01-2345-6789-abcd-ef0123456789');
  });

  it('copies the body so later changes by the caller do not reach the annotation', () => {
    const body = { text: 'hi', nested: { list: [1, 2] } };
    const a = sampleAnnotation({ body });
    body.nested.list.push(3);
    expect(a.body).toEqual({ text: 'hi', nested: { list: [1, 2] } });
  });

  it('keeps a "__proto__" body key as a key rather than a prototype', () => {
    const body = JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    const a = sampleAnnotation({ body });
    expect(Object.keys(a.body)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(a.body)).toBe(Object.prototype);
  });

  it('defaults confidence to null, attribution to the generator and derivation to an empty list', () => {
    const a = sampleAnnotation({ confidence: undefined, provenance: { was_generated_by: 'adapter:webvtt', generated_at_time: UNKNOWN_GENERATED_AT } });
    expect(a.confidence).toBeNull();
    expect(a.provenance.was_attributed_to).toBe('adapter:webvtt');
    expect(a.provenance.was_derived_from).toEqual([]);
    expect(generatedAtIsKnown(a.provenance)).toBe(false);
  });

  it('treats tick 0 at any rate as an unknown generation time', () => {
    expect(generatedAtIsKnown(sampleAnnotation({ provenance: { was_generated_by: 'x', generated_at_time: new RationalTime(0, 48000) } }).provenance)).toBe(false);
    expect(generatedAtIsKnown(sampleAnnotation().provenance)).toBe(true);
  });

  it.each([
    ['a Map with string keys', new Map([['a', 1]]), NotJsonError, 'body["k"]'],
    ['a class instance', new Date(0), NotJsonError, 'body["k"]'],
    ['undefined', undefined, NotJsonError, 'body["k"]'],
    ['a function', () => 1, NotJsonError, 'body["k"]'],
    ['a bigint', 1n, NotJsonError, 'body["k"]'],
    ['NaN', Number.NaN, NotJsonError, 'body["k"]'],
    ['Infinity', Number.POSITIVE_INFINITY, NotJsonError, 'body["k"]'],
    ['a symbol', Symbol('s'), NotJsonError, 'body["k"]'],
  ])('rejects a body holding %s and names its path', (_label, value, errorClass, path) => {
    expect(() => sampleAnnotation({ body: { k: value } })).toThrow(errorClass);
    expect(() => sampleAnnotation({ body: { k: value } })).toThrow(path);
  });

  it('raises NonStringBodyKeyError for a Map with a non-string key anywhere in the body, with its path', () => {
    const body = { outer: [new Map<unknown, unknown>([[7, 'v']])] };
    expect(() => sampleAnnotation({ body })).toThrow(NonStringBodyKeyError);
    expect(() => sampleAnnotation({ body })).toThrow('body["outer"][0] has a non-string key 7 of type number');
  });

  it('raises NonStringBodyKeyError for a symbol-keyed property', () => {
    expect(() => sampleAnnotation({ body: { [Symbol('s')]: 1 } })).toThrow(NonStringBodyKeyError);
  });

  it('rejects a body that is not an object, a sparse array and a circular structure', () => {
    expect(() => sampleAnnotation({ body: [1] as unknown as Record<string, unknown> })).toThrow(NotJsonError);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => sampleAnnotation({ body: { list: [1, , 3] } })).toThrow('body["list"][1]');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => sampleAnnotation({ body: loop })).toThrow('circular');
  });

  it.each([
    ['confidence above 1', { confidence: 1.5 }, 'confidence'],
    ['negative confidence', { confidence: -0.1 }, 'confidence'],
    ['NaN confidence', { confidence: Number.NaN }, 'confidence'],
    ['an empty tier', { tier: '' }, 'tier'],
    ['a malformed id', { id: 'not-a-uuid' }, 'id'],
  ])('rejects %s, naming the field', (_label, overrides, path) => {
    expect(() => sampleAnnotation(overrides)).toThrow(InvalidAnnotationError);
    expect(() => sampleAnnotation(overrides)).toThrow(new RegExp(`^${path}:`));
  });

  it.each(['annot://schema/Word/v1', 'annot://schema/word/v0', 'annot://schema/word/v01', 'annot://schema/word_x/v1', 'annot://schema/word/1', 'word'])(
    'rejects the body_schema_uri %s',
    (uri) => {
      expect(() => sampleAnnotation({ body_schema_uri: uri })).toThrow(InvalidBodySchemaUriError);
    },
  );

  it('rejects references that mix the two kinds', () => {
    const interval = TimeInterval.fromSeconds('0', '1', 10);
    expect(() => sampleAnnotation({ reference: { kind: 'annotation', target_id: '0b1f6c2e-8d3a-4c1b-9e7f-2a5d6c7e8f90', interval } as never })).toThrow('reference.interval');
    expect(() => sampleAnnotation({ reference: { kind: 'media', asset_id: 'a' } as never })).toThrow('reference.interval');
    expect(() => sampleAnnotation({ reference: { kind: 'node' } as never })).toThrow('reference.kind');
  });

  it('requires provenance with a generator and a RationalTime', () => {
    expect(() => sampleAnnotation({ provenance: { was_generated_by: '', generated_at_time: UNKNOWN_GENERATED_AT } })).toThrow('provenance.was_generated_by');
    expect(() => sampleAnnotation({ provenance: { was_generated_by: 'x', generated_at_time: { v: 1, r: 1 } as never } })).toThrow('provenance.generated_at_time');
  });
});

describe('references and helpers', () => {
  it('gives the interval of a media annotation and null for an annotation reference', () => {
    const interval = TimeInterval.fromSeconds('0', '1', 10);
    expect(annotationInterval(sampleAnnotation({ reference: mediaRef('a', interval) }))).toBe(interval);
    expect(annotationInterval(sampleAnnotation({ reference: annotationRef('0b1f6c2e-8d3a-4c1b-9e7f-2a5d6c7e8f90') }))).toBeNull();
  });

  it('revises an annotation keeping its id and checking the new fields', () => {
    const a = sampleAnnotation();
    const b = reviseAnnotation(a, { confidence: 1 });
    expect(b.id).toBe(a.id);
    expect(b.confidence).toBe(1);
    expect(a.confidence).toBe(0.75);
    expect(() => reviseAnnotation(a, { confidence: 2 })).toThrow(InvalidAnnotationError);
  });

  it('accepts the nil UUID and an all-JSON nested body', () => {
    const a = makeAnnotation({
      id: '00000000-0000-0000-0000-000000000000',
      tier: 't',
      reference: annotationRef('00000000-0000-0000-0000-000000000001'),
      body: { a: [1, 'two', true, null, { b: -0 }] },
      body_schema_uri: 'annot://schema/label/v1',
      provenance: { was_generated_by: 'x', generated_at_time: UNKNOWN_GENERATED_AT },
    });
    expect(a.body).toEqual({ a: [1, 'two', true, null, { b: 0 }] });
  });
});
