import type { FastifyInstance } from 'fastify';
import { listFormats } from '../../service/formats.js';
import { QueryParams } from '../query-params.js';

export function registerFormatRoutes(app: FastifyInstance): void {
  app.get('/formats', async (request) => {
    QueryParams.of(request.query, []);
    return listFormats();
  });
}
