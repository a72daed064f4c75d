/** The analysis rate: FFmpeg resamples the audio to this many samples a second. */
export const ANALYSIS_RATE = 16_000;
/** One analysis frame: 10 ms, the unit of every signal the sync correlates. */
export const FRAME_SECONDS = 0.01;
const FRAME_SAMPLES = ANALYSIS_RATE * FRAME_SECONDS;

/** The features of the audio's 10 ms frames, in order. */
export interface FrameFeatures {
  /** How many frames. */
  readonly count: number;
  /** Each frame's energy in dB relative to full scale (-100 for digital silence). */
  readonly energyDb: Float32Array;
  /** Each frame's zero-crossing rate: sign changes per sample, 0 to 1. */
  readonly zeroCrossings: Float32Array;
}

/**
 * FFmpeg sends the samples G.711 μ-law coded: one byte a sample, half of 16-bit PCM through the
 * pipe, with a logarithmic step that keeps some 78 dB of range, more than the energy of 10 ms
 * frames needs. These tables give each byte's value (a fraction of full scale), its square, and
 * its sign (0 within a dead zone of a few steps around 0, so the dither of silence does not count
 * as crossings): the hot loop does no arithmetic but sums.
 */
const MU_LAW_VALUE = new Float64Array(256);
const MU_LAW_SQUARE = new Float64Array(256);
const MU_LAW_SIGN = new Int8Array(256);
for (let byte = 0; byte < 256; byte++) {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 7;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  const value = (u & 0x80 ? -magnitude : magnitude) / 32768;
  MU_LAW_VALUE[byte] = value;
  MU_LAW_SQUARE[byte] = value * value;
  MU_LAW_SIGN[byte] = magnitude <= 8 ? 0 : value > 0 ? 1 : -1;
}

/**
 * Builds frame features from μ-law mono samples at ANALYSIS_RATE as they stream in, so nothing of
 * the audio is held but two numbers a frame: 2 hours are 720,000 frames, under 6 MB. A frame's
 * energy is its variance, not its mean square, so a DC offset does not pass for sound.
 */
export class FrameFeatureBuilder {
  private energy = new Float32Array(1 << 14);
  private crossings = new Float32Array(1 << 14);
  private count = 0;
  private sum = 0;
  private sumSquares = 0;
  private signChanges = 0;
  private lastSign = 0;
  private inFrame = 0;

  /** Adds the next bytes of the stream (one μ-law byte a sample). */
  push(chunk: Uint8Array): void {
    let { sum, sumSquares, signChanges, lastSign, inFrame } = this;
    let i = 0;
    while (i < chunk.length) {
      // The hot loop, to the end of the frame or of the chunk: 115 million samples for 2 hours.
      const end = Math.min(chunk.length, i + FRAME_SAMPLES - inFrame);
      inFrame += end - i;
      for (; i < end; i++) {
        const byte = chunk[i];
        sum += MU_LAW_VALUE[byte];
        sumSquares += MU_LAW_SQUARE[byte];
        const sign = MU_LAW_SIGN[byte];
        if (sign !== 0) {
          if (sign !== lastSign && lastSign !== 0) signChanges++;
          lastSign = sign;
        }
      }
      if (inFrame === FRAME_SAMPLES) {
        this.closeFrame(sum, sumSquares, signChanges, inFrame);
        sum = 0;
        sumSquares = 0;
        signChanges = 0;
        inFrame = 0;
      }
    }
    this.sum = sum;
    this.sumSquares = sumSquares;
    this.signChanges = signChanges;
    this.lastSign = lastSign;
    this.inFrame = inFrame;
  }

  /** The features of every whole frame pushed (a last partial frame counts if it is at least half a frame). */
  finish(): FrameFeatures {
    if (this.inFrame >= FRAME_SAMPLES / 2) this.closeFrame(this.sum, this.sumSquares, this.signChanges, this.inFrame);
    return { count: this.count, energyDb: this.energy.subarray(0, this.count), zeroCrossings: this.crossings.subarray(0, this.count) };
  }

  private closeFrame(sum: number, sumSquares: number, signChanges: number, samples: number): void {
    if (this.count === this.energy.length) {
      this.energy = grown(this.energy);
      this.crossings = grown(this.crossings);
    }
    const mean = sum / samples;
    const variance = sumSquares / samples - mean * mean;
    this.energy[this.count] = variance > 1e-10 ? 10 * Math.log10(variance) : -100;
    this.crossings[this.count] = signChanges / samples;
    this.count++;
  }
}

function grown(array: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const bigger = new Float32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
