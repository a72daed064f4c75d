import type { FastifyInstance } from 'fastify';
import { basename } from 'node:path';
import { MediaPeaks } from '../../media/media-peaks.js';
import { waveformAt, waveformDat, waveformJson } from '../../media/waveform-data.js';
import { InvalidQueryError, RouteNotFoundError, ShuttingDownError } from '../errors.js';
import { parsedQueryCompiler, type CheckedQuery } from '../request-validator.js';
import { errors, integerParameter, json, queryString, ref, routeSchema, stringParameter } from '../route-schema.js';

/** audiowaveform's own default zoom, when neither resolution is given. */
const DEFAULT_SAMPLES_PER_PIXEL = 256;
const POSITIVE_NUMBER = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

const PEAKS_QUERY = queryString({
  pixels_per_second: stringParameter('the resolution as pixels per second of media, a positive decimal number (0.5, 100); samples_per_pixel is then sample_rate / it, rounded', { pattern: POSITIVE_NUMBER.source }),
  samples_per_pixel: integerParameter(`the resolution as audio samples per pixel (default ${DEFAULT_SAMPLES_PER_PIXEL}, audiowaveform's); finer than the finest kept (a power of two near 1 ms) answers at that one`, 1),
  bits: stringParameter('8 (default) or 16 bits per value', { enum: ['8', '16'] }),
  format: stringParameter('json (default): audiowaveform\'s JSON format, version 2; dat: its binary format, version 2', { enum: ['json', 'dat'] }),
});

interface PeaksRequest {
  /** Either, or neither (the default). */
  readonly samplesPerPixel?: number;
  readonly pixelsPerSecond?: number;
  readonly bits: 8 | 16;
  readonly format: 'json' | 'dat';
}

function parsePeaksQuery(query: CheckedQuery): PeaksRequest {
  const samplesPerPixel = query.integer('samples_per_pixel');
  const pps = query.string('pixels_per_second');
  if (pps !== undefined && samplesPerPixel !== undefined) throw new InvalidQueryError('pixels_per_second', 'give pixels_per_second or samples_per_pixel, not both');
  const pixelsPerSecond = pps === undefined ? undefined : Number(pps);
  if (pps !== undefined && (!POSITIVE_NUMBER.test(pps) || !(pixelsPerSecond! > 0))) {
    throw new InvalidQueryError('pixels_per_second', `query parameter "pixels_per_second" must be a positive decimal number (0.5, 100), got ${JSON.stringify(pps)}`);
  }
  const bits = query.string('bits') ?? '8';
  if (bits !== '8' && bits !== '16') throw new InvalidQueryError('bits', `query parameter "bits" must be 8 or 16, got ${JSON.stringify(bits)}`);
  const format = query.string('format') ?? 'json';
  if (format !== 'json' && format !== 'dat') throw new InvalidQueryError('format', `query parameter "format" must be json or dat, got ${JSON.stringify(format)}`);
  return { samplesPerPixel, pixelsPerSecond, bits: bits === '8' ? 8 : 16, format };
}

/** audiowaveform's JSON format, version 2, as the document shows it. */
const WAVEFORM_JSON = {
  type: 'object',
  required: ['version', 'channels', 'sample_rate', 'samples_per_pixel', 'bits', 'length', 'data'],
  properties: {
    version: { type: 'integer', const: 2 },
    channels: { type: 'integer', const: 1, description: 'the track\'s channels mixed into one' },
    sample_rate: { type: 'integer', description: 'of the media\'s first audio track, in Hz' },
    samples_per_pixel: { type: 'integer', minimum: 1 },
    bits: { type: 'integer', enum: [8, 16] },
    length: { type: 'integer', minimum: 0, description: 'pixels: ceil(samples / samples_per_pixel)' },
    data: { type: 'array', items: { type: 'integer' }, description: 'min, max of each pixel, 2 × length values' },
  },
};

export interface PeaksRouteOptions {
  /** The media file the server was started with, if any. */
  readonly media: string | undefined;
  /** The cache folder the peaks are kept in. */
  readonly cacheDir: string;
  readonly log: (line: string) => void;
}

/**
 * `GET /media/peaks`: the waveform of the served media's first audio track in audiowaveform's
 * formats (version 2), at the resolution asked for. The track is decoded once with the bundled
 * FFmpeg, its peaks kept in the cache folder under the file's digest; every resolution comes
 * from them (media-peaks.ts, waveform-data.ts).
 */
export function registerPeaksRoute(app: FastifyInstance, { media, cacheDir, log }: PeaksRouteOptions): void {
  const peaksOf = new MediaPeaks(cacheDir, log);
  // Before the requests in flight are waited for: a decode under way stops, its requests answer 503.
  app.addHook('preClose', async () => peaksOf.close());
  app.get<{ Querystring: PeaksRequest }>('/media/peaks', {
    schema: routeSchema('the waveform of the served media: peaks of its first audio track in audiowaveform\'s JSON (or binary) format, version 2', {
      description:
        'Computed once with the bundled FFmpeg and kept in the cache folder (ANNOT_CACHE_DIR, else ~/.cache/annot) under the media file\'s SHA-256; every resolution is read from those peaks. ' +
        'A media file without audio answers 404 ANNOT_NO_AUDIO.',
      querystring: PEAKS_QUERY,
      response: {
        200: { description: 'the peaks', content: { 'application/json': { schema: WAVEFORM_JSON }, 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        500: json('the media could not be decoded (ANNOT_MEDIA_UNREADABLE)', ref('Error')),
        ...errors(400, 404),
      },
    }),
    validatorCompiler: parsedQueryCompiler(parsePeaksQuery),
  }, async (request, reply) => {
    if (media === undefined) throw new RouteNotFoundError('this server has no media: start it with annot serve FILE --media <file>');
    let peaks;
    try {
      peaks = await peaksOf.peaks(media);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new RouteNotFoundError(`the media file ${basename(media)} is gone`);
      if ((error as Error).name === 'AbortError') throw new ShuttingDownError('the server is shutting down; the peaks were not finished');
      throw error;
    }
    const { samplesPerPixel, pixelsPerSecond, bits, format } = request.query;
    const spp = samplesPerPixel ?? (pixelsPerSecond === undefined ? DEFAULT_SAMPLES_PER_PIXEL : Math.max(1, Math.round(peaks.sampleRate / pixelsPerSecond)));
    const waveform = waveformAt(peaks, spp, bits);
    reply.header('Cache-Control', 'no-cache');
    if (format === 'dat') return reply.type('application/octet-stream').send(waveformDat(waveform));
    return reply.type('application/json; charset=utf-8').send(waveformJson(waveform));
  });
}
