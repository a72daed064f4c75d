import type { FastifyInstance } from 'fastify';
import { tierToWire } from '../../model/wire.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { QueryParams } from '../query-params.js';

export function registerTierRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.get('/tiers', async (request) => {
    QueryParams.of(request.query, []);
    return (await service.listTiers()).map(tierToWire);
  });

  app.get<{ Params: { name: string } }>('/tiers/:name', async (request) => tierToWire(await service.getTier(request.params.name)));

  // An upsert: 201 when the name is new, 200 when an existing tier was replaced.
  app.post('/tiers', async (request, reply) => {
    QueryParams.of(request.query, []);
    const name = (request.body as { name?: unknown } | undefined)?.name;
    const existed = typeof name === 'string' && (await service.listTiers()).some((tier) => tier.name === name);
    const { value, clock } = await service.addTier(request.body, actorOf(request));
    return withClock(reply, clock).code(existed ? 200 : 201).send(tierToWire(value));
  });
}
