import type { FastifyInstance, FastifyReply } from 'fastify';
import { annotationEtag } from '../../digest/etag.js';
import type { Annotation } from '../../model/annotation.js';
import { annotationToOutput } from '../../model/wire.js';
import { wireJsonArrayBytes } from '../../model/wire-json.js';
import type { AnnotationInput, AnnotationPatch } from '../../service/annotation-service.js';
import { annotationBatchFromWire } from '../../service/annotation-updates.js';
import { PreconditionRequiredError } from '../../service/errors.js';
import { encodeCursor } from '../../service/read-cursor.js';
import { parseReadRequest, type ReadRequest } from '../../service/read-request.js';
import type { ReadWording } from '../../service/read-wording.js';
import { ALLEN_RELATIONS } from '../../time/allen.js';
import { InvalidQueryError } from '../errors.js';
import { QueryParams } from '../query-params.js';
import { parsedQueryCompiler, type CheckedQuery } from '../request-validator.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { ResponseBuffers } from '../response-buffers.js';
import {
  ACTOR_HEADER, arrayOf, CLOCK, ETAG, errors, headers, IF_MATCH_HEADER, integerParameter, json, NO_QUERY, noContent, parameterNames, queryString, ref, routeSchema,
  stringParameter, type Json,
} from '../route-schema.js';

export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 100_000;

const TIME = 'a time: seconds ("12.345", exact), a timecode HH:MM:SS.mmm or MM:SS.mmm (comma allowed), SMPTE HH:MM:SS:FF with fps, or a ratio "v/r"';
const FPS = stringParameter('frames per second of SMPTE HH:MM:SS:FF times (24, 25, 29.97, 30000/1001)');

/** Query parameters of GET /annotations; whatever is wrong with a listing is in them. */
const LIST_QUERY = queryString({
  tier: stringParameter('only this tier'),
  start: stringParameter(`window start (with end): ${TIME}`),
  end: stringParameter(`window end, exclusive (with start): ${TIME}`),
  // Not an enum: Allen's symbols (`o`, `di`), any case and `-` for `_` are read too (parseAllenRelation).
  relation: stringParameter(`intersects (default) or the Allen relation of the annotation to the window: ${ALLEN_RELATIONS.join(', ')} (or its symbol)`, { examples: ['overlaps'] }),
  rate: integerParameter('ticks per second the window must be exact at (default: the rate its times need)', 1),
  fps: FPS,
  limit: integerParameter(`page size (default ${DEFAULT_LIST_LIMIT}); while more remain, Link: <…>; rel="next" (and X-Annot-Truncated: true)`, 1, MAX_LIST_LIMIT),
  after: stringParameter('opaque cursor of the next page, as the previous page\'s Link: rel="next" gives it; bound to the same filters'),
});
/** The parameters that choose what a listing holds, kept as given in the next page's link. */
const FILTER_PARAMETERS = ['tier', 'start', 'end', 'relation', 'rate', 'fps'];

/** GET /annotations' query string, parsed once by the route's validator. */
interface ListRequest {
  readonly read: ReadRequest;
  /** The filters as given, in FILTER_PARAMETERS order. */
  readonly filters: Array<[name: string, value: string]>;
}

/** How the read parser words a bad listing: the query parameters by name, refused as ANNOT_INVALID_QUERY. */
const HTTP_WORDING: ReadWording = {
  name: (field) => field,
  refuse: (field, message) => new InvalidQueryError(field, message),
  resumeHint: 'follow the Link: rel="next" header of the previous page',
};

