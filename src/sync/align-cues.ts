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

/**
 * Finds the offset, and the ratio among those given, that best lay the cues' occupancy over the
 * reference signal, as ffsubsync does: both signals coded +1 where there is speech (or a cue) and
 * -1 where there is none, so a lag scores the frames on which they agree less those on which they
 * do not, cross-correlated by FFT over ±maxOffset for each ratio; the best score wins. A reference
 * without a single frame of speech has no alignment to find: confidence 0, nothing moved.
 */
export function alignCues(search: AlignmentSearch): Alignment {
  const { reference, cues, ratios } = search;
  const maxLag = Math.max(1, Math.round(search.maxOffsetSeconds / FRAME_SECONDS));
  if (!reference.some((value) => value > 0) || cues.length === 0) return { offset: { num: 0n, den: 1n }, ratio: { num: 1n, den: 1n }, confidence: 0, score: 0 };
  const candidates = ratios.map((ratio) => ({ ratio, signal: signed(cueOccupancy(cues, ratioValue(ratio))) }));
  const correlator = new LagCorrelator(signed(reference), Math.max(...candidates.map((c) => c.signal.length)), maxLag);
  let best: { ratio: Fraction; lag: number; score: number; clarity: number } | undefined;
  for (const { ratio, signal } of candidates) {
    const peak = correlationPeak(correlator.scores(signal), maxLag);
    if (!best || peak.score > best.score) best = { ratio, ...peak };
  }
  const chosen = best!;
  const milliseconds = Math.round(chosen.lag * FRAME_SECONDS * 1000);
  return { offset: reduce(BigInt(milliseconds), 1000n), ratio: chosen.ratio, confidence: chosen.clarity, score: chosen.score };
}

/** 0..1 to -1..+1. */
function signed(signal: Float32Array): Float32Array {
  const out = new Float32Array(signal.length);
  for (let n = 0; n < signal.length; n++) out[n] = 2 * signal[n] - 1;
  return out;
}
