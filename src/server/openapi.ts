import { MUTATION_KINDS } from '../oplog/mutation.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import { ERROR_BODY_SCHEMA } from './errors.js';
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from './routes/annotations.js';
import { META_VALUE_SCHEMA } from './routes/meta.js';
import { DEFAULT_OPLOG_LIMIT, MAX_OPLOG_LIMIT } from './routes/oplog.js';
import { livePaths } from './routes/live-openapi.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const arrayOf = (name: string): Json => ({ type: 'array', items: ref(name) });
const json = (schema: Json): Json => ({ 'application/json': { schema } });

/**
 * The OpenAPI 3.1 document of the server, built from the wire schemas the service validates
 * with (schemas/annotation.json, schemas/tier.json) and the route modules' own schemas, so the
 * document and the validation cannot drift apart. OpenAPI 3.1 schemas are JSON Schema 2020-12:
 * the files are used as they are, only their `$id` dropped and their local `$ref`s re-rooted
 * under components.
 */
export function buildOpenApiDocument(version: string): Json {
  const annotation = asComponent(readPackageSchema('annotation.json') as Json, 'Annotation');
  const tier = asComponent(readPackageSchema('tier.json') as Json, 'Tier');
  const annotationProperties = annotation.properties as Json;
  const patchable = ['tier', 'reference', 'body', 'body_schema_uri', 'confidence'];
  const schemas: Json = {
    Annotation: annotation,
    AnnotationInput: {
      ...annotation,
      title: 'Annotation (as a client creates it)',
      description: 'The annotation wire form; id (a new UUID) and provenance (the server as generator, the actor as attribution) may be left out.',
      required: (annotation.required as string[]).filter((key) => key !== 'id' && key !== 'provenance'),
    },
    AnnotationPatch: {
      type: 'object',
      title: 'Annotation patch',
      description: 'The fields to change; id and provenance never change; confidence null clears it. The result is validated like a new annotation.',
      additionalProperties: false,
      properties: Object.fromEntries(patchable.map((key) => [key, annotationProperties[key]])),
    },
    Tier: tier,
    MetaValue: META_VALUE_SCHEMA,
    Error: ERROR_BODY_SCHEMA,
    Time: annotationDef(annotation, 'time'),
    OpLogEntry: {
      type: 'object',
      required: ['clock', 'kind', 'target_id', 'payload', 'actor', 'received_at'],
      additionalProperties: false,
      properties: {
        clock: { type: 'integer', minimum: 1, description: 'the Lamport clock of the mutation' },
        kind: { enum: [...MUTATION_KINDS] },
        target_id: { type: ['string', 'null'], description: 'annotation id, tier name or meta key' },
        payload: { type: 'object', description: 'what replays the mutation: {annotation}, {tier, enforce_no_overlap}, {value} or {}' },
        actor: { type: 'string' },
        received_at: ref('Time'),
      },
    },
    StateSnapshot: {
      type: 'object',
      required: ['at_clock', 'tiers', 'annotations'],
      additionalProperties: false,
      properties: { at_clock: { type: 'integer', minimum: 0 }, tiers: arrayOf('Tier'), annotations: arrayOf('Annotation') },
    },
    Format: {
      type: 'object',
      required: ['name', 'extensions', 'media_types', 'body_schemas', 'description'],
      properties: {
        name: { type: 'string' },
        extensions: { type: 'array', items: { type: 'string' } },
        media_types: { type: 'array', items: { type: 'string' } },
        body_schemas: { type: 'array', items: { type: 'string' } },
        description: { type: 'string' },
      },
    },
    ImportReport: {
      type: 'object',
      required: ['format', 'annotations_added', 'tiers_added', 'clock', 'quantized', 'warnings'],
      properties: {
        format: { type: 'string' },
        annotations_added: { type: 'integer', minimum: 0 },
        tiers_added: { type: 'integer', minimum: 0 },
        clock: { type: 'integer', minimum: 0, description: 'the clock of the last entry the import appended, 0 when it added nothing' },
        quantized: { type: 'object', properties: { count: { type: 'integer' }, max_error_seconds: { type: 'number' } } },
        warnings: { type: 'array', items: { type: 'string' }, description: 'at most 100' },
      },
    },
    Meta: { type: 'object', additionalProperties: { type: 'string' } },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'annot',
      version,
      description:
        'Interval annotations over time-based media. Every mutation answers with X-Service-Clock (its Lamport clock in the op-log). ' +
        'Every error is {"error": {"code", "message", "details"?}} with a stable code.',
    },
    components: {
      schemas,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'only when the server was started with --token or ANNOT_TOKEN' } },
      headers: {
        'X-Service-Clock': { description: 'the Lamport clock of the mutation', schema: { type: 'integer', minimum: 0 } },
        ETag: { description: 'strong ETag of the annotation; send it back in If-Match', schema: { type: 'string' } },
      },
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: annotationDef(annotation, 'uuid') },
        ifMatch: { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'the ETag read with GET' },
        actor: { name: 'X-Actor', in: 'header', schema: { type: 'string' }, description: 'who the op-log records (default anonymous)' },
      },
    },
    security: [{ bearer: [] }],
    paths: { ...operations(), ...livePaths() },
  };
}

