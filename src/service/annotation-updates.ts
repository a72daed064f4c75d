import { InvalidInputError } from '../errors/annot-error.js';

/** A partial update of an annotation, its wire field names. */
export interface AnnotationPatch {
  /** The new tier. */
  tier?: string;
  /** The new body. */
  body?: Record<string, unknown>;
  /** The new body schema URI. */
  body_schema_uri?: string;
  /** The new confidence, or null for none. */
  confidence?: number | null;
  /** The new reference, in wire form (times in any form of the time vocabulary). */
  reference?: unknown;
}

/** One item of a batch update: an annotation, the ETag its client read, and its partial update. */
export interface AnnotationUpdate {
  /** The annotation's id. */
  readonly id: string;
  /** The ETag its client read (required: PreconditionRequiredError without it). */
  readonly ifMatch: string | undefined;
  /** The fields to change. */
  readonly patch: AnnotationPatch;
}

const ITEM_FIELDS = ['id', 'if_match', 'patch'];

/**
 * The wire form of a batch update, `{"updates": [{"id", "if_match", "patch"}]}`, read into
 * AnnotationUpdates, naming the field that is wrong. A missing if_match is let through: the
 * service refuses it as it refuses a PATCH without If-Match (428). What a patch may change is the
 * service's to check.
 */
export function annotationUpdatesFromWire(body: unknown): AnnotationUpdate[] {
  if (!isObject(body)) throw new InvalidInputError('body: expected a JSON object {"updates": [{"id", "if_match", "patch"}, …]}');
  const extra = Object.keys(body).filter((key) => key !== 'updates');
  if (extra.length > 0) throw new InvalidInputError(`body.${extra[0]}: unknown field (expected only "updates")`);
  const { updates } = body;
  if (!Array.isArray(updates) || updates.length === 0) throw new InvalidInputError('body.updates: expected a non-empty array of {"id", "if_match", "patch"}');
  return updates.map((item: unknown, index) => {
    const at = `body.updates[${index}]`;
    if (!isObject(item)) throw new InvalidInputError(`${at}: expected a JSON object {"id", "if_match", "patch"}`);
    const unknown = Object.keys(item).filter((key) => !ITEM_FIELDS.includes(key));
    if (unknown.length > 0) throw new InvalidInputError(`${at}.${unknown[0]}: unknown field (expected ${ITEM_FIELDS.join(', ')})`);
    if (typeof item.id !== 'string' || item.id === '') throw new InvalidInputError(`${at}.id: expected the annotation's id (a string)`);
    if (item.if_match !== undefined && typeof item.if_match !== 'string') throw new InvalidInputError(`${at}.if_match: expected the ETag read with GET (a string)`);
    if (item.patch === undefined) throw new InvalidInputError(`${at}.patch: missing (the fields to change, as for PATCH /annotations/:id)`);
    return { id: item.id, ifMatch: item.if_match, patch: item.patch as AnnotationPatch };
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
