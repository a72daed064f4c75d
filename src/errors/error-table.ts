/**
 * The one registry of error codes: every stable ANNOT_* code annot gives, with the HTTP status the
 * server answers with, the exit status the CLI ends with, and what the code means in one line.
 * `AnnotError.code` is typed as a key of this registry, so a code that is not here (or a typo)
 * does not compile; `docs/errors.md` and `annot errors` are generated from it.
 *
 * Every surface carries the code itself (HTTP in `error.code`, MCP in the tool error's structured
 * content, the CLI in `[ANNOT_CODE]` and its `--json` errors); this registry decides only the
 * numbers. The rule behind the HTTP column: a request the server cannot read (query string,
 * malformed body, unknown format name, a time that is not one) is 400; a well-formed body whose
 * content is invalid (schema, tier, order) is 422; a missing resource 404; a clash with the
 * current state 409; conditional writes 412/428. The CLI exits 2 on a usage error and 1 on every
 * other failure. Codes only the CLI or the renderer give still have an HTTP status, so that a
 * future surface maps them the same way.
 *
 * To add a code: one row here, `ANNOT_NAME: row(http, 'what it means, in one line')` (a third
 * argument when the exit status is not 1), then `npm run errors-doc` to regenerate docs/errors.md.
 */
export interface ErrorRow {
  /** The HTTP status the server answers with. */
  readonly http: number;
  /** The exit status the CLI ends with. */
  readonly exit: number;
  /** What the code means, in one line: the documentation page and `annot errors` show it. */
  readonly meaning: string;
}

const row = (http: number, meaning: string, exit = 1): ErrorRow => ({ http, exit, meaning });

