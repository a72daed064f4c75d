import { reduce, type Fraction } from '../time/decimal.js';
import { correlationPeak } from './correlation-peak.js';
import { cueOccupancy, type CueSpan } from './cue-occupancy.js';
import { FRAME_SECONDS } from './frame-features.js';
import { ratioValue } from './framerate-ratios.js';
import { LagCorrelator } from './lag-correlation.js';

/** What alignCues searches. */
export interface AlignmentSearch {
  /** The signal to align to, one value a 10 ms frame, 0 to 1: detected speech, or a reference's cues. */
  readonly reference: Float32Array;
  /** The cues to move. */
  readonly cues: readonly CueSpan[];
  /** The largest offset tried, in seconds, either way. */
  readonly maxOffsetSeconds: number;
  /** The ratios tried (FRAMERATE_RATIOS, or only 1). */
  readonly ratios: readonly Fraction[];
}

/** The best map found: a cue at t belongs at t × ratio + offset. */
export interface Alignment {
  /** The offset in seconds, rounded to whole milliseconds. */
  readonly offset: Fraction;
  /** The factor the cues' times are multiplied by, before the offset. */
  readonly ratio: Fraction;
  /** How clear the best peak is, 0 to 1 (see CorrelationPeak.clarity). */
  readonly confidence: number;
  /** The correlation score at the best peak: frames that agree less frames that do not. */
  readonly score: number;
}

/** The coarse pass correlates frames of 4 × 10 ms: 16 times less work for the FFTs of two hours. */
const COARSE = 4;
/** The fine pass scores the 10 ms lags this far either side of the coarse peak, directly. */
const FINE_REACH = 8;
/** Lags within this many 10 ms frames of a peak belong to it (the breadth of a cue), not to a rival. */
const PEAK_BREADTH = 150;

/**
 * Finds the offset, and the ratio among those given, that best lay the cues' occupancy over the
 * reference signal, as ffsubsync does: both signals coded +1 where there is speech (or a cue) and
 * -1 where there is none, so a lag scores the frames on which they agree less those on which they
 * do not. For each ratio the lags over ±maxOffset are scored by FFT on 40 ms frames, and the
 * 10 ms lags around that peak directly; the best fine score wins, and the confidence is the
 * clarity of its coarse peak. A reference without a single frame of speech has no alignment to
 * find: confidence 0, nothing moved.
 */
export function alignCues(search: AlignmentSearch): Alignment {
  const { reference, cues, ratios } = search;
  const maxLag = Math.max(1, Math.round(search.maxOffsetSeconds / FRAME_SECONDS));
  if (!reference.some((value) => value > 0) || cues.length === 0) return { offset: { num: 0n, den: 1n }, ratio: { num: 1n, den: 1n }, confidence: 0, score: 0 };
  const fineReference = signed(reference);
  const candidates = ratios.map((ratio) => ({ ratio, fine: signed(cueOccupancy(cues, ratioValue(ratio))) }));
  const coarseMaxLag = Math.ceil(maxLag / COARSE);
  const correlator = new LagCorrelator(coarsened(fineReference), Math.max(...candidates.map((c) => Math.ceil(c.fine.length / COARSE))), coarseMaxLag);
  let best: { ratio: Fraction; lag: number; score: number; clarity: number } | undefined;
  for (const { ratio, fine } of candidates) {
    const coarse = correlationPeak(correlator.scores(coarsened(fine)), coarseMaxLag, PEAK_BREADTH / COARSE);
    const peak = finePeak(fineReference, fine, Math.round(coarse.lag * COARSE), maxLag);
    if (!best || peak.score > best.score) best = { ratio, lag: peak.lag, score: peak.score, clarity: coarse.clarity };
  }
  const chosen = best!;
  const milliseconds = Math.round(chosen.lag * FRAME_SECONDS * 1000);
  return { offset: reduce(BigInt(milliseconds), 1000n), ratio: chosen.ratio, confidence: chosen.clarity, score: chosen.score };
}

/** The peak of the 10 ms lags within FINE_REACH of `center` (and within ±maxLag), each scored directly. */
function finePeak(reference: Float32Array, candidate: Float32Array, center: number, maxLag: number): { lag: number; score: number } {
  const low = Math.max(-maxLag, center - FINE_REACH);
  const high = Math.min(maxLag, center + FINE_REACH);
  const scores = new Float64Array(high - low + 1);
  for (let lag = low; lag <= high; lag++) {
    // Σ reference[n] · candidate[n - lag], over the frames both have.
    const from = Math.max(0, lag);
    const to = Math.min(reference.length, candidate.length + lag);
    let score = 0;
    for (let n = from; n < to; n++) score += reference[n] * candidate[n - lag];
    scores[lag - low] = score;
  }
  const peak = correlationPeak(scores, -low, 0);
  return { lag: peak.lag, score: peak.score };
}

/** The signal in frames of COARSE frames, each their mean. */
function coarsened(signal: Float32Array): Float32Array {
  const out = new Float32Array(Math.ceil(signal.length / COARSE));
  for (let i = 0; i < out.length; i++) {
    const from = i * COARSE;
    const to = Math.min(signal.length, from + COARSE);
    let sum = 0;
    for (let n = from; n < to; n++) sum += signal[n];
    out[i] = sum / (to - from);
  }
  return out;
}

/** 0..1 to -1..+1. */
function signed(signal: Float32Array): Float32Array {
  const out = new Float32Array(signal.length);
  for (let n = 0; n < signal.length; n++) out[n] = 2 * signal[n] - 1;
  return out;
}
