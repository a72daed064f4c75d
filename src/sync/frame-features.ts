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
 * Builds frame features from signed 16-bit little-endian mono samples at ANALYSIS_RATE as they
 * stream in (chunks may split a sample), so nothing of the audio is held but two numbers a frame:
 * 2 hours are 720,000 frames, under 6 MB. A first-order high-pass takes out DC and hum first,
 * which would otherwise lift the energy of silence and hide its zero crossings.
 */
export class FrameFeatureBuilder {
  private energy = new Float32Array(1 << 14);
  private crossings = new Float32Array(1 << 14);
  private count = 0;
  private carry: number | null = null;
  private previousInput = 0;
  private previousOutput = 0;
  private sumSquares = 0;
  private signChanges = 0;
  private lastSign = 0;
  private inFrame = 0;

  /** Adds the next bytes of the stream. */
  push(chunk: Buffer): void {
    let offset = 0;
    if (this.carry !== null && chunk.length > 0) {
      this.samples(Int16Array.of(((chunk[0] << 8) | this.carry) << 16 >> 16));
      this.carry = null;
      offset = 1;
    }
    const pairs = (chunk.length - offset) >> 1;
    const start = chunk.byteOffset + offset;
    // A view when the bytes are aligned (the usual case), a copy otherwise.
    const view = start % 2 === 0 ? new Int16Array(chunk.buffer, start, pairs) : new Int16Array(Uint8Array.prototype.slice.call(chunk, offset, offset + pairs * 2).buffer);
    this.samples(view);
    if (offset + pairs * 2 < chunk.length) this.carry = chunk[chunk.length - 1];
  }

  /** The features of every whole frame pushed (a last partial frame counts if it is at least half a frame). */
  finish(): FrameFeatures {
    if (this.inFrame >= FRAME_SAMPLES / 2) this.closeFrame();
    return { count: this.count, energyDb: this.energy.subarray(0, this.count), zeroCrossings: this.crossings.subarray(0, this.count) };
  }

  /** The hot loop, over locals: 115 million samples for 2 hours. */
  private samples(values: Int16Array): void {
    let { previousInput, previousOutput, sumSquares, signChanges, lastSign, inFrame } = this;
    for (let i = 0; i < values.length; i++) {
      const x = values[i] / 32768;
      const y = x - previousInput + 0.995 * previousOutput;
      previousInput = x;
      previousOutput = y;
      sumSquares += y * y;
      // A dead zone keeps the dither of silence from counting as crossings.
      const sign = y > 1e-4 ? 1 : y < -1e-4 ? -1 : 0;
      if (sign !== 0) {
        if (lastSign !== 0 && sign !== lastSign) signChanges++;
        lastSign = sign;
      }
      if (++inFrame === FRAME_SAMPLES) {
        this.sumSquares = sumSquares;
        this.signChanges = signChanges;
        this.inFrame = inFrame;
        this.closeFrame();
        sumSquares = 0;
        signChanges = 0;
        inFrame = 0;
      }
    }
    this.previousInput = previousInput;
    this.previousOutput = previousOutput;
    this.sumSquares = sumSquares;
    this.signChanges = signChanges;
    this.lastSign = lastSign;
    this.inFrame = inFrame;
  }

  private closeFrame(): void {
    if (this.count === this.energy.length) {
      this.energy = grown(this.energy);
      this.crossings = grown(this.crossings);
    }
    const meanSquare = this.sumSquares / this.inFrame;
    this.energy[this.count] = meanSquare > 1e-10 ? 10 * Math.log10(meanSquare) : -100;
    this.crossings[this.count] = this.signChanges / this.inFrame;
    this.count++;
    this.sumSquares = 0;
    this.signChanges = 0;
    this.inFrame = 0;
  }
}

function grown(array: Float32Array<ArrayBuffer>): Float32Array<ArrayBuffer> {
  const bigger = new Float32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
