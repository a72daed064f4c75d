import type { FastifyInstance, FastifyReply } from 'fastify';
import { annotationEtag } from '../../digest/etag.js';
import type { Annotation } from '../../model/annotation.js';
import { annotationToOutput } from '../../model/wire.js';
import { wireJsonArray } from '../../model/wire-json.js';
import type { AnnotationInput, AnnotationPatch } from '../../service/annotation-service.js';
import { InvalidQueryError } from '../errors.js';
import { QueryParams } from '../query-params.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';

export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 100_000;

/** Query parameters of GET /annotations whose errors are the query's, not the body's. */
const LIST_PARAMETERS = ['tier', 'start', 'end', 'relation', 'rate', 'fps', 'limit'];

/** Query parameters of the writes: the rate body times given in seconds or timecodes must be exact at, and the fps of SMPTE timecodes. */
const WRITE_PARAMETERS = ['rate', 'fps'];

export function registerAnnotationRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.post('/annotations', async (request, reply) => {
    const { value, clock } = await service.createAnnotation(request.body as AnnotationInput, actorOf(request), timeOptions(QueryParams.of(request.query, WRITE_PARAMETERS)));
    return sendAnnotation(withClock(reply, clock).code(201).header('Location', `/annotations/${value.id}`), value);
  });

  app.get('/annotations', async (request, reply) => {
    const query = QueryParams.of(request.query, LIST_PARAMETERS);
    const limit = query.integer('limit', { min: 1, max: MAX_LIST_LIMIT }) ?? DEFAULT_LIST_LIMIT;
    const rate = query.integer('rate', { min: 1, max: Number.MAX_SAFE_INTEGER });
    let found: string[];
    try {
      // Wire JSON texts straight from the store when it can (the read fast path): same bytes as annotationsToWireJson.
      found = await service.queryAnnotationsWireJson({
        tier: query.string('tier'),
        start: query.string('start'),
        end: query.string('end'),
        relation: query.string('relation'),
        rate,
        fps: query.string('fps'),
        limit: limit + 1,
      }, { seconds: true });
    } catch (error) {
      throw asQueryError(error);
    }
    // One more than asked tells whether the list was cut, without counting everything.
    if (found.length > limit) {
      found = found.slice(0, limit);
      reply.header('X-Annot-Truncated', 'true');
    }
    // Serialised by hand (same bytes as JSON.stringify of the output forms), no wire objects.
    return reply.type('application/json; charset=utf-8').send(wireJsonArray(found));
  });

  app.get<{ Params: { id: string } }>('/annotations/:id', async (request, reply) => {
    QueryParams.of(request.query, []);
    return sendAnnotation(reply, await service.getAnnotation(request.params.id));
  });

  app.patch<{ Params: { id: string } }>('/annotations/:id', async (request, reply) => {
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

  // If-Match is optional on DELETE; when given, a stale one refuses the delete (412).
  app.delete<{ Params: { id: string } }>('/annotations/:id', async (request, reply) => {
    QueryParams.of(request.query, []);
    const { clock } = await service.deleteAnnotation(request.params.id, actorOf(request), singleHeader(request.headers['if-match']));
    return withClock(reply, clock).code(204).send();
  });
}

function sendAnnotation(reply: FastifyReply, annotation: Annotation): FastifyReply {
  return reply.header('ETag', annotationEtag(annotation)).send(annotationToOutput(annotation));
}

function timeOptions(query: QueryParams): { rate?: number; fps?: string } {
  return { rate: query.integer('rate', { min: 1, max: Number.MAX_SAFE_INTEGER }), fps: query.string('fps') };
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A list request has no body: whatever is wrong with it (window, rate, relation) is in its query string. */
function asQueryError(error: unknown): unknown {
  const code = (error as { code?: unknown })?.code;
  if (code === 'ANNOT_INVALID_INPUT') {
    return new InvalidQueryError('start', (error as Error).message.replace(/--(start|end|relation)/g, '$1'), { cause: error });
  }
  return error;
}
