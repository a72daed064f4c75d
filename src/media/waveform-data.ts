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

/**
 * The peaks at `samplesPerPixel` (at least the finest level's: asked finer, they come at the
 * finest, and the answer says so). Pixel i covers samples [i·spp, (i+1)·spp), read from the
 * coarsest level whose run divides spp, so it is exact whenever the finest run (a power of two near
 * a millisecond) divides spp; otherwise it is read from the finest level and takes in the finest
 * runs straddling its edges. The last pixel may be partial: `length` is ceil(samples / spp), as
 * audiowaveform writes it.
 */
export function waveformAt(peaks: PeakLevels, samplesPerPixel: number, bits: 8 | 16): WaveformData {
  const spp = Math.max(Math.round(samplesPerPixel), peaks.levels[0].samplesPerPixel);
  const level = levelFor(peaks, spp);
  const length = Math.ceil(peaks.sampleCount / spp);
  const data = bits === 8 ? new Int8Array(length * 2) : new Int16Array(length * 2);
  const bins = level.pairs.length / 2;
  const per = level.samplesPerPixel;
  for (let i = 0; i < length; i++) {
    const first = Math.min(Math.floor((i * spp) / per), bins - 1);
    const last = Math.max(first, Math.min(Math.ceil(Math.min((i + 1) * spp, peaks.sampleCount) / per), bins) - 1);
    let min = level.pairs[first * 2];
    let max = level.pairs[first * 2 + 1];
    for (let bin = first + 1; bin <= last; bin++) {
      if (level.pairs[bin * 2] < min) min = level.pairs[bin * 2];
      if (level.pairs[bin * 2 + 1] > max) max = level.pairs[bin * 2 + 1];
    }
    data[i * 2] = bits === 8 ? min >> 8 : min;
    data[i * 2 + 1] = bits === 8 ? max >> 8 : max;
  }
  return { version: 2, channels: 1, sample_rate: peaks.sampleRate, samples_per_pixel: spp, bits, length, data };
}

/** The coarsest level whose run divides `spp` (its pixels then start and end on the level's), else the finest. */
function levelFor(peaks: PeakLevels, spp: number): PeakLevel {
  let chosen = peaks.levels[0];
  for (const level of peaks.levels) if (spp % level.samplesPerPixel === 0) chosen = level;
  return chosen;
}

/** audiowaveform's JSON format, version 2, as text (data written out number by number: no array of boxed values). */
export function waveformJson(waveform: WaveformData): string {
  const { data, ...header } = waveform;
  const parts: string[] = [];
  const STEP = 8192;
  for (let at = 0; at < data.length; at += STEP) parts.push(data.subarray(at, at + STEP).join(','));
  return `${JSON.stringify(header).slice(0, -1)},"data":[${parts.join(',')}]}`;
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
