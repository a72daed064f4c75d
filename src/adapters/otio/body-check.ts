import type { JsonValue } from '../../json/json-body.js';
import { validateBody } from '../../schemas/registry.js';
import type { ValidationIssue } from '../../schemas/validation-issue.js';
import type { Body } from './read-bodies.js';
import { fail, report, type ReadState } from './read-state.js';

/** Body keys the reader sets itself: a failure there is not the file's, and is never moved. */
const OWN_KEYS = new Set(['kind', 'owner', 'owner_annotation_id', 'otio_schema', 'extra']);

/**
 * A body checked against its own schema before it is kept, so that what `convert` writes,
 * `validate` accepts. A field copied from the file that the schema refuses (an
 * `active_media_reference_key` that is an object, `metadata: true`) moves to `extra`, verbatim,
 * which the writer puts back where it was: nothing is lost, and a warning names the JSON path.
 * Anything else the schema refuses refuses the file, naming the path and what was expected.
 */
export function checkedBody(state: ReadState, body: Body, schema: string, path: string): Body {
  const first = validateBody(schema, body);
  if (first.valid) return body;
  const moved = movableKeys(first.errors, body);
  const repaired = moved.length > 0 ? moveToExtra(body, moved) : body;
  const second = moved.length > 0 ? validateBody(schema, repaired) : first;
  if (!second.valid) {
    const issue = second.errors[0];
    return fail(state, `${path}${issue.path.replace(/^body/, '')}`, `a value the ${shortName(schema)} body can hold: ${issue.message}`);
  }
  for (const key of moved) {
    const issue = first.errors.find((candidate) => topKey(candidate.path) === key) as ValidationIssue;
    report(
      state,
      'otio_field_kept_verbatim',
      `${path}.${key}`,
      `${key} ${describe(body[key])} is not what ${shortName(schema)} holds there (${issue.message}): kept as written in the body's extra, and written back as it was`,
    );
  }
  return repaired;
}

function movableKeys(issues: readonly ValidationIssue[], body: Body): string[] {
  const keys: string[] = [];
  for (const issue of issues) {
    const key = topKey(issue.path);
    if (key !== null && !OWN_KEYS.has(key) && key in body && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/** The moved fields in `extra`; a required `name` stays, empty. */
function moveToExtra(body: Body, keys: readonly string[]): Body {
  const out: Body = {};
  const extra: Record<string, unknown> = { ...((body.extra as Record<string, unknown> | undefined) ?? {}) };
  for (const [key, value] of Object.entries(body)) {
    if (key === 'extra') continue;
    if (keys.includes(key)) extra[key] = value;
    else out[key] = value;
  }
  if (keys.includes('name')) out.name = '';
  out.extra = extra;
  return out;
}

/** `body.metadata` → `metadata`; a path into the body's root only. */
function topKey(path: string): string | null {
  const match = /^body\.([A-Za-z_][A-Za-z0-9_]*)/.exec(path);
  return match ? match[1] : null;
}

function shortName(schema: string): string {
  return schema.replace(/^annot:\/\/schema\//, '');
}

function describe(value: unknown): string {
  const text = JSON.stringify(value as JsonValue) ?? String(value);
  return `(${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value}: ${text.length > 40 ? `${text.slice(0, 37)}...` : text})`;
}
