import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, issuesFromAjv } from '../schemas/ajv.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import { precompiledValidator } from '../schemas/precompiled.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';
import { RationalTime, type RationalTimeWire } from '../time/rational-time.js';
import { timeToOutput, type TimeStyle } from '../time/time-format.js';
import { resolveInterval, type ResolveOptions, type TimeInput } from '../time/time-input.js';
import { TimeInterval, type TimeIntervalWire } from '../time/time-interval.js';
import { makeAnnotation, type Annotation, type Reference } from './annotation.js';
import { WireFormatError } from './errors.js';
import { canonicalJson } from '../json/canonical-json.js';
import type { JsonObject, JsonValue } from '../json/json-body.js';
import { makeTier, type Tier, type TierStereotype } from './tier.js';

/** The JSON form of a Reference. */
export type ReferenceWire =
  | {
      /** A stretch of a media asset. */
      kind: 'media';
      /** The asset's id (`sha256:<hex>`, a URL, a file name). */
      asset_id: string;
      /** The stretch, `{start, end}` as `{v, r}` times. */
      interval: TimeIntervalWire;
    }
  | {
      /** Another annotation. */
      kind: 'annotation';
      /** That annotation's id. */
      target_id: string;
    };

/** The JSON form of a Provenance. */
export interface ProvenanceWire {
  /** The agent that made the annotation (`user:<name>`, `model:<id>`, a processor). */
  was_generated_by: string;
  /** The agent responsible for it. */
  was_attributed_to: string;
  /** The ids of the annotations it was derived from. */
  was_derived_from: string[];
  /** When it was made, as `{v, r}`. */
  generated_at_time: RationalTimeWire;
}

/** The JSON form of an annotation, as schemas/annotation.json describes it. */
export interface AnnotationWire {
  /** The annotation's id. */
  id: string;
  /** The name of its tier. */
  tier: string;
  /** What it is about. */
  reference: ReferenceWire;
  /** Its content. */
  body: JsonObject;
  /** The URI of the body's schema. */
  body_schema_uri: string;
  /** Who or what made it, and when. */
  provenance: ProvenanceWire;
  /** How sure its producer was, from 0 to 1, or null. */
  confidence: number | null;
}

/** The JSON form of a tier, as schemas/tier.json describes it. */
export interface TierWire {
  /** The tier's name. */
  name: string;
  /** Its stereotype (how its annotations relate to its parent's). */
  stereotype: TierStereotype;
  /** The name of its parent tier, or null. */
  parent: string | null;
  /** Free metadata, kept as given. */
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

/**
 * The wire form as the surfaces answer with it (wire v2): every time carries its exact seconds
 * `s` beside `{v, r}` (`{"v": 7800, "r": 1000, "s": "7.8"}`), or also a timecode `tc`, or only the
 * pair (`ticks`). annotationToWire stays the canonical form that ETags, digests and stores use.
 */
export function annotationToOutput(annotation: Annotation, style: TimeStyle = 'seconds'): AnnotationWire {
  const wire = annotationToWire(annotation);
  if (style === 'ticks') return wire;
  const { reference, provenance } = annotation;
  if (reference.kind === 'media') {
    wire.reference = {
      kind: 'media',
      asset_id: reference.asset_id,
      interval: { start: timeToOutput(reference.interval.start, style), end: timeToOutput(reference.interval.end, style) },
    };
  }
  wire.provenance.generated_at_time = timeToOutput(provenance.generated_at_time, style);
  return wire;
}

// The wire JSON as text (list responses, JSON lines, the stores' read fast path) is spelled in wire-json.ts.
export { annotationsToWireJson, annotationWireJson } from './wire-json.js';

/**
 * The wire form of any annotation JSON with its times given in any form of the time vocabulary
 * (`"12.345"`, `"00:00:12.345"`, `"00:00:12:08"` with fps, `{v, r}`): the interval's times become
 * exact `{v, r}` pairs at `options.rate` (or the rate they need, at least milliseconds for
 * seconds and timecodes), so annotationFromWire reads it. Anything else is left for it to judge.
 */
export function resolveWireTimes(input: unknown, options: ResolveOptions = {}): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const reference = (input as { reference?: unknown }).reference;
  if (typeof reference !== 'object' || reference === null || (reference as { kind?: unknown }).kind !== 'media') return input;
  const interval = (reference as { interval?: unknown }).interval;
  if (typeof interval !== 'object' || interval === null || Array.isArray(interval)) return input;
  const { start, end } = interval as { start?: unknown; end?: unknown };
  const isForm = (time: unknown): boolean => typeof time === 'string' || typeof time === 'number';
  if (start === undefined || end === undefined) return input;
  if (!isForm(start) && !isForm(end) && options.rate === undefined) return input;
  const resolved = resolveInterval(start as TimeInput, end as TimeInput, {
    minimumRate: 1000,
    ...options,
    startField: 'reference.interval.start',
    endField: 'reference.interval.end',
  });
  return { ...input, reference: { ...reference, interval: resolved.toWire() } };
}

/** A wire annotation (as a replay or a store gives it) with the exact seconds `s` beside each time. */
export function wireWithSeconds(wire: AnnotationWire): AnnotationWire {
  const seconds = (time: RationalTimeWire): RationalTimeWire => timeToOutput(new RationalTime(time.v, time.r));
  const out: AnnotationWire = { ...wire, provenance: { ...wire.provenance, generated_at_time: seconds(wire.provenance.generated_at_time) } };
  if (wire.reference.kind === 'media') {
    const { start, end } = wire.reference.interval;
    out.reference = { ...wire.reference, interval: { start: seconds(start), end: seconds(end) } };
  }
  return out;
}

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

/** The wire form of a tier. */
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
  annotationValidate ??= wireValidator('annotation.json');
  return annotationValidate;
}

function tierValidator(): ValidateFunction {
  tierValidate ??= wireValidator('tier.json');
  return tierValidate;
}

/** The build's compiled validator of a wire schema (precompiled.ts), else compiled here. */
function wireValidator(file: 'annotation.json' | 'tier.json'): ValidateFunction {
  const schema = readPackageSchema(file) as object;
  return precompiledValidator(file, canonicalJson(schema, 'schema')) ?? createAjv().compile(schema);
}
