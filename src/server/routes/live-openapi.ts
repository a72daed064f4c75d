type Json = Record<string, unknown>;

const errorResponse = (description: string): Json => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/**
 * The OpenAPI paths of the live routes (page, op-log stream, media), merged into the hand-written
 * document by openapi.ts. The routes carry fastify schemas too, for a generated document.
 */
export function livePaths(): Json {
  const token = { name: 'token', in: 'query', schema: { type: 'string' }, description: 'the bearer token, for browser elements that cannot set headers (EventSource, <video>); elsewhere use Authorization' };
  return {
    '/': {
      get: {
        summary: 'the timeline page: lanes per tier, live edits, media playback',
        security: [],
        responses: { 200: { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    '/page/{file}': {
      get: {
        summary: 'a script or stylesheet of the timeline page, served from the package',
        security: [],
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+\\.(js|css)$' } }],
        responses: {
          200: { description: 'the asset', content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } } },
          404: errorResponse('no such asset'),
        },
      },
    },
    '/oplog/stream': {
      get: {
        summary: 'the op-log as Server-Sent Events',
        description:
          'Each event is one op-log entry: `id` is its Lamport clock, `data` the entry as JSON (an OpLogEntry), with `etag` added when it adds or replaces an annotation. ' +
          'Reconnecting with `Last-Event-ID: N` sends exactly the entries after clock N. Without it the stream starts at `from_clock`, else after the newest clock. ' +
          'A comment line (`: heartbeat`) is sent every 15 s while idle. Writes by other processes on the same store appear within the poll interval (200 ms).',
        parameters: [
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'integer', minimum: 0 }, description: 'the clock of the last event received; the stream resumes after it' },
          { name: 'from_clock', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'first clock to send (inclusive) when there is no Last-Event-ID' },
          token,
        ],
        responses: {
          200: { description: 'an endless event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          400: errorResponse('Last-Event-ID or a query parameter is malformed'),
          401: errorResponse('missing or wrong bearer token (servers started with a token)'),
        },
      },
    },
    '/media': {
      get: {
        summary: 'the media file the server was started with (annot serve --media), with HTTP Range support',
        parameters: [{ name: 'Range', in: 'header', schema: { type: 'string' }, description: 'bytes=start-end, bytes=start- or bytes=-suffix' }, token],
        responses: {
          200: { description: 'the whole file', headers: { 'Accept-Ranges': { schema: { type: 'string' } } }, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
          206: { description: 'the requested range', headers: { 'Content-Range': { schema: { type: 'string' } } }, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
          401: errorResponse('missing or wrong bearer token (servers started with a token)'),
          404: errorResponse('the server has no media'),
          416: errorResponse('the range lies outside the file'),
        },
      },
    },
  };
}
