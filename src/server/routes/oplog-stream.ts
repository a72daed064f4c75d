import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { annotationEtag } from '../../digest/etag.js';
import { annotationFromWire } from '../../model/wire.js';
import type { OpLogEntry } from '../../oplog/op-log-entry.js';
import { httpFailure, InvalidQueryError } from '../errors.js';
import { QueryParams } from '../query-params.js';
import type { RouteContext } from '../route-context.js';
import { errors, integerParameter, parameterNames, queryString, routeSchema, stringParameter } from '../route-schema.js';

/** How often the stream looks for new clocks: the op-log is shared through the store, so a write by another process shows only there. */
export const DEFAULT_STREAM_POLL_MS = 200;
/** A comment line this often keeps proxies and load balancers from closing an idle stream. */
export const DEFAULT_STREAM_HEARTBEAT_MS = 15_000;
/** Entries read per look, so a long backlog is sent in pieces rather than held in memory at once. */
const BATCH = 1000;

/** Options of `GET /oplog/stream`. */
export interface OpLogStreamOptions {
  /** How often the store is polled for entries other processes appended, in milliseconds. */
  readonly pollMs?: number;
  /** How often a comment line keeps an idle stream open, in milliseconds. */
  readonly heartbeatMs?: number;
}

/** What one SSE event carries: the op-log entry, plus the new ETag when the entry adds or replaces an annotation. */
export type StreamedEntry = OpLogEntry & { etag?: string };

const CLOCK = { min: 0, max: Number.MAX_SAFE_INTEGER };

const STREAM_QUERY = queryString({
  from_clock: integerParameter('first clock to send (inclusive) when there is no Last-Event-ID (default: after the newest)', CLOCK.min),
  token: stringParameter('the bearer token, for clients that cannot set headers (EventSource); elsewhere use Authorization'),
});

const STREAM_DESCRIPTION =
  'Each event is one op-log entry: `id` is its Lamport clock, `data` the entry as JSON (an OpLogEntry), with `etag` added when it adds or replaces an annotation. ' +
  'Reconnecting with `Last-Event-ID: N` sends exactly the entries after clock N. Without it the stream starts at `from_clock`, else after the newest clock. ' +
  'A comment line (`: heartbeat`) is sent every 15 s while idle. Writes by other processes on the same store appear within the poll interval (200 ms).';

/**
 * `GET /oplog/stream`: the op-log as Server-Sent Events. Each event's `id` is its Lamport clock
 * and its data the entry as JSON, so a client that reconnects with `Last-Event-ID: N` (which
 * EventSource does by itself) gets exactly the entries after N, none twice and none missed: the
 * clocks are strictly increasing and the stream reads them from the store in order. Without
 * `Last-Event-ID` the stream starts at `from_clock` (inclusive), else after the newest clock.
 * Writes from other processes on the same store (a second `annot` on one .annot file, a
 * PostgreSQL project) appear because the stream polls the store's op-log, not this process.
 */
export function registerOpLogStreamRoutes(app: FastifyInstance, { service }: RouteContext, options: OpLogStreamOptions = {}): void {
  const pollMs = options.pollMs ?? DEFAULT_STREAM_POLL_MS;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_STREAM_HEARTBEAT_MS;
  const open = new Set<() => void>();
  // A stream never ends by itself: a closing server ends them, or it would wait for them forever.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get('/oplog/stream', {
    schema: routeSchema('the op-log as Server-Sent Events', {
      description: STREAM_DESCRIPTION,
      querystring: STREAM_QUERY,
      headers: {
        type: 'object',
        properties: { 'Last-Event-ID': { type: 'string', pattern: '^\\s*([0-9]+)?\\s*$', description: 'the clock of the last event received; the stream resumes after it' } },
      },
      response: {
        200: { description: 'an endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        ...errors(400),
      },
    }),
  }, async (request, reply) => {
    const query = QueryParams.of(request.query, parameterNames(STREAM_QUERY));
    const resumeAfter = lastEventId(request);
    const fromClock = query.integer('from_clock', CLOCK);
    let sent = resumeAfter ?? (fromClock !== undefined ? Math.max(0, fromClock - 1) : await service.latestClock());
    stream(request, reply, open, async (write) => {
      let count = 0;
      for (;;) {
        const entries = await service.readOpLog({ fromClock: sent + 1, limit: BATCH });
        for (const entry of entries) {
          if (!(await write(`id: ${entry.clock}\ndata: ${JSON.stringify(streamed(entry))}\n\n`))) return null;
          sent = entry.clock;
          count++;
        }
        if (entries.length < BATCH) return count;
      }
    }, { pollMs, heartbeatMs });
    return reply;
  });
}

/** `Last-Event-ID` as a clock: EventSource sends back the id of the last event it saw. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id'];
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header[0] : header).trim();
  if (raw === '') return undefined;
  if (!/^(0|[1-9][0-9]*)$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidQueryError('Last-Event-ID', `Last-Event-ID must be an op-log clock (a whole number), got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

function streamed(entry: OpLogEntry): StreamedEntry {
  if (entry.kind !== 'add_annotation' && entry.kind !== 'update_annotation') return entry;
  return { ...entry, etag: annotationEtag(annotationFromWire((entry.payload as { annotation: unknown }).annotation)) };
}

type Write = (chunk: string) => Promise<boolean>;

/**
 * Takes the response over and runs `pump` every `pollMs` until the client goes or the server
 * closes; `pump` sends what is new and answers how many events it sent (null: the client is gone). Writes wait for
 * the socket to drain, so a slow client slows its own stream and nothing piles up in memory.
 */
function stream(
  request: FastifyRequest,
  reply: FastifyReply,
  open: Set<() => void>,
  pump: (write: Write) => Promise<number | null>,
  { pollMs, heartbeatMs }: { pollMs: number; heartbeatMs: number },
): void {
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx buffers responses unless told not to.
    'X-Accel-Buffering': 'no',
  });
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const end = () => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    open.delete(end);
    res.end();
  };
  open.add(end);
  request.raw.on('close', end);
  res.on('close', end);
  res.on('error', end);

  const write: Write = (chunk) => {
    if (ended) return Promise.resolve(false);
    if (res.write(chunk)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        res.off('drain', done);
        res.off('close', done);
        resolve(!ended);
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };

  let lastWrite = Date.now();
  const tick = async () => {
    if (ended) return;
    try {
      const sent = await pump(write);
      if (sent === null) return end();
      if (sent > 0) lastWrite = Date.now();
      else if (Date.now() - lastWrite >= heartbeatMs) {
        if (!(await write(`: heartbeat ${new Date().toISOString()}\n\n`))) return end();
        lastWrite = Date.now();
      }
    } catch (error) {
      // The stream has started: the only way left to report is an SSE event, then closing; EventSource reconnects.
      // The same body a failed request gets: a registered code, and nothing of the internals.
      await write(`event: error\ndata: ${JSON.stringify(httpFailure(error).body)}\n\n`);
      return end();
    }
    if (!ended) timer = setTimeout(tick, pollMs);
  };
  // The retry hint is EventSource's reconnect delay; the first comment flushes the headers through proxies.
  void write(`retry: 1000\n: annot op-log stream\n\n`).then(tick);
}
