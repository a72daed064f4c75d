import type { FastifyInstance } from 'fastify';
import { wireWithSeconds } from '../../model/wire.js';
import { QueryParams } from '../query-params.js';
import type { RouteContext } from '../route-context.js';
import { arrayOf, errors, integerParameter, json, NO_QUERY, parameterNames, queryString, ref, routeSchema } from '../route-schema.js';

export const DEFAULT_OPLOG_LIMIT = 1000;
export const MAX_OPLOG_LIMIT = 100_000;

const CLOCK = { min: 0, max: Number.MAX_SAFE_INTEGER };

const OPLOG_QUERY = queryString({
  from_clock: integerParameter('first clock (inclusive)', 0),
  until_clock: integerParameter('last clock (inclusive)', 0),
  limit: integerParameter(`at most this many (default ${DEFAULT_OPLOG_LIMIT})`, 1, MAX_OPLOG_LIMIT),
});
const STATE_AT_QUERY = queryString({ clock: integerParameter('the op-log clock to replay up to (GET /oplog/latest-clock gives the newest)', 0) }, ['clock']);
const LATEST_CLOCK = { type: 'object', required: ['clock'], additionalProperties: false, properties: { clock: { type: 'integer', minimum: 0 } } };

export function registerOpLogRoutes(app: FastifyInstance, { service }: RouteContext): void {
  // Both bounds inclusive; a client pages on with from_clock = last clock + 1.
  app.get('/oplog', {
    schema: routeSchema('op-log entries in clock order, bounds inclusive', { querystring: OPLOG_QUERY, response: { 200: json('entries', arrayOf('OpLogEntry')), ...errors(400) } }),
  }, async (request) => {
    const query = QueryParams.of(request.query, parameterNames(OPLOG_QUERY));
    return service.readOpLog({
      fromClock: query.integer('from_clock', CLOCK),
      untilClock: query.integer('until_clock', CLOCK),
      limit: query.integer('limit', { min: 1, max: MAX_OPLOG_LIMIT }) ?? DEFAULT_OPLOG_LIMIT,
    });
  });

  app.get('/oplog/latest-clock', {
    schema: routeSchema('the newest clock (0 when the log is empty)', { querystring: NO_QUERY, response: { 200: json('clock', LATEST_CLOCK), ...errors(400) } }),
  }, async () => ({ clock: await service.latestClock() }));

  app.get('/state-at', {
    schema: routeSchema('the state right after a clock, replayed from the log', { querystring: STATE_AT_QUERY, response: { 200: json('snapshot', ref('StateSnapshot')), ...errors(400) } }),
  }, async (request) => {
    const query = QueryParams.of(request.query, parameterNames(STATE_AT_QUERY));
    const state = await service.stateAt(query.requiredInteger('clock', CLOCK, String(STATE_AT_QUERY.properties.clock.description)));
    return { ...state, annotations: state.annotations.map(wireWithSeconds) };
  });
}
