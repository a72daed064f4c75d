import { parseBodySchemaUri } from '../schemas/schema-uri.js';
import { TimeInterval } from '../time/time-interval.js';
import { InvalidAnnotationError } from './errors.js';
import { isUuid, newAnnotationId, normalizeUuid } from './ids.js';
import { copyJsonObject, type JsonObject } from '../json/json-body.js';
import { makeProvenance, type Provenance, type ProvenanceInit } from './provenance.js';
import { bodyTooLong, LIMITS, tooLong } from './limits.js';

/** Standoff reference to a stretch of an immutable media asset. */
export interface MediaRef {
  /** Always `media`. */
  readonly kind: 'media';
  /** Free-form asset id: `sha256:<hex>` from hashFile, a URL, a file name. */
  readonly asset_id: string;
  /** The stretch of the asset, half-open. */
  readonly interval: TimeInterval;
}

/** Reference to another annotation (a review, a symbolic subdivision). It has no interval of its own. */
export interface AnnotationRef {
  /** Always `annotation`. */
  readonly kind: 'annotation';
  /** The id of the annotation referred to. */
  readonly target_id: string;
}

/** What an annotation is about: a stretch of media, or another annotation. */
export type Reference = MediaRef | AnnotationRef;

/**
 * The annotation envelope: a frozen record. Field names are the description's snake_case ones,
 * so the record and its wire form differ only in how times are spelt (RationalTime objects here,
 * `{v, r}` on the wire). Build one with makeAnnotation, which checks every field; `confidence`
 * is always present, null when the producer gave none.
 */
export interface Annotation {
  /** A UUID, lower-case, unique in its store. */
  readonly id: string;
  /** The name of the tier it belongs to. */
  readonly tier: string;
  /** What it is about: a stretch of media, or another annotation. */
  readonly reference: Reference;
  /** Its content, a JSON object that its body schema checks. */
  readonly body: JsonObject;
  /** The URI of the body's schema (`annot://schema/<name>/v<n>`). */
  readonly body_schema_uri: string;
  /** Who or what made it, when, and from what. */
  readonly provenance: Provenance;
  /** How sure its producer was, from 0 to 1; null when it gave none. */
  readonly confidence: number | null;
}

/** What makeAnnotation takes: the fields of an Annotation, the id and confidence optional. */
export interface AnnotationInit {
  /** Defaults to a fresh random UUID. Stored lower-case. */
  readonly id?: string;
  /** The name of the tier it belongs to. */
  readonly tier: string;
  /** What it is about (mediaRef, annotationRef). */
  readonly reference: Reference;
  /** Its content, a JSON object (copied). */
  readonly body: Readonly<Record<string, unknown>>;
  /** The URI of the body's schema. */
  readonly body_schema_uri: string;
  /** Who or what made it, and when; a ProvenanceInit is completed by makeProvenance. */
  readonly provenance: Provenance | ProvenanceInit;
  /** How sure its producer was, from 0 to 1; absent or null for none. */
  readonly confidence?: number | null;
}

/** Builds an annotation, checking every field (InvalidAnnotationError names the field); the result is frozen. */
export function makeAnnotation(init: AnnotationInit): Annotation {
  if (typeof init !== 'object' || init === null) throw new InvalidAnnotationError('annotation', 'expected an object');
  const id = init.id === undefined ? newAnnotationId() : checkUuid(init.id, 'id');
  if (typeof init.tier !== 'string' || init.tier.length === 0) throw new InvalidAnnotationError('tier', 'expected a non-empty tier name');
  const tierReason = tooLong(init.tier, LIMITS.nameChars);
  if (tierReason !== null) throw new InvalidAnnotationError('tier', `a tier name of ${tierReason}`);
  // Copied first: the copy refuses a circular or sparse body, which the length walk could not measure.
  const body = copyJsonObject(init.body, 'body');
  const bodyReason = bodyTooLong(body);
  if (bodyReason !== null) throw new InvalidAnnotationError('body', bodyReason);
  parseBodySchemaUri(init.body_schema_uri);
  const confidence = init.confidence ?? null;
  if (confidence !== null && (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1))) {
    throw new InvalidAnnotationError('confidence', `expected a number in [0, 1] or null, got ${String(confidence)}`);
  }
  return Object.freeze({
    id,
    tier: init.tier,
    reference: makeReference(init.reference),
    body,
    body_schema_uri: init.body_schema_uri,
    provenance: makeProvenance(init.provenance),
    confidence,
  });
}