/** Every `ANNOT_*` code with its HTTP status, its exit status and its meaning (see ErrorRow). */
export const ERROR_TABLE = Object.freeze({
  // surfaces
  ANNOT_USAGE: row(400, 'a command line annot cannot parse: an unknown flag, a missing argument, a value out of range', 2),
  ANNOT_UNAUTHORIZED: row(401, 'no bearer token, or the wrong one, on a server started with --token'),
  ANNOT_ROUTE_NOT_FOUND: row(404, 'a method and path the server does not serve (or media the server does not have)'),
  ANNOT_SCHEMA_NOT_FOUND: row(404, 'a GET /schemas/{uri} for a URI no body schema is registered under'),
  ANNOT_MALFORMED_BODY: row(400, 'a request body that is not what its Content-Type says: malformed or empty JSON, a broken multipart stream'),
  ANNOT_UNSUPPORTED_MEDIA_TYPE: row(415, 'a request body of a media type the route does not take'),
  ANNOT_BODY_TOO_LARGE: row(413, 'a request body over the size limit of its route (--max-body, --max-import)'),
  ANNOT_INVALID_QUERY: row(400, 'a query string parameter that is missing, repeated, unknown or not of its type'),
  ANNOT_INVALID_BODY: row(422, 'a well-formed JSON body that fails the route\'s own schema'),
  ANNOT_BAD_REQUEST: row(400, 'a request the HTTP server refused before annot read it (a malformed URL or header)'),
  ANNOT_RANGE_NOT_SATISFIABLE: row(416, 'a Range header that lies outside the served media file'),
  // media: the waveform of the served media (GET /media/peaks), the speech annot sync aligns to
  ANNOT_NO_AUDIO: row(404, 'a media file with no audio track: no waveform to draw (GET /media/peaks), no speech to sync to (annot sync)'),
  ANNOT_MEDIA_UNREADABLE: row(500, 'a media file the bundled FFmpeg could not decode (damaged, or not audio or video): the served media, or the media of annot sync'),
  ANNOT_SYNC_UNCERTAIN: row(422, 'annot sync --strict found no clear alignment of the cues (confidence under 0.5); nothing was written'),
  ANNOT_SYNC_NO_CUES: row(422, 'annot sync was given a subtitle or reference file with no timed cues to align'),
  ANNOT_SHUTTING_DOWN: row(503, 'a request that arrived while the server shuts down'),
  ANNOT_INTERNAL: row(500, 'a bug in annot: please report it with the command and ANNOT_DEBUG=1 output'),
  // the operating system, as the CLI reports it (the server answers these as ANNOT_INTERNAL)
  ANNOT_SYSTEM_ENOENT: row(500, 'a file or directory that does not exist'),
  ANNOT_SYSTEM_EISDIR: row(500, 'a directory where a file was expected'),
  ANNOT_SYSTEM_ENOTDIR: row(500, 'a path through something that is not a directory'),
  ANNOT_SYSTEM_ERROR: row(500, 'another operating-system error; the message carries the system\'s own words'),
  // shared
  ANNOT_INVALID_INPUT: row(400, 'input that does not have the shape or the values the caller promised'),
  ANNOT_NOT_FOUND: row(404, 'a lookup of something that does not exist'),
  // model and schemas: the content of a body
  ANNOT_INVALID_WIRE: row(422, 'a wire (JSON) annotation or tier that is malformed; details list every problem'),
  ANNOT_INVALID_ANNOTATION: row(422, 'an annotation built with a value it cannot hold'),
  ANNOT_INVALID_TIER: row(422, 'a tier built with a name, stereotype, parent or metadata it cannot hold'),
  ANNOT_INVALID_SCHEMA_URI: row(422, 'a body_schema_uri that is not of the form annot://schema/<name>/v<N>'),
  ANNOT_UNKNOWN_BODY_SCHEMA: row(422, 'a body schema URI nothing is registered under'),
  ANNOT_BODY_VALIDATION: row(422, 'an annotation body that does not satisfy its schema; details list every failure'),
  ANNOT_INVALID_JSON_SCHEMA: row(400, 'a JSON Schema that ajv refuses to compile (the schema itself, not a body)'),
  ANNOT_NON_STRING_BODY_KEY: row(422, 'a body with a mapping key that is not a string, which would make two bodies digest alike'),
  ANNOT_NOT_JSON: row(422, 'a value with no canonical JSON form (a function, a bigint, NaN, a class instance)'),
  ANNOT_MIGRATION: row(400, 'a body migration that cannot mean anything: across schemas, backwards, a malformed step'),
  ANNOT_MISSING_MIGRATION: row(422, 'a step of a body migration chain with no registered function'),
  ANNOT_MIGRATION_FAILED: row(422, 'a migration function that threw, or produced a body its target schema rejects'),
  ANNOT_BODY_SCHEMA_CONFLICT: row(409, 'a different body schema is already registered under this URI'),
  // store
  ANNOT_ANNOTATION_NOT_FOUND: row(404, 'an annotation id the store does not hold'),
  ANNOT_TIER_NOT_FOUND: row(404, 'a tier name the store has not registered'),
  ANNOT_UNKNOWN_TIER: row(422, 'an annotation that names a tier the store has not registered'),
  ANNOT_DUPLICATE_ID: row(409, 'an annotation id that is already in the store'),
  ANNOT_TIER_IN_USE: row(409, 'a tier that still has child tiers or annotations, so it cannot be removed'),
  ANNOT_TIER_OVERLAP: row(409, 'an annotation that would overlap another in a tier that forbids overlaps'),
  // An edit breaking a stereotype's constraint: a clash with the other annotations as they are now
  // (the parent's interval, the siblings), which the client resolves by editing those first.
  ANNOT_TIER_CONSTRAINT: row(409, 'an edit that would break a constraint of its tier\'s stereotype; details list the violations'),
  ANNOT_KEY_MISMATCH: row(422, 'a mapping-store write whose annotations do not sit at the key they are written under'),
  ANNOT_INVALID_CURSOR: row(400, 'a paging cursor (?after=, the after argument) this store did not give out for this query: another window, an older annot, or damaged'),
  // Only an uploaded file is opened while answering a request: not an .annot file (or a newer one).
  ANNOT_STORE_FORMAT: row(422, 'a file or database that is not an annot store, or of a schema version this build cannot open'),
  ANNOT_PROJECT_RATE_MISMATCH: row(422, 'a project reopened with a time rate other than the one it was created with'),
  ANNOT_PROJECT_NOT_FOUND: row(404, 'a PostgreSQL project a read names and the database does not hold (reading never creates one)'),
  ANNOT_STORE_UNREACHABLE: row(503, 'the PostgreSQL server of a store URL cannot be reached (refused, host unknown, timeout, connection lost)'),
  ANNOT_STORE_DATABASE_NOT_FOUND: row(500, 'the database a store URL names does not exist on its server'),
  ANNOT_STORE_ROLE_NOT_FOUND: row(500, 'the role a store URL logs in as does not exist on its server'),
  ANNOT_STORE_AUTH_FAILED: row(500, 'the server refused the store URL\'s password (wrong, or none given where one is asked for)'),
  ANNOT_STORE_PERMISSION_DENIED: row(500, 'the store\'s role may log in but lacks a privilege annot needs (create its schema, use its tables)'),
  // op-log and service
  ANNOT_PRECONDITION_FAILED: row(412, 'a conditional write whose If-Match no longer matches: the annotation changed since it was read'),
  ANNOT_PRECONDITION_REQUIRED: row(428, 'a write sent without If-Match: annot refuses blind overwrites'),
  ANNOT_CLOCK_OUT_OF_RANGE: row(400, 'a clock beyond the end of the op-log'),
  // A served file in another format that could not be written back (the server's own disk, not the request).
  ANNOT_SAVE_FAILED: row(500, 'annot serve could not write the edits back to the served file; they are still in memory'),
  // A served file another program changed on disk: the edits are not saved over it (a clash with its state).
  ANNOT_FILE_CHANGED_ON_DISK: row(409, 'the served file was changed by another program, so the edits are not saved over it'),
  ANNOT_STRICT_FINDINGS: row(422, 'convert --strict refused the input because its reader reported findings; nothing was written'),
  ANNOT_CONVERT_OUTPUT_CLASH: row(400, 'two inputs of one batch conversion would write the same output, or an output would replace an input; nothing is written'),
  ANNOT_CONVERT_BATCH_FAILED: row(422, 'some inputs of a batch conversion failed, each named with its error; the others were written'),
  // files annot writes (src/io/errors.ts). Over HTTP these are the server's own disk, never the request's.
  ANNOT_PERMISSION_DENIED: row(500, 'annot may not write the file or its folder (EACCES, EPERM); nothing was written'),
  ANNOT_READ_ONLY_FILE_SYSTEM: row(500, 'the file is on a file system mounted read-only (EROFS); nothing was written'),
  ANNOT_NO_SPACE: row(507, 'the device or the quota is full (ENOSPC, EDQUOT); nothing was written'),
  ANNOT_FILE_TOO_LARGE: row(507, 'the file would pass the process\'s file size limit (EFBIG, ulimit -f); nothing was written'),
  ANNOT_WRITE_FAILED: row(500, 'the device failed the write (EIO, SQLite\'s disk I/O error); nothing was written'),
  ANNOT_FILE_IN_USE: row(409, 'an .annot file another process (an annot serve, mcp or worker) holds open; replacing it is refused'),
  ANNOT_ORPHAN_JOURNAL: row(409, 'a -wal or -journal beside a missing or non-SQLite file: maybe still written by another process'),
  // time: query strings, tool arguments and body times in seconds or timecodes
  ANNOT_LOSSY_TIME: row(400, 'a time that cannot be held exactly at the requested rate (annot never rounds silently)'),
  ANNOT_INVALID_TIME: row(400, 'a time or interval that is malformed: fractional ticks, a rate of 0 or less, an end before its start'),
  ANNOT_UNKNOWN_RELATION: row(400, 'a relation name that is not one of Allen\'s thirteen'),
  ANNOT_RETIME_BEFORE_ZERO: row(422, 'a retime under --strict would push an annotation before 0 s (cut or dropped without it); nothing was written'),
  // formats
  ANNOT_UNKNOWN_FORMAT: row(400, 'no format matches the name, extension or content given'),
  ANNOT_FORMAT_PARSE: row(422, 'a malformed input file; the message names the file, the place and what was expected'),
  ANNOT_TEXT_ENCODING: row(422, 'bytes that do not decode in the encoding chosen or detected for the file, or a file that mixes encodings'),
  ANNOT_UNKNOWN_ENCODING: row(400, 'an --encoding or ?encoding= name that no decoder knows; the message lists some that are', 2),
  ANNOT_INPUT_TOO_DEEP: row(422, 'input nested deeper than its reader allows (JSON arrays and objects, XML elements)'),
  ANNOT_INPUT_TOO_LARGE: row(413, 'a compressed input that inflates past what a reader can hold, or like a gzip bomb (refused while inflating)'),
  ANNOT_UNREPRESENTABLE: row(422, 'the store holds something the target format cannot express at all'),
  ANNOT_CUES_OUT_OF_TIME_ORDER: row(422, 'a streamed conversion met cues out of start-time order, so they cannot be written as read'),
  // quality metrics
  ANNOT_METRIC_INPUT: row(400, 'metric input of the wrong shape: lengths that differ, no items, fewer than two annotators'),
  ANNOT_INSUFFICIENT_DATA: row(422, 'metric input that holds nothing the metric can use (no unit with two values to pair)'),
  // processors and the queue
  ANNOT_UNKNOWN_PROCESSOR: row(404, 'a processor name nobody registered'),
  ANNOT_PROCESSOR_PARAMS: row(400, 'processor parameters that do not match the processor\'s params schema'),
  ANNOT_PROCESSOR_FAILED: row(500, 'a processor that was given valid parameters but could not do its work'),
  ANNOT_QUEUE_UNAVAILABLE: row(503, 'the Redis server of a queue (processor jobs or render units) could not be reached'),
  ANNOT_JOB_NOT_FOUND: row(404, 'a job id the queue does not know'),
  // render: scenes, manifests, the catalog
  ANNOT_SCENE_INVALID: row(400, 'a scene file that cannot be loaded: a YAML or JSON syntax error, or a value the scene schema rejects'),
  ANNOT_SCENE_FINDINGS: row(422, 'render scene --strict refused a scene that validate reports errors for; nothing was rendered'),
  ANNOT_UNIT_NOT_FOUND: row(404, 'a shot or beat id the scene file does not have'),
  ANNOT_UNKNOWN_MODEL: row(404, 'a model id or alias that is not in the catalog (and not a full owner/model endpoint id)'),
  ANNOT_UNKNOWN_MODEL_CATEGORY: row(404, 'a model category the catalog does not have'),
  ANNOT_UNKNOWN_QUALITY_TIER: row(400, 'a quality tier other than fast, balanced, high or ultra'),
  ANNOT_UNKNOWN_PROVIDER: row(400, 'a render provider other than auto, fal or local'),
  ANNOT_MANIFEST_NOT_FOUND: row(404, 'no scene manifest at the path given'),
  ANNOT_MANIFEST_INVALID: row(422, 'a file that is not a scene manifest written by annot render scene'),
  ANNOT_MANIFEST_LAYOUT_MISSING: row(422, 'a manifest without the scene layout the derived files are built from'),
  ANNOT_MANIFEST_OTHER_SCENE: row(409, 'a manifest path that holds the manifest of another scene file; it is not overwritten'),
  ANNOT_OUTPUT_CLASH: row(400, 'two outputs of one render, or an output and the scene file, are the same file; nothing is written'),
  ANNOT_RENDER_NO_ASSET: row(502, 'a model produced nothing where the render cannot go on without it'),
  ANNOT_RENDER_ABORTED: row(499, 'the render was interrupted (Ctrl-C); queued requests were cancelled, finished units stay cached'),
  ANNOT_SCENE_RENDER_FAILED: row(500, 'at least one unit of a scene failed; completed units are cached and listed in the manifest'),
  ANNOT_LOCAL_MEDIA_FAILED: row(500, 'the local preview provider could not make a piece of media (ffmpeg or espeak-ng failed)'),
  ANNOT_LOCAL_ASSET_UNREACHABLE: row(400, 'the local provider was asked for an asset it cannot reach offline'),
  // render: fal.ai
  ANNOT_FAL_KEY_MISSING: row(400, 'the fal provider was chosen and no API key (FAL_KEY) is set'),
  ANNOT_FAL_UNAUTHORIZED: row(401, 'fal refused the credentials (HTTP 401 or 403)'),
  ANNOT_FAL_RATE_LIMITED: row(429, 'fal rate-limited the calls and every retry was used'),
  ANNOT_FAL_BAD_REQUEST: row(422, 'fal rejected the request for its input; retrying the same input fails again'),
  ANNOT_FAL_SERVER_ERROR: row(502, 'fal failed (5xx after every retry, a failed runner, or a reply not in its protocol)'),
  ANNOT_FAL_TIMEOUT: row(504, 'a fal call did not finish within its time limit and was cancelled'),
  ANNOT_FAL_FOREIGN_URL: row(502, 'fal\'s queue answered with a URL on another origin; annot sends the key to the queue origin only'),
  // render: the shared cache and the render workers
  ANNOT_REMOTE_CACHE_UNAVAILABLE: row(503, 'the shared render cache (an S3-compatible bucket) could not be reached, or refused the request'),
  ANNOT_RENDER_WORKER_FAILED: row(502, 'a render worker failed a unit for a reason annot has no code for; the message names the worker'),
  ANNOT_RENDER_MEDIA_UNAVAILABLE: row(502, 'a render worker finished a unit, but its media reached neither the remote cache nor Redis'),
} as const);

/** A stable error code: a key of the registry. */
export type ErrorCode = keyof typeof ERROR_TABLE;

/** Whether a string is a registered code (for codes that arrive untyped, from JavaScript callers). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_TABLE, code);
}

/** The row of a code, if the registry has it (a JavaScript caller may throw an error with any code). */
export function errorRow(code: string): ErrorRow | undefined {
  return isErrorCode(code) ? ERROR_TABLE[code] : undefined;
}

/** The CLI's exit status for a code: the registry's, else 1. */
export function exitStatusFor(code: string): number {
  return errorRow(code)?.exit ?? 1;
}
