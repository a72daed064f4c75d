import type { FastifyInstance } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { LIMITS } from '../../model/limits.js';
import { createAjv, issuesFromAjv } from '../../schemas/ajv.js';
import { InvalidBodyError } from '../errors.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { ACTOR_HEADER, CLOCK, errors, headers, json, NO_QUERY, ref, routeSchema } from '../route-schema.js';

/** The body of PUT /meta/{key}. */
export const META_VALUE_SCHEMA = {
  type: 'object',
  required: ['value'],
  additionalProperties: false,
  properties: { value: { type: 'string', maxLength: LIMITS.metaValueChars, description: `a string value of at most ${LIMITS.metaValueChars} characters` } },
} as const;

let validateMetaValue: ValidateFunction | undefined;

export function registerMetaRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.get('/meta', {
    schema: routeSchema('store metadata', { querystring: NO_QUERY, response: { 200: json('key to value', ref('Meta')), ...errors(400) } }),
  }, async () => service.listMeta());

  app.put<{ Params: { key: string } }>('/meta/:key', {
    schema: routeSchema('set a metadata value', {
      params: { type: 'object', required: ['key'], properties: { key: { type: 'string', minLength: 1, maxLength: LIMITS.nameChars, description: `the metadata key, at most ${LIMITS.nameChars} characters` } } },
      querystring: NO_QUERY,
      headers: headers(ACTOR_HEADER),
      body: { content: { 'application/json': { schema: ref('MetaValue') } } },
      response: { 200: json('{key: value}', ref('Meta'), CLOCK), ...errors(400, 413, 415, 422) },
    }),
  }, async (request, reply) => {
    validateMetaValue ??= createAjv().compile(META_VALUE_SCHEMA);
    if (!validateMetaValue(request.body)) throw new InvalidBodyError(issuesFromAjv(validateMetaValue.errors, 'body'));
    const { key } = request.params;
    const { value, clock } = await service.setMeta(key, (request.body as { value: string }).value, actorOf(request));
    return withClock(reply, clock).send({ [key]: value });
  });
}