function operations(): Json {
  const clock = { 'X-Service-Clock': { $ref: '#/components/headers/X-Service-Clock' } };
  const etag = { ETag: { $ref: '#/components/headers/ETag' } };
  const actor = { $ref: '#/components/parameters/actor' };
  const ok = (description: string, schema: Json, headers?: Json): Json => ({ description, content: json(schema), ...(headers ? { headers } : {}) });
  const query = (name: string, description: string, schema: Json = { type: 'string' }, required = false): Json => ({ name, in: 'query', required, description, schema });
  const errors = (...statuses: number[]): Json =>
    Object.fromEntries([...statuses, 401].map((status) => [String(status), { description: ERROR_TEXT[status], content: json(ref('Error')) }]));
  const body = (name: string): Json => ({ required: true, content: json(ref(name)) });

  return {
    '/health': { get: { summary: 'liveness', security: [], responses: { 200: ok('up', { type: 'object', properties: { status: { const: 'ok' } } }) } } },
    '/openapi.json': { get: { summary: 'this document', responses: { 200: ok('OpenAPI 3.1', { type: 'object' }), ...errors() } } },
    '/tiers': {
      get: { summary: 'list tiers', responses: { 200: ok('tiers in order', arrayOf('Tier')), ...errors(400) } },
      post: {
        summary: 'create or replace a tier',
        parameters: [actor],
        requestBody: body('Tier'),
        responses: { 201: ok('created', ref('Tier'), clock), 200: ok('replaced', ref('Tier'), clock), ...errors(400, 413, 415, 422) },
      },
    },
    '/tiers/{name}': {
      get: {
        summary: 'one tier',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: ok('the tier', ref('Tier')), ...errors(404) },
      },
    },
    '/annotations': {
      post: {
        summary: 'create an annotation (its body validated against its body_schema_uri)',
        parameters: [actor],
        requestBody: body('AnnotationInput'),
        responses: { 201: ok('created', ref('Annotation'), { ...clock, ...etag }), ...errors(400, 409, 413, 415, 422) },
      },
      get: {
        summary: 'list or query annotations',
        parameters: [
          query('tier', 'only this tier'),
          query('start', 'window start in seconds, a decimal string parsed exactly (with end)'),
          query('end', 'window end in seconds, exclusive (with start)'),
          query('relation', 'intersects (default) or an Allen relation of the annotation to the window', {
            enum: ['intersects', 'before', 'after', 'meets', 'met_by', 'overlaps', 'overlapped_by', 'starts', 'started_by', 'during', 'contains', 'finishes', 'finished_by', 'equals'],
          }),
          query('rate', 'ticks per second for the window (default: exact for the digits given)', { type: 'integer', minimum: 1 }),
          query('limit', `at most this many (default ${DEFAULT_LIST_LIMIT}); X-Annot-Truncated: true when more matched`, { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT }),
        ],
        responses: { 200: ok('annotations ordered by start, end, id (without window: insertion order)', arrayOf('Annotation')), ...errors(400) },
      },
    },
    '/annotations/{id}': {
      parameters: [{ $ref: '#/components/parameters/id' }],
      get: { summary: 'one annotation', responses: { 200: ok('the annotation', ref('Annotation'), etag), ...errors(404) } },
      patch: {
        summary: 'partial update, guarded by If-Match',
        parameters: [{ $ref: '#/components/parameters/ifMatch', required: true }, actor],
        requestBody: body('AnnotationPatch'),
        responses: { 200: ok('updated', ref('Annotation'), { ...clock, ...etag }), ...errors(400, 404, 412, 413, 415, 422, 428) },
      },
      delete: {
        summary: 'delete (If-Match optional)',
        parameters: [{ $ref: '#/components/parameters/ifMatch' }, actor],
        responses: { 204: { description: 'deleted', headers: clock }, ...errors(404, 412) },
      },
    },
    '/import': {
      post: {
        summary: 'import a file (raw body or multipart field "file"); every tier and annotation it adds is logged',
        parameters: [
          query('format', 'format name (GET /formats); sniffed from the content when absent'),
          query('rate', 'import rate', { type: 'integer', minimum: 1 }),
          query('asset_id', 'asset id for formats that do not name their media'),
          query('tier', 'tier for formats without tiers'),
          actor,
        ],
        requestBody: {
          required: true,
          content: {
            'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
          },
        },
        responses: { 201: ok('imported', ref('ImportReport'), clock), ...errors(400, 413, 422) },
      },
    },
    '/export': {
      get: {
        summary: 'the whole store as a file',
        parameters: [query('format', 'format name (GET /formats)', { type: 'string' }, true)],
        responses: {
          200: { description: 'the file, as an attachment named export<extension>, with the media type of its format', content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
          ...errors(400, 422),
        },
      },
    },
    '/formats': { get: { summary: 'registered formats', responses: { 200: ok('formats in registration order', arrayOf('Format')), ...errors() } } },
    '/schemas': { get: { summary: 'registered body schema URIs', responses: { 200: ok('sorted URIs', { type: 'array', items: { type: 'string' } }), ...errors() } } },
    '/schemas/{uri}': {
      get: {
        summary: 'the JSON Schema registered for a body schema URI (the URI as the rest of the path, or percent-encoded)',
        parameters: [{ name: 'uri', in: 'path', required: true, schema: { type: 'string' }, example: 'annot://schema/word/v1' }],
        responses: { 200: ok('a JSON Schema (draft 2020-12)', { type: 'object' }), ...errors(404) },
      },
    },
    '/meta': { get: { summary: 'store metadata', responses: { 200: ok('key to value', ref('Meta')), ...errors() } } },
    '/meta/{key}': {
      put: {
        summary: 'set a metadata value',
        parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }, actor],
        requestBody: body('MetaValue'),
        responses: { 200: ok('{key: value}', ref('Meta'), clock), ...errors(400, 413, 415, 422) },
      },
    },
    '/oplog': {
      get: {
        summary: 'op-log entries in clock order, bounds inclusive',
        parameters: [
          query('from_clock', 'first clock (inclusive)', { type: 'integer', minimum: 0 }),
          query('until_clock', 'last clock (inclusive)', { type: 'integer', minimum: 0 }),
          query('limit', `at most this many (default ${DEFAULT_OPLOG_LIMIT})`, { type: 'integer', minimum: 1, maximum: MAX_OPLOG_LIMIT }),
        ],
        responses: { 200: ok('entries', arrayOf('OpLogEntry')), ...errors(400) },
      },
    },
    '/oplog/latest-clock': {
      get: { summary: 'the newest clock (0 when the log is empty)', responses: { 200: ok('clock', { type: 'object', required: ['clock'], properties: { clock: { type: 'integer', minimum: 0 } } }), ...errors() } },
    },
    '/state-at': {
      get: {
        summary: 'the state right after a clock, replayed from the log',
        parameters: [query('clock', 'a clock from 0 to the latest', { type: 'integer', minimum: 0 }, true)],
        responses: { 200: ok('snapshot', ref('StateSnapshot')), ...errors(400) },
      },
    },
  };
}

const ERROR_TEXT: Record<number, string> = {
  400: 'the request cannot be read (query parameter, malformed body, unknown format)',
  401: 'missing or wrong bearer token (servers started with a token)',
  404: 'no such resource',
  409: 'conflicts with the current state (duplicate id)',
  412: 'If-Match does not match the current ETag; nothing was changed',
  413: 'body over the size limit',
  415: 'unsupported Content-Type (send application/json)',
  422: 'well-formed body with invalid content (schema errors listed in details.issues)',
  428: 'If-Match is required',
};

/** A package schema as a component: no `$id`/`$schema` of its own, local refs re-rooted under components. */
function asComponent(schema: Json, name: string): Json {
  const rerooted = JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', `"#/components/schemas/${name}/$defs/`)) as Json;
  delete rerooted.$id;
  delete rerooted.$schema;
  return rerooted;
}

function annotationDef(annotation: Json, name: string): Json {
  return (annotation.$defs as Json)[name] as Json;
}
