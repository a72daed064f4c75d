// The parts of the sync estimate on signals whose answer is known: the FFT against a plain DFT, the
// frame features of a stream cut anywhere, the detector on tone bursts over a noise floor, the
// occupancy of cues, and the correlation's peak and confidence.
import { alignCues } from '../../src/sync/align-cues.js';
import { correlationPeak } from '../../src/sync/correlation-peak.js';
import { cueOccupancy } from '../../src/sync/cue-occupancy.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeSpeechFeatures } from '../../src/sync/decode-speech-features.js';
import { FrameFeatureBuilder } from '../../src/sync/frame-features.js';
import { FRAMERATE_RATIOS, describeRatio } from '../../src/sync/framerate-ratios.js';
import { RealFft } from '../../src/sync/real-fft.js';
import { detectSpeech } from '../../src/sync/speech-detector.js';
import { wavBytes } from '../support/wav.js';
import { seeded } from './speech-track.js';

describe('RealFft', () => {
  it.each([4, 8, 64, 1024])('of %i points agrees with a plain DFT, and inverts', (size) => {
    const random = seeded(size);
    const signal = Array.from({ length: size }, () => random() - 0.5);
    const fft = new RealFft(size);
    const { re, im } = fft.forward(signal);
    for (let k = 0; k <= size / 2; k++) {
      let sr = 0;
      let si = 0;
      for (let n = 0; n < size; n++) {
        sr += signal[n] * Math.cos((-2 * Math.PI * k * n) / size);
        si += signal[n] * Math.sin((-2 * Math.PI * k * n) / size);
      }
      expect(re[k]).toBeCloseTo(sr, 9);
      expect(im[k]).toBeCloseTo(si, 9);
    }
    const back = fft.inverse(re, im);
    signal.forEach((value, n) => expect(back[n]).toBeCloseTo(value, 12));
  });

  it('refuses a size that is not a power of two', () => {
    expect(() => new RealFft(12)).toThrow(RangeError);
  });
});

describe('FrameFeatureBuilder', () => {
  it('gives the same frames however the byte stream is cut', () => {
    const random = seeded(3);
    const bytes = Uint8Array.from({ length: 16_000 }, () => Math.floor(random() * 256));
    const whole = new FrameFeatureBuilder();
    whole.push(bytes);
    const cut = new FrameFeatureBuilder();
    for (let at = 0; at < bytes.length; ) {
      const size = 1 + Math.floor(random() * 300);
      cut.push(bytes.subarray(at, at + size));
      at += size;
    }
    const a = whole.finish();
    const b = cut.finish();
    expect(a.count).toBe(100);
    expect(Array.from(b.energyDb)).toEqual(Array.from(a.energyDb));
    expect(Array.from(b.zeroCrossings)).toEqual(Array.from(a.zeroCrossings));
  });
});

