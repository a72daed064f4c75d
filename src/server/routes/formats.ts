import type { FastifyInstance } from 'fastify';
import { listFormats } from '../../service/formats.js';
import { arrayOf, errors, json, NO_QUERY, routeSchema } from '../route-schema.js';

export function registerFormatRoutes(app: FastifyInstance): void {
  app.get('/formats', {
    schema: routeSchema('registered formats', { querystring: NO_QUERY, response: { 200: json('formats in registration order', arrayOf('Format')), ...errors(400) } }),
  }, async () => listFormats());
}
