import type { FastifySchema } from 'fastify';

export type Json = Record<string, unknown>;

/**
 * A route's schema: what it takes (querystring, params, headers, body) and what it answers with,
 * per status. @fastify/swagger builds /openapi.json from these, so the document is the routes'
 * own declaration. Query strings are enforced from it (see request-validator.ts); responses are
 * serialised as before, with JSON.stringify (see app.ts), and checked against it by the tests.
 */
export function routeSchema(summary: string, schema: FastifySchema & { description?: string; security?: ReadonlyArray<Record<string, readonly string[]>> }): FastifySchema {
  return { summary, ...schema };
}

/** A reference to a schema registered with app.addSchema (api-schemas.ts). */
export const ref = (id: string): Json => ({ $ref: `${id}#` });

export const arrayOf = (id: string): Json => ({ type: 'array', items: ref(id) });

/** The querystring of a route: exactly these parameters, none unknown. */
export function queryString(properties: Record<string, Json>, required: readonly string[] = []): Json & { properties: Record<string, Json> } {
  return { type: 'object', additionalProperties: false, properties, ...(required.length > 0 ? { required: [...required] } : {}) };
}

export const NO_QUERY = queryString({});

export const stringParameter = (description: string, extra: Json = {}): Json => ({ type: 'string', description, ...extra });

/** A whole-number query parameter in decimal digits (QueryParams.integer reads it with these bounds). */
export const integerParameter = (description: string, minimum: number, maximum = Number.MAX_SAFE_INTEGER): Json => ({ type: 'integer', minimum, maximum, description });

/** The names of a querystring schema's parameters, for QueryParams.of in the handler. */
export const parameterNames = (query: { properties: Record<string, Json> }): string[] => Object.keys(query.properties);

export function headers(properties: Record<string, Json>, required: readonly string[] = []): Json {
  return { type: 'object', properties, ...(required.length > 0 ? { required: [...required] } : {}) };
}

export const ACTOR_HEADER = { 'X-Actor': { type: 'string', minLength: 1, maxLength: 200, description: 'who the op-log records (default anonymous)' } };
export const IF_MATCH_HEADER = { 'If-Match': { type: 'string', description: 'the ETag read with GET; required, 428 without it, 412 when it is stale' } };

/** Response headers. */
export const CLOCK = { 'X-Service-Clock': { type: 'integer', minimum: 0, description: 'the Lamport clock of the mutation' } };
export const ETAG = { ETag: { type: 'string', description: 'strong ETag of the annotation; send it back in If-Match' } };

export function json(description: string, schema: Json, responseHeaders?: Json): Json {
  return { description, ...(responseHeaders ? { headers: responseHeaders } : {}), content: { 'application/json': { schema } } };
}

export function noContent(description: string, responseHeaders?: Json): Json {
  return { description, type: 'null', ...(responseHeaders ? { headers: responseHeaders } : {}) };
}

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'the request cannot be read (query parameter, malformed body, unknown format)',
  401: 'missing or wrong bearer token (servers started with a token)',
  404: 'no such resource',
  409: 'conflicts with the current state (a duplicate id, or a tier constraint the edit would break: details.violations)',
  412: 'If-Match does not match the current ETag; nothing was changed',
  413: 'body over the size limit',
  415: 'unsupported Content-Type (send application/json)',
  416: 'the range lies outside the file',
  422: 'well-formed body with invalid content (schema errors listed in details.issues)',
  428: 'If-Match is required',
};

/** Error responses, all of the one error shape; 401 is on every route that needs the token. */
export function errors(...statuses: number[]): Record<string, Json> {
  return Object.fromEntries([...statuses, 401].map((status) => [String(status), json(ERROR_TEXT[status], ref('Error'))]));
}

/** Error responses of a route anyone may fetch (no 401). */
export function publicErrors(...statuses: number[]): Record<string, Json> {
  return Object.fromEntries(statuses.map((status) => [String(status), json(ERROR_TEXT[status], ref('Error'))]));
}
