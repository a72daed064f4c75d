import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ffmpegBinary } from '../../src/io/bundled-ffmpeg.js';
import { startTestServer, type TestServer } from '../server/http-client.js';
import { tempDir } from '../support/sample-annot.js';
import { toneSamples, wavBytes } from '../support/wav.js';

// GET /media/peaks: the waveform of the served media in audiowaveform's formats (version 2), computed
// with the bundled FFmpeg from real files the test writes sample by sample, kept in a cache folder of
// the test's own.

/** audiowaveform's JSON data format, version 2 (its doc/DataFormat.md), as a JSON Schema. */
const AUDIOWAVEFORM_JSON_V2 = {
  type: 'object',
  required: ['version', 'channels', 'sample_rate', 'samples_per_pixel', 'bits', 'length', 'data'],
  additionalProperties: false,
  properties: {
    version: { const: 2 },
    channels: { type: 'integer', minimum: 1 },
    sample_rate: { type: 'integer', minimum: 1 },
    samples_per_pixel: { type: 'integer', minimum: 1 },
    bits: { enum: [8, 16] },
    length: { type: 'integer', minimum: 0 },
    data: { type: 'array', items: { type: 'integer', minimum: -32768, maximum: 32767 } },
  },
};
const validate = new Ajv2020({ strict: true }).compile(AUDIOWAVEFORM_JSON_V2);

interface Waveform {
  version: number;
  channels: number;
  sample_rate: number;
  samples_per_pixel: number;
  bits: number;
  length: number;
  data: number[];
}

/** Checks the format, and what audiowaveform's readers check beyond the schema: 2 × channels × length values, each within its bits. */
function expectAudiowaveform(waveform: unknown): asserts waveform is Waveform {
  expect([validate(waveform), validate.errors ?? []]).toEqual([true, []]);
  const { data, length, channels, bits } = waveform as Waveform;
  expect(data).toHaveLength(2 * channels * length);
  const limit = bits === 8 ? 128 : 32768;
  expect(data.every((value) => value >= -limit && value < limit)).toBe(true);
}

/** The min and max of each run of `spp` samples, as the peaks must give them at 16 bits. */
function expectedPeaks(samples: Int16Array, spp: number): number[] {
  const out: number[] = [];
  for (let at = 0; at < samples.length; at += spp) {
    const run = samples.subarray(at, at + spp);
    out.push(Math.min(...run), Math.max(...run));
  }
  return out;
}

const RATE = 8000;
/** 3 s: a 440 Hz tone for the first 1.5 s, then silence. */
const SAMPLES = toneSamples(3, RATE, { toneAt: (t) => t < 1.5 });

