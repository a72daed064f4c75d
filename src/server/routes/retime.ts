import type { FastifyInstance } from 'fastify';
import { retimeStore } from '../../service/retime-store.js';
import { retimeCallFromWire, retimeResultToWire } from '../../service/retime-wire.js';
import { actorOf, withClock, type RouteContext } from '../route-context.js';
import { ACTOR_HEADER, CLOCK, errors, headers, json, NO_QUERY, ref, routeSchema, type Json } from '../route-schema.js';

const RATE: Json = { type: ['string', 'number'], description: 'frames per second: 23.976, "24000/1001", 25, 29.97' };

/** Body of POST /retime: a RetimeRequest (src/time/retime.ts) with what to retime and how strictly. */
const RETIME_BODY: Json = {
  type: 'object',
  additionalProperties: false,
  description: 'every part optional; they compose in this order: fps_from/fps_to, then scale, then shift (sync sets the scale and offset itself, so not with fps_from, fps_to or scale; a shift applies after it). An empty body changes nothing',
  properties: {
    shift: { ...ref('TimeInput'), description: 'move every time by this signed amount (2.5, "-00:00:01.200", SMPTE with fps, {v, r})' },
    fps_from: { ...RATE, description: 'the frame rate the times were made for; with fps_to, every time is scaled by fps_from/fps_to, exactly (23.976 to 25: an NTSC film release to PAL)' },
    fps_to: { ...RATE, description: 'the frame rate of the media the times should fit' },
    scale: { type: ['string', 'number'], description: 'a positive ratio to multiply every time by (1.001, "25/24")' },
    sync: {
      description: "two-point sync: the time that was at T1 goes to U1 and T2 to U2, linearly in between and beyond: 'T1=U1,T2=U2' or [[T1, U1], [T2, U2]]",
      oneOf: [{ type: 'string' }, { type: 'array', minItems: 2, maxItems: 2, items: { type: 'array', minItems: 2, maxItems: 2, items: ref('TimeInput') } }],
    },
    within: { type: 'array', minItems: 2, maxItems: 2, items: ref('TimeInput'), description: '[START, END]: only annotations that start in [START, END) before the retime move (a child on an INCLUDED_IN or TIME_SUBDIVISION tier moves with its parent)' },
    fps: { ...RATE, description: 'frames per second of SMPTE HH:MM:SS:FF times in the other parts' },
    tier: { type: 'string', description: 'only this tier, and the tiers that depend on it' },
    strict: { type: 'boolean', description: 'refuse (422 ANNOT_RETIME_BEFORE_ZERO), changing nothing, instead of cutting at 0 s or dropping an annotation moved before it' },
    strict_time: { type: 'boolean', description: 'refuse (400 ANNOT_LOSSY_TIME), changing nothing, instead of rounding a time that falls between ticks of its rate' },
  },
};

const COUNT = { type: 'integer', minimum: 0 };
const RETIME_RESULT: Json = {
  type: 'object',
  required: ['description', 'map', 'moved', 'cut', 'dropped', 'dropped_referring', 'rounded', 'tiers', 'findings', 'clock'],
  properties: {
    description: { type: 'string', description: 'the map for people: "×960/1001, +2.5 s"' },
    map: {
      type: 'object',
      required: ['factor', 'offset'],
      description: 'the exact map: seconds × factor + offset (exact decimals, or reduced fractions "960/1001")',
      properties: { factor: { type: 'string' }, offset: { type: 'string' }, within: { type: 'array', items: { type: 'string' } } },
    },
    moved: { ...COUNT, description: 'annotations the map moved' },
    cut: { ...COUNT, description: 'annotations moved to start before 0 s and cut to start at 0 s' },
    dropped: { ...COUNT, description: 'annotations moved wholly before 0 s and deleted' },
    dropped_referring: { ...COUNT, description: 'annotations without a time (symbolic tiers) deleted with the annotation they referred to' },
    rounded: { ...COUNT, description: 'times that fell between ticks of their rate and were rounded to the nearest' },
    tiers: { type: 'array', items: { type: 'string' }, description: 'the tiers retimed, parents first' },
    findings: { type: 'array', items: { type: 'string' }, description: 'one line per kind of loss (cut, dropped, rounded)' },
    clock: { type: ['integer', 'null'], description: 'the op-log clock of the last entry, null when nothing changed' },
  },
};

/**
 * POST /retime: the store retimed in place by the one service function (retimeStore), as one
 * op-log batch that live clients see on GET /oplog/stream. No If-Match: the retime is of every
 * annotation (of the tier), and each is guarded inside the transaction by the ETag of the version
 * it was computed from, so an edit by another process in between is a 412 that changes nothing.
 */
export function registerRetimeRoutes(app: FastifyInstance, { service }: RouteContext): void {
  app.post('/retime', {
    schema: routeSchema('retime annotations in place: shift, frame-rate change, scale, two-point sync; all or nothing', {
      description:
        'One op-log transaction: every moved annotation updated, every dropped one deleted. Exact in rational time: a time that falls between ticks of its rate is rounded and counted (strict_time refuses), ' +
        'an annotation moved before 0 s is cut at 0 s or dropped and counted (strict refuses). No If-Match: each annotation is guarded by the ETag of the version the retime read, inside the transaction (412 when another writer changed one meanwhile). ' +
        'A result that would break a tier constraint is refused (409). Any refusal changes nothing.',
      querystring: NO_QUERY,
      headers: headers(ACTOR_HEADER),
      body: { content: { 'application/json': { schema: RETIME_BODY } } },
      response: { 200: json('retimed (or nothing to change: clock null)', RETIME_RESULT, CLOCK), ...errors(400, 404, 409, 412, 413, 415, 422) },
    }),
  }, async (request, reply) => {
    const call = retimeCallFromWire(request.body ?? {});
    const result = await retimeStore(service, call.request, { tier: call.tier, strict: call.strict, strictTime: call.strictTime, actor: actorOf(request) });
    if (result.clock !== null) withClock(reply, result.clock);
    return reply.send(retimeResultToWire(result));
  });
}