function parseListQuery(query: CheckedQuery): ListRequest {
  const read = parseReadRequest({
    tier: query.string('tier'),
    start: query.string('start'),
    end: query.string('end'),
    relation: query.string('relation'),
    rate: query.integer('rate'),
    fps: query.string('fps'),
    after: query.string('after'),
    limit: query.integer('limit') ?? DEFAULT_LIST_LIMIT,
  }, HTTP_WORDING);
  const filters = FILTER_PARAMETERS.flatMap((name): Array<[string, string]> => {
    const value = query.string(name);
    return value === undefined ? [] : [[name, value]];
  });
  return { read, filters };
}
/** Query parameters of the writes: the rate body times given in seconds or timecodes must be exact at, and the fps of SMPTE timecodes. */
const WRITE_QUERY = queryString({
  rate: integerParameter('ticks per second the body\'s times must be exact at when given as seconds or timecodes (default: the rate they need, at least 1000)', 1),
  fps: FPS,
});
const WRITE_PARAMETERS = parameterNames(WRITE_QUERY);
/** Body of PATCH /annotations: if_match is not required here so that its absence is a 428, as on PATCH /annotations/:id. */
const BATCH_UPDATE: Json = {
  type: 'object',
  additionalProperties: false,
  description: 'at least one item in all; each annotation at most once',
  properties: {
    updates: {
      type: 'array',
      description: 'partial updates, each guarded by its own if_match',
      items: {
        type: 'object',
        required: ['id', 'patch'],
        additionalProperties: false,
        properties: {
          id: ref('Uuid'),
          if_match: { type: 'string', description: 'the ETag read with GET; required, 428 without it, 412 when it is stale' },
          patch: ref('AnnotationPatch'),
        },
      },
    },
    creates: { type: 'array', description: 'new annotations, as POST /annotations takes them (an id and a provenance of their own may be given)', items: ref('AnnotationInput') },
    deletes: {
      type: 'array',
      description: 'deletions, each guarded by its own if_match',
      items: {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: {
          id: ref('Uuid'),
          if_match: { type: 'string', description: 'the ETag read with GET; required, 428 without it, 412 when it is stale' },
        },
      },
    },
  },
};
const SAVED: Json = { type: 'object', required: ['etag', 'annotation'], properties: { etag: { type: 'string' }, annotation: ref('Annotation') } };
const BATCH_RESULT: Json = {
  type: 'object',
  required: ['updated', 'created', 'deleted'],
  properties: {
    updated: { type: 'array', description: 'the annotations as updated, in the order of the request, each with its new ETag', items: SAVED },
    created: { type: 'array', description: 'the annotations as created, in the order of the request, each with its ETag', items: SAVED },
    deleted: { type: 'array', description: 'the ids deleted, in the order of the request', items: { type: 'string' } },
  },
};
const ID_PARAMS = { type: 'object', required: ['id'], properties: { id: ref('Uuid') } };

export function registerAnnotationRoutes(app: FastifyInstance, context: RouteContext): void {
  registerCreate(app, context);
  registerList(app, context);
  registerGetOne(app, context);
  registerPatchOne(app, context);
  registerPatchMany(app, context);
  registerDelete(app, context);
}

function registerCreate(app: FastifyInstance, { service }: RouteContext): void {
  app.post('/annotations', {
    schema: routeSchema('create an annotation (its body validated against its body_schema_uri)', {
      description: 'The interval\'s times may be {v, r} or any time form (seconds, timecode, SMPTE with ?fps).',
      querystring: WRITE_QUERY,
      headers: headers(ACTOR_HEADER),
      body: { content: { 'application/json': { schema: ref('AnnotationInput') } } },
      response: { 201: json('created', ref('Annotation'), { ...CLOCK, ...ETAG, Location: { type: 'string', description: 'the new annotation\'s path' } }), ...errors(400, 409, 413, 415, 422) },
    }),
  }, async (request, reply) => {
    const { value, clock } = await service.createAnnotation(request.body as AnnotationInput, actorOf(request), timeOptions(QueryParams.of(request.query, WRITE_PARAMETERS)));
    return sendAnnotation(withClock(reply, clock).code(201).header('Location', `/annotations/${value.id}`), value);
  });
}