describe('GET /media/peaks', () => {
  const { dir, cleanup } = tempDir();
  const media = join(dir, 'tone.wav');
  const cacheDir = join(dir, 'cache');
  let t: TestServer;
  beforeAll(async () => {
    writeFileSync(media, wavBytes(SAMPLES, RATE));
    t = await startTestServer({ live: { media, cacheDir }, token: 'tok' });
  });
  afterAll(async () => {
    await t.close();
    cleanup();
  });
  const auth = { authorization: 'Bearer tok' };
  const peaks = async (query: string) => {
    const answer = await t.call('GET', `/media/peaks${query}`, { headers: auth });
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
    return answer.json as unknown;
  };

  it("answers audiowaveform's JSON, version 2, with a length that covers the media's duration", async () => {
    for (const [query, spp] of [['', 256], ['?samples_per_pixel=100', 100], ['?samples_per_pixel=8000', 8000], ['?pixels_per_second=10', 800], ['?pixels_per_second=0.5', 16000], ['?pixels_per_second=3', 2667]] as const) {
      const waveform = await peaks(query);
      expectAudiowaveform(waveform);
      expect([query, waveform.version, waveform.channels, waveform.sample_rate, waveform.samples_per_pixel, waveform.bits]).toEqual([query, 2, 1, RATE, spp, 8]);
      // 24,000 samples: ceil(24000 / spp) pixels, the last one partial when spp does not divide it.
      expect([query, waveform.length]).toEqual([query, Math.ceil(SAMPLES.length / spp)]);
      expect(waveform.length * spp / RATE).toBeGreaterThanOrEqual(3);
      expect((waveform.length - 1) * spp / RATE).toBeLessThan(3);
    }
  });

  it('gives the min and max of each pixel exactly at 16 bits, and shifted to 8 bits as audiowaveform does', async () => {
    const wide = await peaks('?samples_per_pixel=400&bits=16');
    expectAudiowaveform(wide);
    expect(wide.data).toEqual(expectedPeaks(SAMPLES, 400));
    const narrow = await peaks('?samples_per_pixel=400');
    expectAudiowaveform(narrow);
    expect(narrow.data).toEqual(expectedPeaks(SAMPLES, 400).map((value) => value >> 8));
    // The tone's half swings to ±12,000; the silent half is flat at 0.
    const pixels = narrow.length;
    expect(narrow.data.slice(0, 2)).toEqual([-47, 46]);
    expect(narrow.data.slice(pixels, 2 * pixels).every((value) => value === 0)).toBe(true);
  });

  it('answers the binary format, version 2, with the same values', async () => {
    const answer = await fetch(`${t.url}/media/peaks?samples_per_pixel=400&format=dat`, { headers: auth });
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = Buffer.from(await answer.arrayBuffer());
    const header = [0, 4, 8, 12, 16, 20].map((at) => bytes.readInt32LE(at));
    // version, flags (1: 8 bits), sample rate, samples per pixel, length, channels
    expect(header).toEqual([2, 1, RATE, 400, 60, 1]);
    expect([...new Int8Array(bytes.buffer, bytes.byteOffset + 24, bytes.length - 24)]).toEqual(expectedPeaks(SAMPLES, 400).map((value) => value >> 8));
  });

  it('answers a window of the pixels (start and end in seconds), saying where it starts, how long the track is and the finest resolution', async () => {
    const answer = await t.call('GET', '/media/peaks?samples_per_pixel=400&bits=16&start=1&end=2', { headers: auth });
    expect(answer.status).toBe(200);
    expectAudiowaveform(answer.json);
    // Pixels 20 to 39 hold 8,000 to 16,000 samples.
    expect([answer.json.length, answer.json.data]).toEqual([20, expectedPeaks(SAMPLES, 400).slice(40, 80)]);
    expect(['first-pixel', 'samples', 'finest'].map((name) => answer.headers.get(`x-annot-peaks-${name}`))).toEqual(['20', String(SAMPLES.length), '8']);
    const open = await t.call('GET', '/media/peaks?samples_per_pixel=8000&start=2.5', { headers: auth });
    expect([open.json.length, open.headers.get('x-annot-peaks-first-pixel')]).toEqual([1, '2']);
    const past = await t.call('GET', '/media/peaks?samples_per_pixel=400&start=10', { headers: auth });
    expect([past.status, past.json.length, past.json.data]).toEqual([200, 0, []]);
    const backwards = await t.call('GET', '/media/peaks?start=2&end=1', { headers: auth });
    expect([backwards.status, backwards.json.error.code, backwards.json.error.parameter ?? backwards.json.error.details.parameter]).toEqual([400, 'ANNOT_INVALID_QUERY', 'end']);
  });

  it('keeps the peaks in the cache folder under the SHA-256 of the media file', async () => {
    await peaks('');
    const digest = execFileSync('sha256sum', [media], { encoding: 'utf8' }).split(' ')[0];
    expect(readdirSync(join(cacheDir, 'peaks', 'v2'))).toContain(`${digest}.peaks`);
  });

  it('refuses a query it cannot read, naming the parameter', async () => {
    for (const query of ['?pixels_per_second=10&samples_per_pixel=10', '?pixels_per_second=0', '?pixels_per_second=-1', '?samples_per_pixel=0', '?bits=12', '?format=png', '?zoom=2']) {
      const answer = await t.call('GET', `/media/peaks${query}`, { headers: auth });
      expect([query, answer.status, answer.json.error.code]).toEqual([query, 400, 'ANNOT_INVALID_QUERY']);
    }
  });

  it('needs the token, as every route with data does', async () => {
    expect((await t.call('GET', '/media/peaks')).status).toBe(401);
  });
});

