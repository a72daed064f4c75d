import type { FastifySchemaCompiler } from 'fastify';
import { QueryParams } from './query-params.js';

type ParameterSchema = { type?: unknown; minimum?: number; maximum?: number; description?: string };
type QuerySchema = { properties?: Record<string, ParameterSchema>; required?: readonly string[] };

/** A query string as the schema checked it: each parameter once, integers as numbers within their bounds. */
export class CheckedQuery {
  constructor(private readonly values: ReadonlyMap<string, string | number>) {}

  string(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined ? undefined : String(value);
  }

  integer(name: string): number | undefined {
    const value = this.values.get(name);
    return typeof value === 'number' ? value : undefined;
  }
}

/**
 * fastify's validator compiler: the part of a route's schema fastify enforces before the handler,
 * with our errors (InvalidQueryError, ANNOT_INVALID_QUERY), never ajv's.
 *
 * - The querystring is checked from its schema exactly as QueryParams reads it: unknown and
 *   repeated parameters are refused, integers are decimal digits within minimum..maximum, required
 *   parameters must be there. Nothing is coerced: the handler reads the strings (or, for a route
 *   compiled with parsedQueryCompiler, the value its parser made of them).
 * - Bodies are validated by the service with the wire schemas the document shows (so HTTP, MCP and
 *   the CLI refuse the same bodies with the same messages); headers and path parameters by the
 *   handler. Those parts of the schema are the routes' documentation, checked against what the
 *   routes do by test/server/route-schemas.test.ts.
 */
export const requestValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  if (httpPart !== 'querystring') return () => true;
  const check = queryChecker(schema as QuerySchema);
  return (query: unknown) => {
    try {
      check(query);
      return true;
    } catch (error) {
      return { error: error as Error };
    }
  };
};

/**
 * The validator compiler of a route whose query string becomes one value: the schema's checks,
 * then `parse` of the checked parameters, whose result the handler gets as `request.query`. What
 * is wrong with the query string is then found once, before the handler, in the parser's words.
 */
export function parsedQueryCompiler<T>(parse: (query: CheckedQuery) => T): FastifySchemaCompiler<unknown> {
  return (route) => {
    if (route.httpPart !== 'querystring') return requestValidatorCompiler(route);
    const check = queryChecker(route.schema as QuerySchema);
    return (query: unknown) => {
      try {
        return { value: parse(check(query)) };
      } catch (error) {
        return { error: error as Error };
      }
    };
  };
}

function queryChecker({ properties = {}, required = [] }: QuerySchema): (query: unknown) => CheckedQuery {
  const names = Object.keys(properties);
  const entries = Object.entries(properties);
  return (raw: unknown) => {
    const query = QueryParams.of(raw, names);
    const values = new Map<string, string | number>();
    for (const [name, parameter] of entries) {
      const what = parameter.description ?? name;
      let value: string | number | undefined;
      if (parameter.type === 'integer') {
        const bounds = { min: parameter.minimum ?? 0, max: parameter.maximum ?? Number.MAX_SAFE_INTEGER };
        value = required.includes(name) ? query.requiredInteger(name, bounds, what) : query.integer(name, bounds);
      } else {
        value = required.includes(name) ? query.requiredString(name, what) : query.string(name);
      }
      if (value !== undefined) values.set(name, value);
    }
    return new CheckedQuery(values);
  };
}
