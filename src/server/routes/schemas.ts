import type { FastifyInstance } from 'fastify';
import { getBodySchema, hasBodySchema, listBodySchemas } from '../../schemas/registry.js';
import { SchemaNotFoundError } from '../errors.js';
import { QueryParams } from '../query-params.js';

export function registerSchemaRoutes(app: FastifyInstance): void {
  app.get('/schemas', async (request) => {
    QueryParams.of(request.query, []);
    return listBodySchemas();
  });

  // A schema URI has `://` and slashes (annot://schema/word/v1): a wildcard takes the rest of the
  // path, sent either as is or percent-encoded as one segment.
  app.get<{ Params: { '*': string } }>('/schemas/*', async (request) => {
    QueryParams.of(request.query, []);
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