describe('GET /media/peaks: the cache across servers', () => {
  const { dir, cleanup } = tempDir();
  const cacheDir = join(dir, 'cache');
  afterAll(cleanup);

  /** The peaks a fresh server (nothing in memory) answers for `media` at 400 samples per pixel, 16 bits. */
  const freshPeaks = async (media: string): Promise<number[]> => {
    const t = await startTestServer({ live: { media, cacheDir } });
    try {
      const answer = await t.call('GET', '/media/peaks?samples_per_pixel=400&bits=16');
      expect(answer.status).toBe(200);
      return answer.json.data;
    } finally {
      await t.close();
    }
  };
  /** Rewrites every value kept in a cache file, so an answer read from it is told apart from a decoded one. */
  const markCacheFile = () => {
    const folder = join(cacheDir, 'peaks', 'v2');
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.peaks'))) {
      const bytes = readFileSync(join(folder, name));
      // After the 32-byte header and the table of levels (8 bytes each), every value of every level.
      for (let at = 32 + 8 * bytes.readUInt32LE(24); at < bytes.length; at += 2) bytes.writeInt16LE(1234, at);
      writeFileSync(join(folder, name), bytes);
    }
  };

  it('reads what an earlier server kept (same path, or a copy under another name), and decodes a changed file again', async () => {
    const media = join(dir, 'first.wav');
    writeFileSync(media, wavBytes(SAMPLES, RATE));
    expect(await freshPeaks(media)).toEqual(expectedPeaks(SAMPLES, 400));
    markCacheFile();
    // A new server: the peaks come from the cache folder, not from FFmpeg.
    expect(new Set(await freshPeaks(media))).toEqual(new Set([1234]));
    // A copy elsewhere is hashed, and its digest finds the same peaks.
    const copy = join(dir, 'copy.wav');
    copyFileSync(media, copy);
    expect(new Set(await freshPeaks(copy))).toEqual(new Set([1234]));
    // Other bytes at the first path: another digest, decoded again.
    const louder = toneSamples(2, RATE, { amplitude: 20000 });
    writeFileSync(media, wavBytes(louder, RATE));
    expect(await freshPeaks(media)).toEqual(expectedPeaks(louder, 400));
  });

  it('still answers when the cache folder cannot be written, and says so in the log', async () => {
    const media = join(dir, 'uncached.wav');
    writeFileSync(media, wavBytes(SAMPLES, RATE));
    // A file where the cache folder should be: no folder can be made in it, whoever runs the test.
    const notAFolder = join(dir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const lines: string[] = [];
    const t = await startTestServer({ live: { media, cacheDir: notAFolder }, log: (line) => lines.push(line) });
    try {
      const answer = await t.call('GET', '/media/peaks?samples_per_pixel=400&bits=16');
      expect([answer.status, answer.json.data]).toEqual([200, expectedPeaks(SAMPLES, 400)]);
      expect(lines).toEqual([expect.stringMatching(/^annot serve: the peaks of uncached\.wav could not be kept in .*not-a-folder.*; they are computed again next time$/)]);
    } finally {
      await t.close();
    }
  });
});

describe('GET /media/peaks of media it cannot draw', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  const peaksOf = async (media: string | undefined) => {
    const t = await startTestServer({ live: { media, cacheDir: join(dir, 'cache') } });
    try {
      return await t.call('GET', '/media/peaks');
    } finally {
      await t.close();
    }
  };

  it('answers 404 ANNOT_NO_AUDIO for a video without an audio track', async () => {
    const video = join(dir, 'silent-film.mp4');
    execFileSync(ffmpegBinary(), ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5:duration=1', '-an', '-pix_fmt', 'yuv420p', video]);
    const answer = await peaksOf(video);
    expect([answer.status, answer.json.error.code]).toEqual([404, 'ANNOT_NO_AUDIO']);
    expect(answer.json.error.message).toBe('the media silent-film.mp4 has no audio track, so it has no waveform');
  });

  it('answers 500 ANNOT_MEDIA_UNREADABLE, naming the file, for one FFmpeg cannot read', async () => {
    const broken = join(dir, 'broken.wav');
    writeFileSync(broken, 'this is not a WAV file\n');
    const answer = await peaksOf(broken);
    expect([answer.status, answer.json.error.code]).toEqual([500, 'ANNOT_MEDIA_UNREADABLE']);
    expect(answer.json.error.message).toMatch(/^broken\.wav could not be read as media/);
  });

  it('answers 404 when the server has no media, or the file is gone', async () => {
    const none = await peaksOf(undefined);
    expect([none.status, none.json.error.code]).toEqual([404, 'ANNOT_ROUTE_NOT_FOUND']);
    const gone = await peaksOf(join(dir, 'gone.wav'));
    expect([gone.status, gone.json.error.message]).toEqual([404, 'the media file gone.wav is gone']);
  });
});
