/**
 * The waveform of one audio track as minimum and maximum sample values over runs of samples, at
 * several resolutions: the finest keeps a pair per `samplesPerPixel` samples (a power of two near a
 * millisecond), and each coarser level halves the one before it, down to a single pair. Every
 * resolution a client asks for is read from the level just finer than it, so one decode serves
 * them all (as audiowaveform's and Peaks.js's zoom levels are resampled from one set of peaks).
 */
export interface PeakLevel {
  readonly samplesPerPixel: number;
  /** Signed 16-bit minimum and maximum per pixel, interleaved: min0, max0, min1, max1... */
  readonly pairs: Int16Array;
}

export interface PeakLevels {
  readonly sampleRate: number;
  /** Samples of the track (per channel): its duration is sampleCount / sampleRate. */
  readonly sampleCount: number;
  /** Finest first. */
  readonly levels: readonly PeakLevel[];
}

/** The finest level's samples per pixel: the power of two nearest above a millisecond of samples (64 at 48 kHz, 8 at 8 kHz). */
export function finestSamplesPerPixel(sampleRate: number): number {
  return 2 ** Math.max(0, Math.ceil(Math.log2(sampleRate / 1000)));
}

/**
 * Builds the finest level from signed 16-bit little-endian mono PCM as it arrives, in chunks of any
 * length (an odd byte is kept for the next chunk), in one pass and constant work per sample.
 */
export class PeakBuilder {
  readonly samplesPerPixel: number;
  private pairs = new Int16Array(1 << 16);
  private length = 0;
  private count = 0;
  private inPixel = 0;
  private min = 0;
  private max = 0;
  private carry: Buffer | null = null;

  constructor(readonly sampleRate: number) {
    this.samplesPerPixel = finestSamplesPerPixel(sampleRate);
  }

  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.carry) {
      bytes = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    const whole = bytes.length & ~1;
    if (whole < bytes.length) this.carry = Buffer.from(bytes.subarray(whole));
    // An Int16Array needs its start at an even byte offset: a chunk that is not is copied once.
    const aligned = bytes.byteOffset % 2 === 0 ? bytes : Buffer.from(bytes);
    this.add(new Int16Array(aligned.buffer, aligned.byteOffset, whole / 2));
  }

  private add(samples: Int16Array): void {
    const per = this.samplesPerPixel;
    let { inPixel, min, max } = this;
    for (let i = 0; i < samples.length; i++) {
      const value = samples[i];
      if (inPixel === 0) {
        min = value;
        max = value;
      } else if (value < min) min = value;
      else if (value > max) max = value;
      if (++inPixel === per) {
        this.emit(min, max);
        inPixel = 0;
      }
    }
    this.inPixel = inPixel;
    this.min = min;
    this.max = max;
    this.count += samples.length;
  }

  private emit(min: number, max: number): void {
    if (this.length * 2 === this.pairs.length) {
      const grown = new Int16Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[this.length * 2] = min;
    this.pairs[this.length * 2 + 1] = max;
    this.length++;
  }

  /** Every level, once the track has ended (a last partial pixel is kept, as audiowaveform keeps it). */
  finish(): PeakLevels {
    if (this.inPixel > 0) {
      this.emit(this.min, this.max);
      this.inPixel = 0;
    }
    return levelsFrom(this.sampleRate, this.count, { samplesPerPixel: this.samplesPerPixel, pairs: this.pairs.slice(0, this.length * 2) });
  }
}

/** The finest level and every coarser one, each pair the extremes of two of the level below. */
export function levelsFrom(sampleRate: number, sampleCount: number, finest: PeakLevel): PeakLevels {
  const levels: PeakLevel[] = [finest];
  for (let level = finest; level.pairs.length > 2; ) {
    const length = Math.ceil(level.pairs.length / 4);
    const pairs = new Int16Array(length * 2);
    const from = level.pairs;
    for (let i = 0; i < length; i++) {
      const a = i * 4;
      const hasSecond = a + 2 < from.length;
      pairs[i * 2] = hasSecond ? Math.min(from[a], from[a + 2]) : from[a];
      pairs[i * 2 + 1] = hasSecond ? Math.max(from[a + 1], from[a + 3]) : from[a + 1];
    }
    level = { samplesPerPixel: level.samplesPerPixel * 2, pairs };
    levels.push(level);
  }
  return { sampleRate, sampleCount, levels };
}
