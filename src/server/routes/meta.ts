import type { FastifyInstance } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createAjv, issuesFromAjv } from '../../schemas/ajv.js';
import { InvalidBodyError } from '../errors.js';
import { QueryParams } from '../query-params.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';

/** The body of PUT /meta/{key}. */
export const META_VALUE_SCHEMA = {
  type: 'object',
  required: ['value'],
  additionalProperties: false,
  properties: { value: { type: 'string', description: 'a string value' } },
} as const;

let validateMetaValue: ValidateFunction | undefined;

export function registerMetaRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.get('/meta', async (request) => {
    QueryParams.of(request.query, []);
    return service.listMeta();
  });

  app.put<{ Params: { key: string } }>('/meta/:key', async (request, reply) => {
    QueryParams.of(request.query, []);
    validateMetaValue ??= createAjv().compile(META_VALUE_SCHEMA);
    if (!validateMetaValue(request.body)) throw new InvalidBodyError(issuesFromAjv(validateMetaValue.errors, 'body'));
    const { key } = request.params;
    const { value, clock } = await service.setMeta(key, (request.body as { value: string }).value, actorOf(request));
    return withClock(reply, clock).send({ [key]: value });
  });
}
