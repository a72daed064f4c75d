/** Where a correlation peaks, and how clearly above every other lag. */
export interface CorrelationPeak {
  /** The peak's lag in frames, refined between frames. */
  readonly lag: number;
  /** The score at the peak. */
  readonly score: number;
  /**
   * How clear the peak is, 0 to 1: with s the margin of the peak over the best lag outside its
   * lobe, in standard deviations of the scores outside it, s²/(s² + 4). A margin of two deviations
   * is 0.5; a lone spike is near 1; noise, whose highest lags are all alike, near 0.
   */
  readonly clarity: number;
}

/** Fewer lags than this outside the peak say nothing of how it stands out. */
const FEWEST_RIVALS = 50;

/**
 * The peak of scores over the lags -maxLag..maxLag (scores[maxLag + k] for lag k); lags within
 * `breadth` of it belong to it, not to a rival (the breadth of a cue). A flat top
 * (cues longer than the speech in them fit at every lag of a range) is taken at its middle;
 * otherwise a parabola through the peak and its neighbours places it between frames.
 */
export function correlationPeak(scores: Float64Array, maxLag: number, breadth: number): CorrelationPeak {
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[best]) best = i;
  const top = scores[best];
  const tolerance = Math.abs(top) * 1e-9 + 1e-9;
  let left = best;
  let right = best;
  while (left > 0 && scores[left - 1] >= top - tolerance) left--;
  while (right < scores.length - 1 && scores[right + 1] >= top - tolerance) right++;
  let index = (left + right) / 2;
  if (left === right && best > 0 && best < scores.length - 1) {
    const a = scores[best - 1];
    const c = scores[best + 1];
    const curvature = a - 2 * top + c;
    if (curvature < 0) index = best + (0.5 * (a - c)) / curvature;
  }
  return { lag: index - maxLag, score: top, clarity: clarityOf(scores, left, right, breadth) };
}

/**
 * The clarity of the peak whose flat top is scores[left..right]. Its lobe reaches down its slopes
 * as far as they keep falling, and `breadth` beyond; a search window too narrow to leave
 * FEWEST_RIVALS lags outside that is judged outside `breadth` alone, and without them, 0.
 */
function clarityOf(scores: Float64Array, left: number, right: number, breadth: number): number {
  let lobeLeft = left;
  let lobeRight = right;
  while (lobeLeft > 0 && scores[lobeLeft - 1] <= scores[lobeLeft]) lobeLeft--;
  while (lobeRight < scores.length - 1 && scores[lobeRight + 1] <= scores[lobeRight]) lobeRight++;
  const clarity = marginClarity(scores, scores[left], Math.min(lobeLeft, left - breadth), Math.max(lobeRight, right + breadth));
  return clarity ?? marginClarity(scores, scores[left], left - breadth, right + breadth) ?? 0;
}

/** s²/(s² + 4) for the margin s of `top` over the lags outside lobeLeft..lobeRight; null when too few. */
function marginClarity(scores: Float64Array, top: number, lobeLeft: number, lobeRight: number): number | null {
  let rival = -Infinity;
  let count = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < scores.length; i++) {
    if (i >= lobeLeft && i <= lobeRight) continue;
    const score = scores[i];
    if (score > rival) rival = score;
    count++;
    sum += score;
    squares += score * score;
  }
  if (count < FEWEST_RIVALS) return null;
  const mean = sum / count;
  const deviation = Math.sqrt(Math.max(0, squares / count - mean * mean));
  if (!(deviation > 0)) return top > rival ? 1 : 0;
  const margin = Math.max(0, top - rival) / deviation;
  return (margin * margin) / (margin * margin + 4);
}
