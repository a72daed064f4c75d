import type { FastifyRequest } from 'fastify';

/**
 * Routes of the timeline page that anyone may fetch on a server with a token: the page itself
 * holds no data, and asks for the token before its first request for some.
 */
export const PAGE_PATHS: ReadonlySet<string> = new Set(['/', '/page/:file']);

/**
 * Routes a browser opens without being able to set a header: EventSource for the op-log stream,
 * `<video src>` for the media. They may carry the token as `?token=`; every other route takes
 * it only in the Authorization header, so it does not end up in logs and histories.
 */
export const QUERY_TOKEN_PATHS: ReadonlySet<string> = new Set(['/oplog/stream', '/media']);

/** The Authorization header, else on the routes above `Bearer <?token=>`. */
export function authorizationOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined || !QUERY_TOKEN_PATHS.has(request.routeOptions.url ?? '')) return header;
  const token = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token !== '' ? `Bearer ${token}` : undefined;
}
