import type { FastifySchema } from 'fastify';

/**
 * A route's schema with the OpenAPI words @fastify/swagger reads (`summary`, `description`),
 * which fastify's own FastifySchema type does not list.
 */
export function routeDoc(summary: string, schema: FastifySchema & { description?: string } = {}): FastifySchema {
  return { summary, ...schema } as FastifySchema;
}
