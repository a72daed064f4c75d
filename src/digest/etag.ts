import type { Annotation } from '../model/annotation.js';
import { copyJsonObject } from '../json/json-body.js';
import { annotationToWire } from '../model/wire.js';
import { canonicalJson } from '../json/canonical-json.js';
import { sha256Hex } from './hash-file.js';

export const ETAG_SCHEME = 'annot/annotation-etag/v1';

/**
 * Strong HTTP ETag of the whole annotation (id and provenance included), `"<32 hex>"`: SHA-256
 * of the canonical wire JSON truncated to 128 bits, which is plenty to tell versions of one
 * resource apart. Any change, even to provenance alone, changes it.
 */
export function annotationEtag(annotation: Annotation): string {
  copyJsonObject(annotation.body, 'body');
  return `"${sha256Hex(`${ETAG_SCHEME}\n${canonicalJson(annotationToWire(annotation), 'annotation')}`).slice(0, 32)}"`;
}

/**
 * Whether an `If-Match` header value admits the current ETag (RFC 9110 §13.1.1): `*` matches any
 * existing resource; otherwise one of the comma-separated entity tags must match by strong
 * comparison, so weak tags (`W/"..."`) never match.
 */
export function ifMatchSatisfied(header: string, currentEtag: string): boolean {
  const value = header.trim();
  if (value === '*') return true;
  const tags = value.match(/(?:W\/)?"[^"]*"/g) ?? [];
  return tags.some((tag) => !tag.startsWith('W/') && tag === currentEtag);
}
