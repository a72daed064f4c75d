/* eslint-disable @typescript-eslint/no-explicit-any -- these tests corrupt untyped wire JSON on purpose */
import fc from 'fast-check';
import { canonicalJson } from '../../src/json/canonical-json.js';
import { WireFormatError } from '../../src/model/errors.js';
import { makeTier } from '../../src/model/tier.js';
import { annotationFromWire, annotationToWire, tierFromWire, tierToWire } from '../../src/model/wire.js';
import { annotationArb, sampleAnnotation } from './arbitraries.js';

function wireOf(): Record<string, unknown> {
  return JSON.parse(JSON.stringify(annotationToWire(sampleAnnotation()))) as Record<string, unknown>;
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(WireFormatError);
    return (error as Error).message;
  }
  throw new Error('expected a WireFormatError');
}

describe('annotation wire form', () => {
  it('writes snake_case keys, {v, r} times, a reference kind and an explicit null confidence', () => {
    const wire = annotationToWire(sampleAnnotation({ confidence: null }));
    expect(Object.keys(wire)).toEqual(['id', 'tier', 'reference', 'body', 'body_schema_uri', 'provenance', 'confidence']);
    expect(wire.reference).toEqual({ kind: 'media', asset_id: 'sha256:' + 'ab'.repeat(32), interval: { start: { v: 1500, r: 1000 }, end: { v: 2000, r: 1000 } } });
    expect(wire.provenance).toEqual({ was_generated_by: 'user:alice', was_attributed_to: 'user:alice', was_derived_from: [], generated_at_time: { v: 1_700_000_000_000, r: 1000 } });
    expect(wire.confidence).toBeNull();
  });

  it('round-trips any annotation through JSON text unchanged, rates included', () => {
    fc.assert(
      fc.property(annotationArb, (annotation) => {
        const back = annotationFromWire(JSON.parse(JSON.stringify(annotationToWire(annotation))));
        expect(canonicalJson(annotationToWire(back))).toBe(canonicalJson(annotationToWire(annotation)));
        expect(back.reference.kind).toBe(annotation.reference.kind);
        if (back.reference.kind === 'media' && annotation.reference.kind === 'media') {
          expect(back.reference.interval.start.isIdentical(annotation.reference.interval.start)).toBe(true);
          expect(back.reference.interval.end.isIdentical(annotation.reference.interval.end)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('accepts a missing confidence and a missing was_derived_from', () => {
    const wire = wireOf();
    delete wire.confidence;
    delete (wire.provenance as Record<string, unknown>).was_derived_from;
    const a = annotationFromWire(wire);
    expect(a.confidence).toBeNull();
    expect(a.provenance.was_derived_from).toEqual([]);
  });

  it.each<[string, (w: Record<string, unknown>) => void, string]>([
    ['a zero rate', (w) => ((w.reference as any).interval.start.r = 0), 'reference.interval.start.r: expected a positive integer rate, got 0'],
    ['a string rate', (w) => ((w.reference as any).interval.end.r = '1000'), 'reference.interval.end.r: expected a positive integer rate, got the string "1000"'],
    ['fractional ticks', (w) => ((w.reference as any).interval.start.v = 1.5), 'reference.interval.start.v: expected an integer number of ticks (a safe integer), got 1.5'],
    ['unsafe ticks', (w) => ((w.reference as any).interval.start.v = 2 ** 60), 'reference.interval.start.v: expected an integer number of ticks'],
    ['an extra key in a time', (w) => ((w.reference as any).interval.start.x = 1), 'reference.interval.start.x: unexpected key (allowed: v, r, s)'],
    ['a missing rate', (w) => delete (w.reference as any).interval.start.r, 'reference.interval.start.r: missing (required)'],
    ['an extra top-level key', (w) => (w.extra = true), 'extra: unexpected key'],
    ['a missing body', (w) => delete w.body, 'body: missing (required)'],
    ['an array body', (w) => (w.body = []), 'body: expected a JSON object of at most 1 MiB (1,048,576 characters) as JSON text, got an array'],
    ['a malformed id', (w) => (w.id = 'abc'), 'id: expected a UUID (8-4-4-4-12 hex digits), got the string "abc"'],
    ['a bad schema URI', (w) => (w.body_schema_uri = 'annot://schema/Word/v1'), 'body_schema_uri: expected a body schema URI'],
    ['confidence above 1', (w) => (w.confidence = 1.01), 'confidence: expected a number in [0, 1] or null, got 1.01'],
    ['an unknown reference kind', (w) => ((w.reference as any).kind = 'node'), 'reference.kind: expected "media" or "annotation", got the string "node"'],
    ['an interval on an annotation reference', (w) => (w.reference = { kind: 'annotation', target_id: w.id, interval: (w.reference as any).interval }), 'reference.interval: unexpected key (allowed: kind, target_id)'],
    ['a media reference without asset', (w) => delete (w.reference as any).asset_id, 'reference.asset_id: missing (required)'],
    ['an empty generator', (w) => ((w.provenance as any).was_generated_by = ''), 'provenance.was_generated_by: expected a non-empty agent or activity id'],
    ['a float generation time', (w) => ((w.provenance as any).generated_at_time = 1.5), 'provenance.generated_at_time: expected a time {v, r}, got 1.5'],
    ['a derived-from entry that is not a string', (w) => ((w.provenance as any).was_derived_from = [3]), 'provenance.was_derived_from[0]: expected a non-empty id of at most 4096 characters, got 3'],
    ['an end before the start', (w) => ((w.reference as any).interval.end = { v: 1, r: 1 }), 'reference.interval: end 1 s precedes start 1.5 s'],
  ])('rejects %s with a message naming the field', (_label, mutate, expected) => {
    const wire = wireOf();
    mutate(wire);
    expect(messageOf(() => annotationFromWire(wire))).toContain(expected);
  });

  it('reports every problem of a message, not only the first', () => {
    const wire = wireOf();
    wire.tier = '';
    (wire.reference as any).interval.start.r = -1;
    wire.confidence = 'high';
    const error = (() => {
      try {
        annotationFromWire(wire);
      } catch (e) {
        return e as WireFormatError;
      }
      throw new Error('no error');
    })();
    expect(error.issues.map((i) => i.path)).toEqual(expect.arrayContaining(['tier', 'reference.interval.start.r', 'confidence']));
    expect(error.code).toBe('ANNOT_INVALID_WIRE');
  });

  it('rejects a value that is not an object at all', () => {
    expect(messageOf(() => annotationFromWire('x'))).toContain('annotation: expected');
    expect(messageOf(() => annotationFromWire(null))).toContain('annotation: expected');
  });
});

describe('tier wire form', () => {
  it('round-trips a tier with a parent and metadata', () => {
    const tier = makeTier({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines', metadata: { participant: 'A', n: 2 } });
    const back = tierFromWire(JSON.parse(JSON.stringify(tierToWire(tier))));
    expect(back).toEqual(tier);
    expect(tierToWire(tier)).toEqual({ name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines', metadata: { participant: 'A', n: 2 } });
  });

  it('defaults a missing parent to null and missing metadata to an empty object', () => {
    expect(tierFromWire({ name: 'a', stereotype: 'NONE' })).toEqual({ name: 'a', stereotype: 'NONE', parent: null, metadata: {} });
  });

  it('rejects unknown stereotypes, extra keys and a stereotype without its parent, naming the field', () => {
    expect(messageOf(() => tierFromWire({ name: 'a', stereotype: 'SUBDIVISION' }))).toContain('stereotype: expected one of NONE');
    expect(messageOf(() => tierFromWire({ name: 'a', stereotype: 'NONE', colour: 'red' }))).toContain('colour: unexpected key');
    expect(messageOf(() => tierFromWire({ name: 'a', stereotype: 'INCLUDED_IN' }))).toContain('parent: stereotype INCLUDED_IN');
  });
});
