import type { FastifyInstance } from 'fastify';
import { wireWithSeconds } from '../../model/wire.js';
import { QueryParams } from '../query-params.js';
import type { RouteContext } from '../route-context.js';

export const DEFAULT_OPLOG_LIMIT = 1000;
export const MAX_OPLOG_LIMIT = 100_000;

const CLOCK = { min: 0, max: Number.MAX_SAFE_INTEGER };

export function registerOpLogRoutes(app: FastifyInstance, { service }: RouteContext): void {
  // Both bounds inclusive; a client pages on with from_clock = last clock + 1.
  app.get('/oplog', async (request) => {
    const query = QueryParams.of(request.query, ['from_clock', 'until_clock', 'limit']);
    return service.readOpLog({
      fromClock: query.integer('from_clock', CLOCK),
      untilClock: query.integer('until_clock', CLOCK),
      limit: query.integer('limit', { min: 1, max: MAX_OPLOG_LIMIT }) ?? DEFAULT_OPLOG_LIMIT,
    });
  });

  app.get('/oplog/latest-clock', async (request) => {
    QueryParams.of(request.query, []);
    return { clock: await service.latestClock() };
  });

  app.get('/state-at', async (request) => {
    const query = QueryParams.of(request.query, ['clock']);
    const state = await service.stateAt(query.requiredInteger('clock', CLOCK, 'the op-log clock to replay up to (GET /oplog/latest-clock gives the newest)'));
    return { ...state, annotations: state.annotations.map(wireWithSeconds) };
  });
}
