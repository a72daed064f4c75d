import { RealFft } from './real-fft.js';

/**
 * Cross-correlates one reference signal with several candidate signals by FFT, each over the lags
 * -maxLag..maxLag only: `score[maxLag + k]` is Σn reference[n]·candidate[n - k], the candidate
 * moved k frames later. The transform is long enough that no wanted lag wraps around (at least
 * the longer signal plus maxLag), and the reference's spectrum is taken once for all candidates.
 */
export class LagCorrelator {
  private readonly fft: RealFft;
  private readonly reference: { re: Float64Array; im: Float64Array };
  private readonly maxLag: number;

  constructor(reference: Float32Array, longestCandidate: number, maxLag: number) {
    this.maxLag = maxLag;
    let size = 4;
    while (size < Math.max(reference.length, longestCandidate) + maxLag + 1) size *= 2;
    this.fft = new RealFft(size);
    this.reference = this.fft.forward(reference);
  }

  /** The scores of the lags -maxLag..maxLag, in that order. */
  scores(candidate: Float32Array): Float64Array {
    const { re: cr, im: ci } = this.fft.forward(candidate);
    const { re: rr, im: ri } = this.reference;
    // reference × conj(candidate): the spectrum of the correlation.
    for (let k = 0; k < cr.length; k++) {
      const re = rr[k] * cr[k] + ri[k] * ci[k];
      const im = ri[k] * cr[k] - rr[k] * ci[k];
      cr[k] = re;
      ci[k] = im;
    }
    const circular = this.fft.inverse(cr, ci);
    const size = this.fft.size;
    const out = new Float64Array(2 * this.maxLag + 1);
    for (let k = -this.maxLag; k <= this.maxLag; k++) out[this.maxLag + k] = circular[k >= 0 ? k : size + k];
    return out;
  }
}
