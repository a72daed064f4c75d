/**
 * A radix-2 FFT of real signals, of our own: the sync needs a handful of transforms of up to 2^21
 * points and nothing else of a DSP library. A real signal of N points is transformed as a complex
 * one of N/2 points (even samples the real part, odd samples the imaginary part) and untangled
 * after, which halves the work of a plain complex transform.
 */
export class RealFft {
  /** The transform's length: a power of two, at least 4. */
  readonly size: number;
  private readonly half: number;
  /** cos and sin of -2πk/size for k < size/2: the half-size transform's twiddles are every other one. */
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 4 || (size & (size - 1)) !== 0) throw new RangeError(`an FFT size must be a power of two of at least 4, got ${size}`);
    this.size = size;
    this.half = size / 2;
    this.cos = new Float64Array(this.half);
    this.sin = new Float64Array(this.half);
    for (let k = 0; k < this.half; k++) {
      this.cos[k] = Math.cos((-2 * Math.PI * k) / size);
      this.sin[k] = Math.sin((-2 * Math.PI * k) / size);
    }
    this.reversed = bitReversal(this.half);
  }

  /**
   * The spectrum of `signal` (zero-padded to `size`): bins 0..size/2 as two arrays of size/2 + 1,
   * real and imaginary parts.
   */
  forward(signal: ArrayLike<number>): { re: Float64Array; im: Float64Array } {
    const { half } = this;
    const zr = new Float64Array(half);
    const zi = new Float64Array(half);
    const count = Math.min(signal.length, this.size);
    for (let n = 0; n < count; n++) {
      if (n & 1) zi[n >> 1] = signal[n];
      else zr[n >> 1] = signal[n];
    }
    this.complexInPlace(zr, zi, false);
    const re = new Float64Array(half + 1);
    const im = new Float64Array(half + 1);
    for (let k = 0; k <= half; k++) {
      const a = k === half ? 0 : k;
      const b = k === 0 ? 0 : half - k;
      // Z[k] and conj(Z[half-k]) give the spectra of the even and the odd samples.
      const evenRe = (zr[a] + zr[b]) / 2;
      const evenIm = (zi[a] - zi[b]) / 2;
      const oddRe = (zi[a] + zi[b]) / 2;
      const oddIm = -(zr[a] - zr[b]) / 2;
      const wr = k === half ? -1 : this.cos[k];
      const wi = k === half ? 0 : this.sin[k];
      re[k] = evenRe + wr * oddRe - wi * oddIm;
      im[k] = evenIm + wr * oddIm + wi * oddRe;
    }
    return { re, im };
  }

  /** The real signal of length `size` whose spectrum (bins 0..size/2) is given: the inverse of forward. */
  inverse(re: Float64Array, im: Float64Array): Float64Array {
    const { half } = this;
    const zr = new Float64Array(half);
    const zi = new Float64Array(half);
    for (let k = 0; k < half; k++) {
      const b = half - k;
      const evenRe = (re[k] + re[b]) / 2;
      const evenIm = (im[k] - im[b]) / 2;
      const diffRe = (re[k] - re[b]) / 2;
      const diffIm = (im[k] + im[b]) / 2;
      // The odd samples' spectrum: the difference turned back by the twiddle's conjugate.
      const wr = this.cos[k];
      const wi = -this.sin[k];
      const oddRe = diffRe * wr - diffIm * wi;
      const oddIm = diffRe * wi + diffIm * wr;
      zr[k] = evenRe - oddIm;
      zi[k] = evenIm + oddRe;
    }
    this.complexInPlace(zr, zi, true);
    const out = new Float64Array(this.size);
    for (let n = 0; n < half; n++) {
      out[2 * n] = zr[n] / half;
      out[2 * n + 1] = zi[n] / half;
    }
    return out;
  }

  /** The iterative Cooley-Tukey transform of size/2 points, in place; `inverse` conjugates the twiddles (unscaled). */
  private complexInPlace(re: Float64Array, im: Float64Array, inverse: boolean): void {
    const n = this.half;
    const { reversed } = this;
    for (let i = 0; i < n; i++) {
      const j = reversed[i];
      if (j > i) {
        const tr = re[i];
        re[i] = re[j];
        re[j] = tr;
        const ti = im[i];
        im[i] = im[j];
        im[j] = ti;
      }
    }
    const sign = inverse ? -1 : 1;
    for (let span = 1; span < n; span *= 2) {
      // The twiddle of this stage's k is -2πk/(2·span), the full table's entry k·size/(2·span).
      const step = this.size / (2 * span);
      for (let start = 0; start < n; start += 2 * span) {
        for (let k = 0; k < span; k++) {
          const wr = this.cos[k * step];
          const wi = sign * this.sin[k * step];
          const a = start + k;
          const b = a + span;
          const xr = re[b] * wr - im[b] * wi;
          const xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  }
}

function bitReversal(n: number): Uint32Array {
  const bits = Math.log2(n);
  const table = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0, x = i; b < bits; b++, x >>= 1) r = (r << 1) | (x & 1);
    table[i] = r;
  }
  return table;
}
