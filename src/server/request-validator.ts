import type { FastifySchemaCompiler } from 'fastify';
import { QueryParams } from './query-params.js';

type ParameterSchema = { type?: unknown; minimum?: number; maximum?: number; description?: string };
type QuerySchema = { properties?: Record<string, ParameterSchema>; required?: readonly string[] };

/**
 * fastify's validator compiler: the part of a route's schema fastify enforces before the handler,
 * with our errors (InvalidQueryError, ANNOT_INVALID_QUERY), never ajv's.
 *
 * - The querystring is checked from its schema exactly as QueryParams reads it: unknown and
 *   repeated parameters are refused, integers are decimal digits within minimum..maximum, required
 *   parameters must be there. Nothing is coerced: the handler reads the strings.
 * - Bodies are validated by the service with the wire schemas the document shows (so HTTP, MCP and
 *   the CLI refuse the same bodies with the same messages); headers and path parameters by the
 *   handler. Those parts of the schema are the routes' documentation, checked against what the
 *   routes do by test/server/route-schemas.test.ts.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart !== 'querystring') return () => true;
  const { properties = {}, required = [] } = schema as QuerySchema;
  const names = Object.keys(properties);
  return (query: unknown) => {
    try {
      checkQuery(QueryParams.of(query, names), properties, required);
      return true;
    } catch (error) {
      return { error: error as Error };
    }
  };
};

function checkQuery(query: QueryParams, properties: Record<string, ParameterSchema>, required: readonly string[]): void {
  for (const [name, parameter] of Object.entries(properties)) {
    const what = parameter.description ?? name;
    if (parameter.type === 'integer') {
      const bounds = { min: parameter.minimum ?? 0, max: parameter.maximum ?? Number.MAX_SAFE_INTEGER };
      if (required.includes(name)) query.requiredInteger(name, bounds, what);
      else query.integer(name, bounds);
    } else if (required.includes(name)) {
      query.requiredString(name, what);
    }
  }
}