/**
 * Internal fast path, not part of the package API: freezes an annotation from parts that are
 * valid by construction, checking nothing. For an adapter that has built one annotation of a file
 * with makeAnnotation (which checks the per-file values: tier, asset id, provenance) and then
 * builds the rest from its own parsed primitives: `reference` a frozen MediaRef over a
 * TimeInterval, `body` a deep-frozen JSON object, `provenance` from makeProvenance, a registered
 * schema URI. Skipping the per-record checks and copies makes a WebVTT import about a tenth faster.
 */
export function trustedAnnotation(tier: string, reference: Reference, body: JsonObject, bodySchemaUri: string, provenance: Provenance): Annotation {
  return Object.freeze({ id: newAnnotationId(), tier, reference, body, body_schema_uri: bodySchemaUri, provenance, confidence: null });
}

/** A copy of `annotation` with some fields changed, checked like a new one. The id is kept. */
export function reviseAnnotation(annotation: Annotation, changes: Partial<Omit<AnnotationInit, 'id'>>): Annotation {
  return makeAnnotation({ ...annotation, ...changes, id: annotation.id });
}

/** A reference to a stretch of a media asset. */
export function mediaRef(assetId: string, interval: TimeInterval): MediaRef {
  return makeReference({ kind: 'media', asset_id: assetId, interval }) as MediaRef;
}

/** A reference to another annotation, by its id. */
export function annotationRef(targetId: string): AnnotationRef {
  return makeReference({ kind: 'annotation', target_id: targetId }) as AnnotationRef;
}

/** The annotation's interval, or null for an AnnotationRef (which has none). */
export function annotationInterval(annotation: Annotation): TimeInterval | null {
  return annotation.reference.kind === 'media' ? annotation.reference.interval : null;
}

/** Whether the reference is to media. */
export function isMediaRef(reference: Reference): reference is MediaRef {
  return reference.kind === 'media';
}

/** Whether the reference is to another annotation. */
export function isAnnotationRef(reference: Reference): reference is AnnotationRef {
  return reference.kind === 'annotation';
}

function makeReference(reference: Reference): Reference {
  if (typeof reference !== 'object' || reference === null) throw new InvalidAnnotationError('reference', 'expected a MediaRef or an AnnotationRef');
  const extra = Object.keys(reference).filter((key) => !['kind', 'asset_id', 'interval', 'target_id'].includes(key));
  if (extra.length > 0) throw new InvalidAnnotationError(`reference.${extra[0]}`, 'unexpected key');
  if (reference.kind === 'media') {
    if ('target_id' in reference) throw new InvalidAnnotationError('reference.target_id', 'a MediaRef has no target_id');
    if (typeof reference.asset_id !== 'string' || reference.asset_id.length === 0) {
      throw new InvalidAnnotationError('reference.asset_id', 'expected a non-empty asset id');
    }
    const assetReason = tooLong(reference.asset_id, LIMITS.idChars);
    if (assetReason !== null) throw new InvalidAnnotationError('reference.asset_id', `an asset id of ${assetReason}`);
    if (!(reference.interval instanceof TimeInterval)) throw new InvalidAnnotationError('reference.interval', 'expected a TimeInterval');
    return Object.freeze({ kind: 'media', asset_id: reference.asset_id, interval: reference.interval });
  }
  if (reference.kind === 'annotation') {
    if ('interval' in reference || 'asset_id' in reference) {
      throw new InvalidAnnotationError(`reference.${'interval' in reference ? 'interval' : 'asset_id'}`, 'an AnnotationRef has no interval and no asset; use a MediaRef for media');
    }
    return Object.freeze({ kind: 'annotation', target_id: checkUuid(reference.target_id, 'reference.target_id') });
  }
  throw new InvalidAnnotationError('reference.kind', `expected "media" or "annotation", got ${JSON.stringify((reference as { kind?: unknown }).kind) ?? 'nothing'}`);
}

function checkUuid(value: unknown, path: string): string {
  if (!isUuid(value)) throw new InvalidAnnotationError(path, `expected a UUID (8-4-4-4-12 hex digits), got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`);
  return normalizeUuid(value);
}
