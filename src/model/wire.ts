import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, issuesFromAjv } from '../schemas/ajv.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';
import { RationalTime, type RationalTimeWire } from '../time/rational-time.js';
import { TimeInterval, type TimeIntervalWire } from '../time/time-interval.js';
import { makeAnnotation, type Annotation, type Reference } from './annotation.js';
import { WireFormatError } from './errors.js';
import type { JsonObject, JsonValue } from '../json/json-body.js';
import { makeTier, type Tier, type TierStereotype } from './tier.js';

export type ReferenceWire =
  | { kind: 'media'; asset_id: string; interval: TimeIntervalWire }
  | { kind: 'annotation'; target_id: string };

export interface ProvenanceWire {
  was_generated_by: string;
  was_attributed_to: string;
  was_derived_from: string[];
  generated_at_time: RationalTimeWire;
}

/** The JSON form of an annotation, as schemas/annotation.json describes it. */
export interface AnnotationWire {
  id: string;
  tier: string;
  reference: ReferenceWire;
  body: JsonObject;
  body_schema_uri: string;
  provenance: ProvenanceWire;
  confidence: number | null;
}

export interface TierWire {
  name: string;
  stereotype: TierStereotype;
  parent: string | null;
  metadata: Record<string, JsonValue>;
}

/**
 * Every key is always written (`confidence: null`, `was_derived_from: []`), so the wire form of
 * an annotation has one spelling. The body is the annotation's own frozen object, not a copy.
 */
export function annotationToWire(annotation: Annotation): AnnotationWire {
  const { provenance } = annotation;
  return {
    id: annotation.id,
    tier: annotation.tier,
    reference: referenceToWire(annotation.reference),
    body: annotation.body,
    body_schema_uri: annotation.body_schema_uri,
    provenance: {
      was_generated_by: provenance.was_generated_by,
      was_attributed_to: provenance.was_attributed_to,
      was_derived_from: [...provenance.was_derived_from],
      generated_at_time: provenance.generated_at_time.toWire(),
    },
    confidence: annotation.confidence,
  };
}

// The wire JSON as text (list responses, JSON lines, the stores' read fast path) is spelled in wire-json.ts.
export { annotationsToWireJson, annotationWireJson } from './wire-json.js';

export function referenceToWire(reference: Reference): ReferenceWire {
  return reference.kind === 'media'
    ? { kind: 'media', asset_id: reference.asset_id, interval: reference.interval.toWire() }
    : { kind: 'annotation', target_id: reference.target_id };
}

/**
 * Strict reader of the wire form: unknown keys, missing keys, wrong types, fractional ticks,
 * `r <= 0`, a malformed UUID or schema URI and an interval ending before it starts are all
 * rejected with a WireFormatError listing every problem by field path
 * (`reference.interval.start.r: expected a positive integer rate, got 0`). `confidence` and
 * `provenance.was_derived_from` may be omitted (null and [] then).
 */
export function annotationFromWire(json: unknown): Annotation {
  const validate = annotationValidator();
  if (!validate(json)) throw new WireFormatError('annotation', rooted(issuesFromAjv(validate.errors, ''), 'annotation'));
  const wire = json as AnnotationWire;
  let reference: Reference;
  if (wire.reference.kind === 'media') {
    const start = RationalTime.fromWire(wire.reference.interval.start, 'reference.interval.start');
    const end = RationalTime.fromWire(wire.reference.interval.end, 'reference.interval.end');
    // The one rule JSON Schema cannot state: the order of two rationals.
    if (end.lt(start)) {
      throw new WireFormatError('annotation', [{
        path: 'reference.interval',
        message: `end ${end.toSecondsString()} s precedes start ${start.toSecondsString()} s (an interval is [start, end) with start <= end)`,
        keyword: 'semantic',
      }]);
    }
    reference = { kind: 'media', asset_id: wire.reference.asset_id, interval: new TimeInterval(start, end) };
  } else {
    reference = { kind: 'annotation', target_id: wire.reference.target_id };
  }
  return makeAnnotation({
    id: wire.id,
    tier: wire.tier,
    reference,
    body: wire.body,
    body_schema_uri: wire.body_schema_uri,
    provenance: {
      was_generated_by: wire.provenance.was_generated_by,
      was_attributed_to: wire.provenance.was_attributed_to,
      was_derived_from: wire.provenance.was_derived_from ?? [],
      generated_at_time: RationalTime.fromWire(wire.provenance.generated_at_time, 'provenance.generated_at_time'),
    },
    confidence: wire.confidence ?? null,
  });
}

export function tierToWire(tier: Tier): TierWire {
  return { name: tier.name, stereotype: tier.stereotype, parent: tier.parent, metadata: { ...tier.metadata } };
}

/** Strict reader of a tier: `parent` and `metadata` may be omitted; unknown keys are rejected. */
export function tierFromWire(json: unknown): Tier {
  const validate = tierValidator();
  if (!validate(json)) throw new WireFormatError('tier', rooted(issuesFromAjv(validate.errors, ''), 'tier'));
  const wire = json as Partial<TierWire> & { name: string; stereotype: TierStereotype };
  try {
    return makeTier({ name: wire.name, stereotype: wire.stereotype, parent: wire.parent ?? null, metadata: wire.metadata ?? {} });
  } catch (error) {
    const { path, reason } = error as { path?: unknown; reason?: unknown };
    if (typeof path === 'string') {
      throw new WireFormatError('tier', [{ path, message: typeof reason === 'string' ? reason : (error as Error).message, keyword: 'semantic' }]);
    }
    throw error;
  }
}

function rooted(issues: ValidationIssue[], root: string): ValidationIssue[] {
  return issues.map((issue) => (issue.path === '' ? { ...issue, path: root } : issue));
}

// Compiled on first use and kept: the CLI pays for ajv only when it reads annotations.
let annotationValidate: ValidateFunction | undefined;
let tierValidate: ValidateFunction | undefined;

function annotationValidator(): ValidateFunction {
  annotationValidate ??= createAjv().compile(readPackageSchema('annotation.json') as object);
  return annotationValidate;
}

function tierValidator(): ValidateFunction {
  tierValidate ??= createAjv().compile(readPackageSchema('tier.json') as object);
  return tierValidate;
}
