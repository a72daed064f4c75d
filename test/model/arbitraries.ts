import fc from 'fast-check';
import { makeAnnotation, type Annotation, type AnnotationInit } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** A small, valid annotation for tests; fields can be overridden. */
export function sampleAnnotation(overrides: Partial<AnnotationInit> = {}): Annotation {
  return makeAnnotation({
    id: '0b1f6c2e-8d3a-4c1b-9e7f-2a5d6c7e8f90',
    tier: 'words',
    reference: { kind: 'media', asset_id: 'sha256:' + 'ab'.repeat(32), interval: TimeInterval.fromSeconds('1.5', '2', 1000) },
    body: { text: 'hello', speaker: null },
    body_schema_uri: 'annot://schema/word/v1',
    provenance: { was_generated_by: 'user:alice', generated_at_time: new RationalTime(1_700_000_000_000, 1000) },
    confidence: 0.75,
    ...overrides,
  });
}

const rate = fc.constantFrom(1, 24, 25, 48, 1000, 44100, 30000);
const time = fc.record({ v: fc.integer({ min: -1_000_000, max: 1_000_000 }), r: rate }).map(({ v, r }) => new RationalTime(v, r));
export const intervalArb = fc.tuple(time, time).map(([a, b]) => (a.le(b) ? new TimeInterval(a, b) : new TimeInterval(b, a)));

const referenceArb = fc.oneof(
  fc.record({ kind: fc.constant('media' as const), asset_id: fc.string({ minLength: 1, maxLength: 12 }), interval: intervalArb }),
  fc.record({ kind: fc.constant('annotation' as const), target_id: fc.uuid() }),
);

/** Bodies as JSON objects; fast-check's JSON values include nesting, unicode and "__proto__"-like keys. */
export const bodyArb = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }) as fc.Arbitrary<Record<string, unknown>>;

export const annotationArb: fc.Arbitrary<Annotation> = fc
  .record({
    id: fc.uuid(),
    tier: fc.string({ minLength: 1, maxLength: 10 }),
    reference: referenceArb,
    body: bodyArb,
    body_schema_uri: fc.tuple(fc.constantFrom('word', 'named-entity', 'x-1'), fc.integer({ min: 1, max: 20 })).map(([n, v]) => `annot://schema/${n}/v${v}`),
    provenance: fc.record({
      was_generated_by: fc.string({ minLength: 1, maxLength: 10 }),
      was_attributed_to: fc.string({ minLength: 1, maxLength: 10 }),
      was_derived_from: fc.array(fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 10 })), { maxLength: 3 }),
      generated_at_time: time,
    }),
    confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
  })
  .map((init) => makeAnnotation(init));