describe('decodeSpeechFeatures', () => {
  it('reads through FFmpeg digital silence as -100 dB, a full-scale tone near -3 dB and its crossings, and a DC offset as silence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'annot-sync-features-'));
    try {
      const tone = (i: number) => Math.round(32000 * Math.sin((2 * Math.PI * 200 * i) / 16_000));
      const samples = Int16Array.from({ length: 4800 }, (_, i) => (i < 1600 ? 0 : i < 3200 ? tone(i) : 8000));
      const path = join(dir, 'tone.wav');
      writeFileSync(path, wavBytes(samples, 16_000));
      const { count, energyDb, zeroCrossings } = await decodeSpeechFeatures(path);
      expect(count).toBe(30);
      expect(energyDb[5]).toBe(-100);
      expect(energyDb[15]).toBeGreaterThan(-4);
      expect(energyDb[15]).toBeLessThan(-2);
      expect(zeroCrossings[15]).toBeCloseTo(400 / 16_000, 2);
      expect(energyDb[25]).toBeLessThan(-60);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('detectSpeech', () => {
  it('finds voiced bursts over steady noise, whatever the noise level, and nothing in the noise alone', () => {
    for (const noiseDb of [-60, -40, -30]) {
      const random = seeded(11);
      const frames = 3000;
      const energyDb = new Float32Array(frames);
      const zeroCrossings = new Float32Array(frames);
      const truth = new Uint8Array(frames);
      for (let n = 0; n < frames; n++) {
        energyDb[n] = noiseDb + (random() - 0.5) * 2;
        zeroCrossings[n] = 0.45;
      }
      // 1.5 s of voice every 6 s, 25 dB over the noise.
      for (let start = 200; start + 150 < frames; start += 600) {
        for (let n = start; n < start + 150; n++) {
          energyDb[n] = noiseDb + 25 + (random() - 0.5) * 6;
          zeroCrossings[n] = 0.08;
          truth[n] = 1;
        }
      }
      const speech = detectSpeech({ count: frames, energyDb, zeroCrossings });
      let agree = 0;
      for (let n = 0; n < frames; n++) agree += speech[n] === truth[n] ? 1 : 0;
      expect(agree / frames).toBeGreaterThan(0.98);
      const alone = detectSpeech({ count: frames, energyDb: energyDb.map((e, n) => (truth[n] ? noiseDb : e)), zeroCrossings });
      expect(alone.every((frame) => frame === 0)).toBe(true);
    }
  });
});

describe('cueOccupancy', () => {
  it('covers each 10 ms frame by the part of it a cue covers, times first multiplied by the ratio', () => {
    const occupancy = cueOccupancy([{ start: 0.015, end: 0.04 }], 1);
    expect(Array.from(occupancy).map((v) => Number(v.toFixed(3)))).toEqual([0, 0.5, 1, 1]);
    const scaled = cueOccupancy([{ start: 0.1, end: 0.2 }], 2);
    expect(scaled.length).toBe(40);
    expect(scaled[19]).toBe(0);
    expect(scaled[20]).toBe(1);
    expect(scaled[39]).toBe(1);
  });

  it('covers a frame of overlapping cues once', () => {
    const occupancy = cueOccupancy([{ start: 0, end: 0.05 }, { start: 0.02, end: 0.05 }], 1);
    expect(Array.from(occupancy)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('correlationPeak', () => {
  it('places a peak between frames and calls a lone spike clear, noise not', () => {
    const random = seeded(5);
    const scores = Float64Array.from({ length: 2001 }, () => random());
    scores[1300] = 40;
    scores[1299] = 30;
    scores[1301] = 20;
    const peak = correlationPeak(scores, 1000, 150);
    expect(peak.lag).toBeGreaterThan(299.5);
    expect(peak.lag).toBeLessThan(300);
    expect(peak.clarity).toBeGreaterThan(0.99);
    const noise = Float64Array.from({ length: 2001 }, () => random());
    expect(correlationPeak(noise, 1000, 150).clarity).toBeLessThan(0.2);
  });

  it('takes a flat top at its middle', () => {
    const scores = new Float64Array(1001);
    for (let i = 600; i <= 610; i++) scores[i] = 10;
    expect(correlationPeak(scores, 500, 150).lag).toBe(105);
  });
});

describe('alignCues', () => {
  it('finds the offset and the ratio of cues laid over a reference of their own, moved', () => {
    const random = seeded(21);
    const cues: Array<{ start: number; end: number }> = [];
    for (let t = 5; t < 600; ) {
      const length = 0.8 + random() * 3;
      cues.push({ start: t, end: t + length });
      t += length + 0.5 + random() * 6;
    }
    const reference = cueOccupancy(cues, 1);
    // The cues as a file made for 24 fps shown at 25 has them, 4.25 s late.
    const moved = cues.map((cue) => ({ start: (cue.start * 25) / 24 + 4.25, end: (cue.end * 25) / 24 + 4.25 }));
    const found = alignCues({ reference, cues: moved, maxOffsetSeconds: 60, ratios: FRAMERATE_RATIOS });
    expect(describeRatio(found.ratio)).toBe('24/25 (from 24 to 25 fps)');
    expect(Number(found.offset.num) / Number(found.offset.den)).toBeCloseTo(-4.25 * (24 / 25), 2);
    expect(found.confidence).toBeGreaterThan(0.5);
  });

  it('has nothing to align to in a reference without speech: confidence 0, nothing moved', () => {
    const found = alignCues({ reference: new Float32Array(1000), cues: [{ start: 1, end: 2 }], maxOffsetSeconds: 5, ratios: FRAMERATE_RATIOS });
    expect(found).toMatchObject({ offset: { num: 0n, den: 1n }, ratio: { num: 1n, den: 1n }, confidence: 0 });
  });
});