function registerList(app: FastifyInstance, { service }: RouteContext): void {
  const buffers = new ResponseBuffers();
  // Pages of `limit`, in a stable order; `Link: <…?after=cursor>; rel="next"` while more remain.
  app.get<{ Querystring: ListRequest }>('/annotations', {
    schema: routeSchema('list or query annotations', {
      querystring: LIST_QUERY,
      response: {
        200: json('a page of annotations ordered by start, end, id (without window: insertion order); each time carries s, its exact seconds', arrayOf('Annotation'), {
          Link: { type: 'string', description: '<…?after=cursor>; rel="next" while more annotations remain' },
          'X-Annot-Truncated': { type: 'string', const: 'true', description: 'present while more annotations remain' },
        }),
        ...errors(400, 404),
      },
    }),
    validatorCompiler: parsedQueryCompiler(parseListQuery),
  }, async (request, reply) => {
    const { read, filters } = request.query;
    const page = await service.read(read, 'wire-bytes');
    if (page.next) {
      const next = new URLSearchParams([...filters, ['limit', String(read.limit)], ['after', encodeCursor(page.next)]]);
      reply.header('Link', `</annotations?${next.toString()}>; rel="next"`);
      reply.header('X-Annot-Truncated', 'true');
    }
    // Serialised by hand: the same bytes as JSON.stringify of the output forms, from the store's kept
    // bytes, copied once into memory lent by the pool.
    const body = wireJsonArrayBytes(page.items, (length) => buffers.take(length, reply.raw));
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

function registerGetOne(app: FastifyInstance, { service }: RouteContext): void {
  // A conditional GET: If-None-Match with the current ETag (or *) answers 304 without a body.
  app.get<{ Params: { id: string } }>('/annotations/:id', {
    schema: routeSchema('one annotation; If-None-Match with its current ETag answers 304', {
      params: ID_PARAMS,
      querystring: NO_QUERY,
      headers: headers({ 'If-None-Match': { type: 'string', description: 'an ETag read before (or *)' } }),
      response: { 200: json('the annotation', ref('Annotation'), ETAG), 304: noContent('not modified since that ETag', ETAG), ...errors(404) },
    }),
  }, async (request, reply) => {
    const annotation = await service.getAnnotation(request.params.id);
    const etag = annotationEtag(annotation);
    if (noneMatch(singleHeader(request.headers['if-none-match']), etag)) return reply.code(304).header('ETag', etag).send();
    return sendAnnotation(reply, annotation);
  });
}

function registerPatchOne(app: FastifyInstance, { service }: RouteContext): void {
  app.patch<{ Params: { id: string } }>('/annotations/:id', {
    schema: routeSchema('partial update, guarded by If-Match', {
      params: ID_PARAMS,
      querystring: WRITE_QUERY,
      headers: headers({ ...IF_MATCH_HEADER, ...ACTOR_HEADER }, ['If-Match']),
      body: { content: { 'application/json': { schema: ref('AnnotationPatch') } } },
      response: { 200: json('updated', ref('Annotation'), { ...CLOCK, ...ETAG }), ...errors(400, 404, 409, 412, 413, 415, 422, 428) },
    }),
  }, async (request, reply) => {
    const query = QueryParams.of(request.query, WRITE_PARAMETERS);
    const { value, clock } = await service.updateAnnotation(
      request.params.id,
      request.body as AnnotationPatch,
      singleHeader(request.headers['if-match']),
      actorOf(request),
      timeOptions(query),
    );
    return sendAnnotation(withClock(reply, clock), value);
  });
}

function registerPatchMany(app: FastifyInstance, { service }: RouteContext): void {
  // Several annotations at once (a shared TIME_SUBDIVISION boundary, a split, a merge): one transaction, judged as a whole.
  app.patch('/annotations', {
    schema: routeSchema('updates, creations and deletions of several annotations at once, each update and deletion guarded by its own if_match; all or nothing', {
      description:
        'One op-log transaction (deletions, then updates, then creations): a stale if_match on any item (412), a missing one (428), an id in use or a result that breaks a tier constraint (409) changes nothing. ' +
        'The tier constraints are judged on the batch as a whole, so two TIME_SUBDIVISION neighbours can move their shared boundary together, and a block of such a tier can be split (an update and a creation) or merged with its neighbour (an update and a deletion) while the parent stays covered.',
      querystring: WRITE_QUERY,
      headers: headers(ACTOR_HEADER),
      body: { content: { 'application/json': { schema: BATCH_UPDATE } } },
      response: { 200: json('applied', BATCH_RESULT, CLOCK), ...errors(400, 404, 409, 412, 413, 415, 422, 428) },
    }),
  }, async (request, reply) => {
    const batch = annotationBatchFromWire(request.body);
    const { value, clock } = await service.applyBatch(batch, actorOf(request), timeOptions(QueryParams.of(request.query, WRITE_PARAMETERS)));
    const saved = (annotation: Annotation) => ({ etag: annotationEtag(annotation), annotation: annotationToOutput(annotation) });
    return withClock(reply, clock).send({ updated: value.updated.map(saved), created: value.created.map(saved), deleted: value.deleted.map(({ id }) => id) });
  });
}

function registerDelete(app: FastifyInstance, { service }: RouteContext): void {
  // If-Match is required on DELETE, as on PATCH: 428 without it, 412 when it is stale.
  app.delete<{ Params: { id: string } }>('/annotations/:id', {
    schema: routeSchema('delete, guarded by If-Match (required, as for PATCH)', {
      params: ID_PARAMS,
      querystring: NO_QUERY,
      headers: headers({ ...IF_MATCH_HEADER, ...ACTOR_HEADER }, ['If-Match']),
      response: { 204: noContent('deleted', CLOCK), ...errors(404, 409, 412, 428) },
    }),
  }, async (request, reply) => {
    const ifMatch = singleHeader(request.headers['if-match']);
    if (ifMatch === undefined || ifMatch.trim() === '') {
      await service.getAnnotation(request.params.id); // a missing annotation is still a 404 first
      throw new PreconditionRequiredError(`deleting annotation ${request.params.id} needs If-Match with the ETag you read (GET it first)`);
    }
    const { clock } = await service.deleteAnnotation(request.params.id, actorOf(request), ifMatch);
    return withClock(reply, clock).code(204).send();
  });
}

function sendAnnotation(reply: FastifyReply, annotation: Annotation): FastifyReply {
  return reply.header('ETag', annotationEtag(annotation)).send(annotationToOutput(annotation));
}

function timeOptions(query: QueryParams): { rate?: number; fps?: string } {
  return { rate: query.integer('rate', { min: 1, max: Number.MAX_SAFE_INTEGER }), fps: query.string('fps') };
}

/** If-None-Match: `*` or a list of ETags (weak ones compare weakly, as RFC 9110 says for GET). */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
