import type { Annotation } from '../model/annotation.js';
import { copyJsonObject } from '../json/json-body.js';
import { referenceToWire } from '../model/wire.js';
import { canonicalJson } from '../json/canonical-json.js';
import { sha256Hex } from './hash-file.js';

/**
 * Each digest hashes a scheme tag line before the canonical JSON, so a value digest and a body
 * digest of the same annotation can never coincide (domain separation), and a future change of
 * the payload gets a new tag instead of silently changing what old digests meant.
 */
export const VALUE_DIGEST_SCHEME = 'annot/annotation-value-digest/v1';
export const BODY_DIGEST_SCHEME = 'annot/annotation-body-digest/v1';

/** The fields the value digest covers; id and provenance are left out on purpose. */
export const VALUE_FIELDS = Object.freeze(['body', 'body_schema_uri', 'confidence', 'reference', 'tier'] as const);
export const BODY_FIELDS = Object.freeze(['body', 'body_schema_uri'] as const);

/**
 * "Did the answer change?": SHA-256 hex over body, body_schema_uri, tier, reference (asset,
 * interval, kind) and confidence (null when absent, so absent and 0 differ). A regenerated
 * annotation with the same content (new id, new provenance) keeps its digest.
 *
 * Times are hashed as written, `{v, r}`: 1/24 s and 2/48 s are the same instant but digest
 * differently. That is a spurious miss (the digest says "changed" for an equal value), which is
 * accepted; normalising would cost a reduction per time and gain nothing a digest must guarantee.
 * The digest never gives a false hit: a body with a non-string key is refused
 * (NonStringBodyKeyError), never coerced.
 */
export function annotationValueDigest(annotation: Annotation): string {
  const body = copyJsonObject(annotation.body, 'body');
  return digest(VALUE_DIGEST_SCHEME, {
    body,
    body_schema_uri: annotation.body_schema_uri,
    confidence: annotation.confidence ?? null,
    reference: referenceToWire(annotation.reference),
    tier: annotation.tier,
  });
}

/** "Is this the same body?": body and body_schema_uri only, so one body over different assets or intervals digests alike. */
export function annotationBodyDigest(annotation: Annotation): string {
  const body = copyJsonObject(annotation.body, 'body');
  return digest(BODY_DIGEST_SCHEME, { body, body_schema_uri: annotation.body_schema_uri });
}

function digest(scheme: string, payload: object): string {
  return sha256Hex(`${scheme}\n${canonicalJson(payload, 'annotation')}`);
}
