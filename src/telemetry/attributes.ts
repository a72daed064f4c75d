/**
 * The span attribute keys annot records, in one convention: our own keys live under `annot.`,
 * dotted from the general to the particular (`annot.store.kind`, `annot.mutation.count`), in
 * snake_case like the wire fields; HTTP keys are OpenTelemetry's semantic conventions, so a
 * tracing backend shows them in its usual places. Every span annot opens takes its keys from
 * here and nowhere else.
 */

// annot's own attributes

/** Which store answered: 'memory', 'mapping', 'sqlite' or 'postgres'. */
export const ATTR_STORE_KIND = 'annot.store.kind';
/** The Lamport clock a mutation got (HTTP's X-Service-Clock, MCP's `annot/clock`). */
export const ATTR_CLOCK = 'annot.clock';
/** A format name as the adapter registry knows it (`webvtt`, `eaf`, `annot`, ...). */
export const ATTR_FORMAT = 'annot.format';
/** The tier a query or a write is limited to. */
export const ATTR_TIER = 'annot.tier';
/** The Allen relation of a window query, or `intersects`. */
export const ATTR_RELATION = 'annot.relation';
/** A query window's bounds, in seconds as the caller spelt them (decimal strings, kept exact). */
export const ATTR_WINDOW_START = 'annot.window.start';
/** See ATTR_WINDOW_START. */
export const ATTR_WINDOW_END = 'annot.window.end';
/** How many annotations a query returned, or a load or dump carried. */
export const ATTR_ANNOTATION_COUNT = 'annot.annotation.count';
/** How many mutations one logged transaction applied, and their kinds (`add_annotation`, ...). */
export const ATTR_MUTATION_COUNT = 'annot.mutation.count';
/** See ATTR_MUTATION_COUNT. */
export const ATTR_MUTATION_KINDS = 'annot.mutation.kinds';
/** The MCP tool called (`add_annotation`, ...). */
export const ATTR_MCP_TOOL = 'annot.mcp.tool';
/** The processor run (`low_confidence_review`, ...). */
export const ATTR_PROCESSOR = 'annot.processor';
/** The stable code (`ANNOT_...`) of the error an operation failed with. */
export const ATTR_ERROR_CODE = 'annot.error.code';

// OpenTelemetry semantic conventions (HTTP server spans)

/** The HTTP method of a request. */
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
/** The route template (`/annotations/:id`), never the path with its ids. */
export const ATTR_HTTP_ROUTE = 'http.route';
/** The HTTP status of a response. */
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
/** The path of a request. */
export const ATTR_URL_PATH = 'url.path';
/** The low-cardinality class of a failure: the status code for 5xx answers. */
export const ATTR_ERROR_TYPE = 'error.type';

/** What a span's attributes may hold; undefined values are left out rather than recorded empty. */
export type SpanAttributeValues = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;
