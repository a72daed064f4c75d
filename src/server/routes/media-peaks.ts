import type { FastifyInstance } from 'fastify';
import { basename } from 'node:path';
import { MediaPeaks } from '../../media/media-peaks.js';
import type { PeakLevels } from '../../media/peak-levels.js';
import { waveformAt, waveformDat, waveformJson, type PixelWindow } from '../../media/waveform-data.js';
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
  start: stringParameter('only the pixels from the one holding this time (seconds, a decimal number); the answer\'s X-Annot-Peaks-First-Pixel says which that is', { pattern: POSITIVE_NUMBER.source }),
  end: stringParameter('only the pixels up to the one holding this time (seconds, after start; default the end)', { pattern: POSITIVE_NUMBER.source }),
});

interface PeaksRequest {
  /** Either, or neither (the default). */
  readonly samplesPerPixel?: number;
  readonly pixelsPerSecond?: number;
  readonly bits: 8 | 16;
  readonly format: 'json' | 'dat';
  /** A window of the media, in seconds. */
  readonly start?: number;
  readonly end?: number;
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
  const start = secondsOf(query, 'start');
  const end = secondsOf(query, 'end');
  if (start !== undefined && end !== undefined && end <= start) throw new InvalidQueryError('end', `query parameter "end" must be after start (${start} s), got ${end} s`);
  return { samplesPerPixel, pixelsPerSecond, bits: bits === '8' ? 8 : 16, format, start, end };
}

function secondsOf(query: CheckedQuery, name: 'start' | 'end'): number | undefined {
  const raw = query.string(name);
  if (raw === undefined) return undefined;
  if (!POSITIVE_NUMBER.test(raw)) throw new InvalidQueryError(name, `query parameter "${name}" must be seconds as a decimal number (0, 12.5), got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The pixels of [start, end) at a resolution: from the one holding start to the one holding the instant before end. */
function pixelWindow(start: number | undefined, end: number | undefined, sampleRate: number): ((spp: number, pixels: number) => PixelWindow) | undefined {
  if (start === undefined && end === undefined) return undefined;
  return (spp, pixels) => {
    const first = Math.min(pixels, Math.floor(((start ?? 0) * sampleRate) / spp));
    const last = end === undefined ? pixels : Math.min(pixels, Math.ceil((end * sampleRate) / spp));
    return { first, count: Math.max(0, last - first) };
  };
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
  const answers = new RecentAnswers();
  // Before the requests in flight are waited for: a decode under way stops, its requests answer 503.
  app.addHook('preClose', async () => peaksOf.close());
  app.get<{ Querystring: PeaksRequest }>('/media/peaks', {
    schema: routeSchema('the waveform of the served media: peaks of its first audio track in audiowaveform\'s JSON (or binary) format, version 2', {
      description:
        'Computed once with the bundled FFmpeg and kept in the cache folder (ANNOT_CACHE_DIR, else ~/.cache/annot) under the media file\'s SHA-256; every resolution is read from those peaks. ' +
        'A media file without audio answers 404 ANNOT_NO_AUDIO.',
      querystring: PEAKS_QUERY,
      response: {
        200: {
          description: 'the peaks',
          headers: {
            'X-Annot-Peaks-Samples': { type: 'integer', minimum: 0, description: 'samples of the track (per channel): its duration times its sample rate' },
            'X-Annot-Peaks-Finest': { type: 'integer', minimum: 1, description: 'the finest samples_per_pixel kept; finer ones answer at it' },
            'X-Annot-Peaks-First-Pixel': { type: 'integer', minimum: 0, description: 'the index of the first pixel answered (0 without start)' },
          },
          content: { 'application/json': { schema: WAVEFORM_JSON }, 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
        },
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
    const { samplesPerPixel, pixelsPerSecond, bits, format, start, end } = request.query;
    const spp = samplesPerPixel ?? (pixelsPerSecond === undefined ? DEFAULT_SAMPLES_PER_PIXEL : Math.max(1, Math.round(peaks.sampleRate / pixelsPerSecond)));
    const window = pixelWindow(start, end, peaks.sampleRate);
    const answer = answers.get(peaks, `${spp}/${bits}/${format}/${start ?? ''}/${end ?? ''}`, () => {
      let firstPixel = 0;
      const waveform = waveformAt(peaks, spp, bits, window && ((at, pixels) => {
        const chosen = window(at, pixels);
        firstPixel = chosen.first;
        return chosen;
      }));
      return { body: format === 'dat' ? waveformDat(waveform) : waveformJson(waveform), firstPixel };
    });
    reply.header('Cache-Control', 'no-cache');
    reply.header('X-Annot-Peaks-Samples', String(peaks.sampleCount));
    reply.header('X-Annot-Peaks-Finest', String(peaks.levels[0].samplesPerPixel));
    reply.header('X-Annot-Peaks-First-Pixel', String(answer.firstPixel));
    return reply.type(format === 'dat' ? 'application/octet-stream' : 'application/json; charset=utf-8').send(answer.body);
  });
}

/**
 * The answers written lately, per set of peaks (a changed file has new peaks, and none of these):
 * a page that zooms back and forth, or a second client, asks the same resolutions again.
 */
interface Answer {
  readonly body: Buffer;
  readonly firstPixel: number;
}

class RecentAnswers {
  private readonly byPeaks = new WeakMap<PeakLevels, Map<string, Answer>>();

  get(peaks: PeakLevels, key: string, make: () => Answer): Answer {
    let answers = this.byPeaks.get(peaks);
    if (!answers) this.byPeaks.set(peaks, (answers = new Map()));
    let answer = answers.get(key);
    if (answer) return answer;
    answer = make();
    answers.set(key, answer);
    let bytes = 0;
    for (const kept of answers.values()) bytes += kept.body.length;
    // The oldest go first past a few dozen answers or 64 MB (an hour's finest JSON is about 19 MB).
    for (const [oldest, kept] of answers) {
      if (answers.size <= 64 && bytes <= 64 << 20) break;
      if (oldest === key) break;
      answers.delete(oldest);
      bytes -= kept.body.length;
    }
    return answer;
  }
}
