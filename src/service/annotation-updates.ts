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

/** One deletion of a batch: an annotation and the ETag its client read. */
export interface AnnotationDeletion {
  /** The annotation's id. */
  readonly id: string;
  /** The ETag its client read (required: PreconditionRequiredError without it), so a deletion never removes a version nobody saw. */
  readonly ifMatch: string | undefined;
}

/**
 * Creations, updates and deletions applied together or not at all (the service's applyBatch): a
 * split is an update and a creation, a merge an update and a deletion, each judged as a whole.
 */
export interface AnnotationBatch {
  /** Annotations as a client sends them to POST /annotations: id and provenance may be left to the service. */
  readonly creates?: readonly Record<string, unknown>[];
  /** Partial updates of existing annotations, each guarded by the ETag its client read. */
  readonly updates?: readonly AnnotationUpdate[];
  /** Annotations to remove, each guarded by the ETag its client read. */
  readonly deletes?: readonly AnnotationDeletion[];
}

const BATCH_FIELDS = ['updates', 'creates', 'deletes'];
const ITEM_FIELDS = ['id', 'if_match', 'patch'];
const DELETE_FIELDS = ['id', 'if_match'];

/**
 * The wire form of PATCH /annotations, `{"updates": [{"id", "if_match", "patch"}], "creates":
 * [annotation, …], "deletes": [{"id", "if_match"}]}` (any of the three, at least one item in all),
 * read into an AnnotationBatch, naming the field that is wrong. Missing if_match values are the
 * service's to refuse (428), and what an annotation or a patch holds is the service's to check.
 */
export function annotationBatchFromWire(body: unknown): AnnotationBatch {
  if (!isObject(body)) throw new InvalidInputError('body: expected a JSON object {"updates": [{"id", "if_match", "patch"}, …]}');
  const extra = Object.keys(body).filter((key) => !BATCH_FIELDS.includes(key));
  if (extra.length > 0) throw new InvalidInputError(`body.${extra[0]}: unknown field (expected ${BATCH_FIELDS.join(', ')})`);
  const lists = BATCH_FIELDS.filter((name) => body[name] !== undefined);
  for (const name of lists) if (!Array.isArray(body[name])) throw emptyList(name);
  const total = lists.reduce((sum, name) => sum + (body[name] as unknown[]).length, 0);
  if (total === 0) throw lists.length === 0 ? new InvalidInputError('body: expected at least one of "updates", "creates" or "deletes" with an item') : emptyList(lists[0]);
  return {
    ...(body.updates !== undefined ? { updates: (body.updates as unknown[]).map(updateFromWire) } : {}),
    ...(body.creates !== undefined ? { creates: (body.creates as unknown[]).map(createFromWire) } : {}),
    ...(body.deletes !== undefined ? { deletes: (body.deletes as unknown[]).map(deletionFromWire) } : {}),
  };
}

function emptyList(name: string): InvalidInputError {
  const shape = name === 'updates' ? '{"id", "if_match", "patch"}' : name === 'deletes' ? '{"id", "if_match"}' : 'annotations as POST /annotations takes them';
  return new InvalidInputError(`body.${name}: expected a non-empty array of ${shape}`);
}

function updateFromWire(item: unknown, index: number): AnnotationUpdate {
  const at = `body.updates[${index}]`;
  const { id, ifMatch, fields } = identified(item, at, ITEM_FIELDS, '{"id", "if_match", "patch"}');
  if (fields.patch === undefined) throw new InvalidInputError(`${at}.patch: missing (the fields to change, as for PATCH /annotations/:id)`);
  return { id, ifMatch, patch: fields.patch as AnnotationPatch };
}

function deletionFromWire(item: unknown, index: number): AnnotationDeletion {
  const { id, ifMatch } = identified(item, `body.deletes[${index}]`, DELETE_FIELDS, '{"id", "if_match"}');
  return { id, ifMatch };
}

function createFromWire(item: unknown, index: number): Record<string, unknown> {
  if (!isObject(item)) throw new InvalidInputError(`body.creates[${index}]: expected an annotation (a JSON object, as POST /annotations takes it)`);
  return item;
}

/** An item naming an annotation by id, with the ETag its client read. */
function identified(item: unknown, at: string, known: readonly string[], shape: string): { id: string; ifMatch: string | undefined; fields: Record<string, unknown> } {
  if (!isObject(item)) throw new InvalidInputError(`${at}: expected a JSON object ${shape}`);
  const unknown = Object.keys(item).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new InvalidInputError(`${at}.${unknown[0]}: unknown field (expected ${known.join(', ')})`);
  if (typeof item.id !== 'string' || item.id === '') throw new InvalidInputError(`${at}.id: expected the annotation's id (a string)`);
  if (item.if_match !== undefined && typeof item.if_match !== 'string') throw new InvalidInputError(`${at}.if_match: expected the ETag read with GET (a string)`);
  return { id: item.id, ifMatch: item.if_match, fields: item };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
