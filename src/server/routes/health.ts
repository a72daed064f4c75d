import type { FastifyInstance } from 'fastify';
import { json, routeSchema } from '../route-schema.js';

const UP = { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { const: 'ok' } } };

export function registerHealthRoutes(app: FastifyInstance): void {
  app.get('/health', { schema: routeSchema('liveness', { security: [], response: { 200: json('up', UP) } }) }, async () => ({ status: 'ok' }));
}
