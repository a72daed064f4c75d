/**
 * The one table of error codes: each stable ANNOT_* code with the HTTP status the server answers
 * with and the exit status the CLI ends with. Every surface carries the code itself (HTTP in
 * `error.code`, MCP in the tool error's structured content, the CLI in `[ANNOT_CODE]` and its
 * `--json` errors); this table decides only the numbers. The rule behind the HTTP column: a
 * request the server cannot read (query string, malformed body, unknown format name, a time that
 * is not one) is 400; a well-formed body whose content is invalid (schema, tier, order) is 422; a
 * missing resource 404; a clash with the current state 409; conditional writes 412/428. The CLI
 * exits 2 on a usage error and 1 on every other failure.
 */
export interface ErrorRow {
  readonly http: number;
  readonly exit: number;
}

const row = (http: number, exit = 1): ErrorRow => ({ http, exit });

export const ERROR_TABLE: Readonly<Record<string, ErrorRow>> = Object.freeze({
  // surfaces
  ANNOT_USAGE: row(400, 2),
  ANNOT_UNAUTHORIZED: row(401),
  ANNOT_ROUTE_NOT_FOUND: row(404),
  ANNOT_SCHEMA_NOT_FOUND: row(404),
  ANNOT_MALFORMED_BODY: row(400),
  ANNOT_UNSUPPORTED_MEDIA_TYPE: row(415),
  ANNOT_BODY_TOO_LARGE: row(413),
  ANNOT_INVALID_QUERY: row(400),
  ANNOT_INVALID_BODY: row(422),
  ANNOT_SHUTTING_DOWN: row(503),
  ANNOT_INTERNAL: row(500),
  // shared
  ANNOT_INVALID_INPUT: row(400),
  ANNOT_NOT_FOUND: row(404),
  // model and schemas: the content of a body
  ANNOT_INVALID_WIRE: row(422),
  ANNOT_INVALID_ANNOTATION: row(422),
  ANNOT_INVALID_TIER: row(422),
  ANNOT_INVALID_SCHEMA_URI: row(422),
  ANNOT_UNKNOWN_BODY_SCHEMA: row(422),
  ANNOT_BODY_VALIDATION: row(422),
  ANNOT_NON_STRING_BODY_KEY: row(422),
  ANNOT_NOT_JSON: row(422),
  ANNOT_MISSING_MIGRATION: row(422),
  ANNOT_MIGRATION_FAILED: row(422),
  ANNOT_BODY_SCHEMA_CONFLICT: row(409),
  // store
  ANNOT_ANNOTATION_NOT_FOUND: row(404),
  ANNOT_TIER_NOT_FOUND: row(404),
  ANNOT_UNKNOWN_TIER: row(422),
  ANNOT_DUPLICATE_ID: row(409),
  ANNOT_TIER_IN_USE: row(409),
  ANNOT_TIER_OVERLAP: row(409),
  // An edit breaking a stereotype's constraint: a clash with the other annotations as they are now
  // (the parent's interval, the siblings), which the client resolves by editing those first.
  ANNOT_TIER_CONSTRAINT: row(409),
  ANNOT_KEY_MISMATCH: row(422),
  // A paging cursor (?after=, the after argument) that is not one this store gave out for this
  // query: from another window, relation or tier, from an older annot, or damaged.
  ANNOT_INVALID_CURSOR: row(400),
  // Only an uploaded file is opened while answering a request: not an .annot file (or a newer one).
  ANNOT_STORE_FORMAT: row(422),
  ANNOT_PROJECT_RATE_MISMATCH: row(422),
  // op-log and service
  ANNOT_PRECONDITION_FAILED: row(412),
  ANNOT_PRECONDITION_REQUIRED: row(428),
  ANNOT_CLOCK_OUT_OF_RANGE: row(400),
  // A served file in another format that could not be written back (the server's own disk, not the request).
  ANNOT_SAVE_FAILED: row(500),
  // A served file another program changed on disk: the edits are not saved over it (a clash with its state).
  ANNOT_FILE_CHANGED_ON_DISK: row(409),
  // time: query strings, tool arguments and body times in seconds or timecodes
  ANNOT_LOSSY_TIME: row(400),
  ANNOT_INVALID_TIME: row(400),
  ANNOT_UNKNOWN_RELATION: row(400),
  // formats
  ANNOT_UNKNOWN_FORMAT: row(400),
  ANNOT_FORMAT_PARSE: row(422),
  ANNOT_UNREPRESENTABLE: row(422),
});

/** The row of a code, if the table has it (surfaces fall back on the error's family otherwise). */
export function errorRow(code: string): ErrorRow | undefined {
  return Object.prototype.hasOwnProperty.call(ERROR_TABLE, code) ? ERROR_TABLE[code] : undefined;
}

/** The CLI's exit status for a code: the table's, else 1. */
export function exitStatusFor(code: string): number {
  return errorRow(code)?.exit ?? 1;
}
