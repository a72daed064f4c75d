import { createReadStream, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpFailure, RangeNotSatisfiableError, RouteNotFoundError } from '../errors.js';
import { QueryParams } from '../query-params.js';
import { errors, json, parameterNames, queryString, ref, routeSchema, stringParameter } from '../route-schema.js';

const MEDIA_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4', '.m4v': 'video/mp4', '.webm': 'video/webm', '.ogv': 'video/ogg', '.mov': 'video/quicktime', '.mkv': 'video/x-matroska',
  '.mp3': 'audio/mpeg', '.m4a': 'audio/mp4', '.aac': 'audio/aac', '.wav': 'audio/wav', '.ogg': 'audio/ogg', '.oga': 'audio/ogg', '.opus': 'audio/ogg', '.flac': 'audio/flac',
};

/** The extensions of the media files the page knows how to play, video first. */
export const MEDIA_EXTENSIONS: readonly string[] = Object.keys(MEDIA_TYPES);

/** The Content-Type of a media file by its extension; unknown ones are served as bytes. */
export function mediaTypeOf(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Whether the page plays a file in `<video>` or in `<audio>`. */
export function mediaElementOf(path: string): 'video' | 'audio' {
  return mediaTypeOf(path).startsWith('audio/') ? 'audio' : 'video';
}

/** A byte range `[start, end]`, both inclusive as in Content-Range. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * The range a `Range` header asks for within `size` bytes (RFC 9110 §14): `bytes=a-b`, `bytes=a-`
 * or the suffix `bytes=-n`. Null means "send it whole" (no header, another unit, several ranges,
 * which a media element never asks for); 'unsatisfiable' answers 416.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (header === undefined) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const MEDIA_QUERY = queryString({ token: stringParameter('the bearer token, for media elements that cannot set headers (<video>); elsewhere use Authorization') });
const BYTES = { type: 'string', format: 'binary' };

/**
 * `GET /media`: the file given to `annot serve --media` (or the annotations' own asset, when it
 * is a local file), with Range support so a media element can seek without loading it all.
 */
export function registerMediaRoutes(app: FastifyInstance, mediaPath: string | undefined): void {
  app.get('/media', {
    schema: routeSchema('the media file the server was started with (annot serve --media), with HTTP Range support', {
      querystring: MEDIA_QUERY,
      headers: { type: 'object', properties: { Range: { type: 'string', description: 'bytes=start-end, bytes=start- or bytes=-suffix' } } },
      response: {
        200: { description: 'the whole file', headers: { 'Accept-Ranges': { type: 'string', const: 'bytes' } }, content: { '*/*': { schema: BYTES } } },
        206: { description: 'the requested range', headers: { 'Content-Range': { type: 'string', description: 'bytes start-end/size' } }, content: { '*/*': { schema: BYTES } } },
        416: json('the range lies outside the file', ref('Error'), { 'Content-Range': { type: 'string', description: 'bytes */size' } }),
        ...errors(400, 404),
      },
    }),
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    QueryParams.of(request.query, parameterNames(MEDIA_QUERY));
    if (mediaPath === undefined) throw new RouteNotFoundError('this server has no media: start it with annot serve FILE --media <file>');
    let size: number;
    let modified: Date;
    try {
      const stat = statSync(mediaPath);
      size = stat.size;
      modified = stat.mtime;
    } catch {
      throw new RouteNotFoundError(`the media file ${basename(mediaPath)} is gone`);
    }
    reply.header('Accept-Ranges', 'bytes').header('Content-Type', mediaTypeOf(mediaPath)).header('Last-Modified', modified.toUTCString());
    reply.header('Cache-Control', 'no-cache');
    const range = parseRange(request.headers.range, size);
    if (range === 'unsatisfiable') {
      const failure = httpFailure(new RangeNotSatisfiableError(`Range ${request.headers.range} lies outside the ${size} bytes of the media`));
      return reply.code(failure.status).header('Content-Range', `bytes */${size}`).type('application/json; charset=utf-8').send(failure.body);
    }
    if (range === null) return reply.header('Content-Length', String(size)).send(createReadStream(mediaPath));
    return reply.code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(createReadStream(mediaPath, { start: range.start, end: range.end }));
  });
}
