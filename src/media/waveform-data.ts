import type { PeakLevel, PeakLevels } from './peak-levels.js';

/**
 * Peaks at one resolution, in the shape of audiowaveform's data formats, version 2 (the JSON one
 * and the binary `.dat` one, which Peaks.js and waveform-data.js read): one channel (the track's
 * channels mixed), `length` pixels of `samples_per_pixel` samples, a minimum and a maximum each,
 * at 8 or 16 bits.
 */
export interface WaveformData {
  readonly version: 2;
  readonly channels: 1;
  readonly sample_rate: number;
  readonly samples_per_pixel: number;
  readonly bits: 8 | 16;
  readonly length: number;
  /** min0, max0, min1, max1...: signed, 16-bit samples shifted to 8 bits as audiowaveform does. */
  readonly data: Int8Array | Int16Array;
}

/** Pixels `first` to `first + count - 1` of a resolution: a window of it, as a client zoomed in asks for it. */
export interface PixelWindow {
  readonly first: number;
  readonly count: number;
}

/**
 * The peaks at `samplesPerPixel` (at least the finest level's: asked finer, they come at the
 * finest, and the answer says so), all of them or a window. Pixel i covers samples
 * [i·spp, (i+1)·spp), read from the coarsest level whose run divides spp, so it is exact whenever
 * the finest run (a power of two near a millisecond) divides spp; otherwise it is read from the
 * finest level and takes in the finest runs straddling its edges. The last pixel may be partial:
 * the whole is ceil(samples / spp) pixels, as audiowaveform writes it.
 */
export function waveformAt(peaks: PeakLevels, samplesPerPixel: number, bits: 8 | 16, window?: (spp: number, pixels: number) => PixelWindow): WaveformData {
  const spp = Math.max(Math.round(samplesPerPixel), peaks.levels[0].samplesPerPixel);
  const level = levelFor(peaks, spp);
  const pixels = Math.ceil(peaks.sampleCount / spp);
  const { first, count } = window?.(spp, pixels) ?? { first: 0, count: pixels };
  const header = { version: 2, channels: 1, sample_rate: peaks.sampleRate, samples_per_pixel: spp, bits, length: count } as const;
  if (level.samplesPerPixel === spp) return { ...header, data: atBits(level.pairs.subarray(first * 2, (first + count) * 2), bits) };
  const data = bits === 8 ? new Int8Array(count * 2) : new Int16Array(count * 2);
  const bins = level.pairs.length / 2;
  const per = level.samplesPerPixel;
  for (let at = 0; at < count; at++) {
    const i = first + at;
    const from = Math.min(Math.floor((i * spp) / per), bins - 1);
    const to = Math.max(from, Math.min(Math.ceil(Math.min((i + 1) * spp, peaks.sampleCount) / per), bins) - 1);
    let min = level.pairs[from * 2];
    let max = level.pairs[from * 2 + 1];
    for (let bin = from + 1; bin <= to; bin++) {
      if (level.pairs[bin * 2] < min) min = level.pairs[bin * 2];
      if (level.pairs[bin * 2 + 1] > max) max = level.pairs[bin * 2 + 1];
    }
    data[at * 2] = bits === 8 ? min >> 8 : min;
    data[at * 2 + 1] = bits === 8 ? max >> 8 : max;
  }
  return { ...header, data };
}

/** A level's values as they are (16 bits) or shifted to 8 bits. */
function atBits(pairs: Int16Array, bits: 8 | 16): Int8Array | Int16Array {
  if (bits === 16) return pairs;
  const out = new Int8Array(pairs.length);
  for (let i = 0; i < pairs.length; i++) out[i] = pairs[i] >> 8;
  return out;
}

/** The coarsest level whose run divides `spp` (its pixels then start and end on the level's), else the finest. */
function levelFor(peaks: PeakLevels, spp: number): PeakLevel {
  let chosen = peaks.levels[0];
  for (const level of peaks.levels) if (spp % level.samplesPerPixel === 0) chosen = level;
  return chosen;
}

/** audiowaveform's JSON format, version 2, as UTF-8 bytes: the values written digit by digit into one buffer (an hour is 700,000 of them). */
export function waveformJson(waveform: WaveformData): Buffer {
  const { data, ...header } = waveform;
  const head = Buffer.from(`${JSON.stringify(header).slice(0, -1)},"data":[`);
  // At most "-32768," a value.
  const out = Buffer.allocUnsafe(head.length + data.length * 7 + 2);
  head.copy(out);
  let at = head.length;
  for (let i = 0; i < data.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at = writeInteger(out, at, data[i]);
  }
  out[at++] = CLOSE_BRACKET;
  out[at++] = CLOSE_BRACE;
  return out.subarray(0, at);
}

const COMMA = 0x2c;
const MINUS = 0x2d;
const ZERO = 0x30;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** A 16-bit signed integer in decimal ASCII at `at`; returns where it ends. */
function writeInteger(out: Buffer, at: number, value: number): number {
  let rest = value;
  if (rest < 0) {
    out[at++] = MINUS;
    rest = -rest;
  }
  const digits = rest >= 10000 ? 5 : rest >= 1000 ? 4 : rest >= 100 ? 3 : rest >= 10 ? 2 : 1;
  for (let d = digits - 1; d >= 0; d--) {
    out[at + d] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** audiowaveform's binary format, version 2: a 24-byte little-endian header, then the values. */
export function waveformDat(waveform: WaveformData): Buffer {
  const valueBytes = waveform.bits === 8 ? 1 : 2;
  const out = Buffer.alloc(24 + waveform.data.length * valueBytes);
  out.writeInt32LE(2, 0);
  out.writeUInt32LE(waveform.bits === 8 ? 1 : 0, 4);
  out.writeInt32LE(waveform.sample_rate, 8);
  out.writeInt32LE(waveform.samples_per_pixel, 12);
  out.writeUInt32LE(waveform.length, 16);
  out.writeInt32LE(waveform.channels, 20);
  if (waveform.bits === 8) out.set(new Uint8Array(waveform.data.buffer, waveform.data.byteOffset, waveform.data.length), 24);
  else for (let i = 0; i < waveform.data.length; i++) out.writeInt16LE(waveform.data[i], 24 + i * 2);
  return out;
}
