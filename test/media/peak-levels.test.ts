import fc from 'fast-check';
import { finestSamplesPerPixel, PeakBuilder } from '../../src/media/peak-levels.js';
import { waveformAt, waveformDat, waveformJson } from '../../src/media/waveform-data.js';

/** The min and max of each run of `spp` samples. */
function runs(samples: Int16Array, spp: number): number[] {
  const out: number[] = [];
  for (let at = 0; at < samples.length; at += spp) {
    const run = samples.subarray(at, at + spp);
    out.push(Math.min(...run), Math.max(...run));
  }
  return out;
}

/** The samples as little-endian bytes, cut into the given chunk lengths (the rest in one), each at an odd offset of a larger buffer. */
function chunked(samples: Int16Array, cuts: number[]): Buffer[] {
  const bytes = Buffer.alloc(samples.length * 2);
  samples.forEach((value, index) => bytes.writeInt16LE(value, index * 2));
  const out: Buffer[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (at >= bytes.length) break;
    const piece = bytes.subarray(at, Math.min(bytes.length, at + cut));
    const padded = Buffer.alloc(piece.length + 1);
    piece.copy(padded, 1);
    out.push(padded.subarray(1));
    at += piece.length;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

describe('PeakBuilder and waveformAt', () => {
  it('takes the finest run as a power of two near a millisecond of samples', () => {
    expect([8000, 22050, 44100, 48000, 96000].map(finestSamplesPerPixel)).toEqual([8, 32, 64, 64, 128]);
    expect(finestSamplesPerPixel(500)).toBe(1);
  });

  it('gives the exact min and max of every run, however the bytes arrive (odd lengths, odd offsets)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 0, maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { maxLength: 20 }),
        fc.constantFrom(8, 16, 24, 40, 64, 1000),
        (values, cuts, spp) => {
          const samples = Int16Array.from(values);
          const builder = new PeakBuilder(8000);
          for (const chunk of chunked(samples, cuts)) builder.push(chunk);
          const peaks = builder.finish();
          expect(peaks.sampleCount).toBe(samples.length);
          const waveform = waveformAt(peaks, spp, 16);
          expect(waveform.length).toBe(Math.ceil(samples.length / spp));
          expect([...waveform.data]).toEqual(runs(samples, spp));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a resolution the finest run does not divide from the finest level, taking in the runs across its edges', () => {
    const samples = Int16Array.from({ length: 100 }, (_, i) => (i === 12 ? 500 : i === 90 ? -700 : 0));
    const builder = new PeakBuilder(8000);
    builder.push(chunked(samples, [])[0]);
    // 10 samples a pixel over runs of 8: pixel 0 is [0, 10) but reads runs [0, 8) and [8, 16), so it sees the 500 at 12.
    const waveform = waveformAt(builder.finish(), 10, 16);
    expect([...waveform.data.slice(0, 4)]).toEqual([0, 500, 0, 500]);
    expect(waveform.data[2 * 9]).toBe(-700);
  });

  it('answers a resolution finer than the finest at the finest, and writes both of audiowaveform\'s forms', () => {
    const builder = new PeakBuilder(48000);
    builder.push(chunked(Int16Array.from([1, -2, 300, -400, 5]), [])[0]);
    const waveform = waveformAt(builder.finish(), 1, 8);
    expect([waveform.samples_per_pixel, waveform.length, [...waveform.data]]).toEqual([64, 1, [-2, 1]]);
    expect(JSON.parse(waveformJson(waveform).toString())).toEqual({ version: 2, channels: 1, sample_rate: 48000, samples_per_pixel: 64, bits: 8, length: 1, data: [-2, 1] });
    const dat = waveformDat(waveform);
    expect([dat.length, dat.readInt32LE(0), dat.readUInt32LE(4), dat.readInt32LE(12), dat.readInt8(24), dat.readInt8(25)]).toEqual([26, 2, 1, 64, -2, 1]);
  });

  it('writes every 16-bit value in JSON as JSON.stringify would', () => {
    const values = Int16Array.from([-32768, -10000, -9999, -1000, -101, -100, -99, -10, -9, -1, 0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 32767]);
    const builder = new PeakBuilder(1000);
    builder.push(chunked(values, [])[0]);
    const waveform = waveformAt(builder.finish(), 1, 16);
    expect(JSON.parse(waveformJson(waveform).toString()).data).toEqual(runs(values, 1));
  });

  it('gives an empty track no pixels', () => {
    const waveform = waveformAt(new PeakBuilder(8000).finish(), 256, 8);
    expect([waveform.length, waveform.data.length, waveformJson(waveform).toString()]).toEqual([0, 0, '{"version":2,"channels":1,"sample_rate":8000,"samples_per_pixel":256,"bits":8,"length":0,"data":[]}']);
  });
});
