import type { FastifyInstance } from 'fastify';
import { getBodySchema, hasBodySchema, listBodySchemas } from '../../schemas/registry.js';
import { SchemaNotFoundError } from '../errors.js';
import { errors, json, NO_QUERY, routeSchema } from '../route-schema.js';

export function registerSchemaRoutes(app: FastifyInstance): void {
  app.get('/schemas', {
    schema: routeSchema('registered body schema URIs', {
      querystring: NO_QUERY,
      response: { 200: json('sorted URIs', { type: 'array', items: { type: 'string' } }), ...errors(400) },
    }),
  }, async () => listBodySchemas());

  // A schema URI has `://` and slashes (annot://schema/word/v1): a wildcard takes the rest of the
  // path, sent either as is or percent-encoded as one segment.
  app.get<{ Params: { '*': string } }>('/schemas/*', {
    schema: routeSchema('the JSON Schema registered for a body schema URI (the URI as the rest of the path, or percent-encoded)', {
      querystring: NO_QUERY,
      response: { 200: json('a JSON Schema (draft 2020-12)', { type: 'object' }), ...errors(400, 404) },
    }),
  }, async (request) => {
    const uri = decodeOnce(request.params['*']);
    if (!hasBodySchema(uri)) throw new SchemaNotFoundError(`no body schema is registered for ${JSON.stringify(uri)}; GET /schemas lists the registered URIs`);
    return getBodySchema(uri);
  });
}

function decodeOnce(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
