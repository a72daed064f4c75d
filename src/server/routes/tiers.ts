import type { FastifyInstance } from 'fastify';
import { tierToWire } from '../../model/wire.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { ACTOR_HEADER, arrayOf, CLOCK, errors, headers, json, NO_QUERY, ref, routeSchema } from '../route-schema.js';

export function registerTierRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.get('/tiers', {
    schema: routeSchema('list tiers', { querystring: NO_QUERY, response: { 200: json('tiers in order', arrayOf('Tier')), ...errors(400) } }),
  }, async () => (await service.listTiers()).map(tierToWire));

  app.get<{ Params: { name: string } }>('/tiers/:name', {
    schema: routeSchema('one tier', {
      params: { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'the tier name' } } },
      response: { 200: json('the tier', ref('Tier')), ...errors(404) },
    }),
  }, async (request) => tierToWire(await service.getTier(request.params.name)));

  // An upsert: 201 when the name is new, 200 when an existing tier was replaced.
  app.post('/tiers', {
    schema: routeSchema('create or replace a tier', {
      querystring: NO_QUERY,
      headers: headers(ACTOR_HEADER),
      body: { content: { 'application/json': { schema: ref('Tier') } } },
      response: { 201: json('created', ref('Tier'), CLOCK), 200: json('replaced', ref('Tier'), CLOCK), ...errors(400, 413, 415, 422) },
    }),
  }, async (request, reply) => {
    const name = (request.body as { name?: unknown } | undefined)?.name;
    const existed = typeof name === 'string' && (await service.listTiers()).some((tier) => tier.name === name);
    const { value, clock } = await service.addTier(request.body, actorOf(request));
    return withClock(reply, clock).code(existed ? 200 : 201).send(tierToWire(value));
  });
}
