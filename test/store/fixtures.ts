import { annotationRef, makeAnnotation, mediaRef, type Annotation } from '../../src/model/annotation.js';
import { makeTier, type Tier, type TierInit } from '../../src/model/tier.js';
import { annotationToWire, type AnnotationWire } from '../../src/model/wire.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

/** Builders shared by the store tests: small, deterministic, valid annotations and tiers. */

export const ASSET = 'sha256:' + 'ab'.repeat(32);
export const LABEL_SCHEMA = 'annot://schema/label/v1';

/** A deterministic UUID whose string order is the order of `n`, so ties by id are easy to predict. */
export function idFor(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** [start, end) in ticks at `rate` (one tick per second by default). */
export function iv(start: number, end: number, rate = 1): TimeInterval {
  return new TimeInterval(new RationalTime(start, rate), new RationalTime(end, rate));
}

export function point(at: number, rate = 1): TimeInterval {
  return iv(at, at, rate);
}

export function tier(name: string, init: Omit<TierInit, 'name'> = {}): Tier {
  return makeTier({ name, ...init });
}

export interface AnnotationOptions {
  id?: string | number;
  tier?: string;
  label?: string;
  confidence?: number | null;
  asset?: string;
}

/** A label/v1 annotation on `interval` (tier "words" by default). */
export function ann(interval: TimeInterval, options: AnnotationOptions = {}): Annotation {
  const id = typeof options.id === 'number' ? idFor(options.id) : options.id;
  return makeAnnotation({
    id,
    tier: options.tier ?? 'words',
    reference: mediaRef(options.asset ?? ASSET, interval),
    body: { text: options.label ?? 'x' },
    body_schema_uri: LABEL_SCHEMA,
    provenance: {
      was_generated_by: 'user:test',
      was_attributed_to: 'user:reviewer',
      was_derived_from: [],
      generated_at_time: new RationalTime(1_700_000_000_123, 1000),
    },
    confidence: options.confidence ?? null,
  });
}

/** An AnnotationRef annotation (no interval) pointing at `target`. */
export function refAnn(target: string, options: AnnotationOptions = {}): Annotation {
  const id = typeof options.id === 'number' ? idFor(options.id) : options.id;
  return makeAnnotation({
    id,
    tier: options.tier ?? 'notes',
    reference: annotationRef(target),
    body: { text: options.label ?? 'note' },
    body_schema_uri: LABEL_SCHEMA,
    provenance: { was_generated_by: 'user:test', generated_at_time: new RationalTime(0, 1) },
    confidence: options.confidence ?? null,
  });
}

export function wire(annotation: Annotation | null): AnnotationWire | null {
  return annotation === null ? null : annotationToWire(annotation);
}

export function ids(annotations: readonly Annotation[]): string[] {
  return annotations.map((a) => a.id);
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
