import { FRAME_SECONDS } from './frame-features.js';

/** A cue's stretch of time, in seconds (floating point: it only draws a signal). */
export interface CueSpan {
  /** Where the cue starts, in seconds. */
  readonly start: number;
  /** Where it ends, in seconds. */
  readonly end: number;
}

/**
 * How much of each 10 ms frame the cues cover, 0 to 1, with every time first multiplied by
 * `ratio` (the frame-rate ratio being tried): the signal the speech is correlated with. A frame a
 * cue covers only in part gets that part, so the correlation can place an offset between frames.
 * Overlapping cues cover a frame once. The signal ends with the last cue.
 */
export function cueOccupancy(cues: readonly CueSpan[], ratio: number): Float32Array {
  let last = 0;
  for (const cue of cues) last = Math.max(last, cue.end * ratio);
  const frames = Math.ceil(last / FRAME_SECONDS);
  const covered = new Float32Array(frames);
  for (const cue of cues) {
    const from = Math.max(0, (cue.start * ratio) / FRAME_SECONDS);
    const to = Math.min(frames, (cue.end * ratio) / FRAME_SECONDS);
    if (!(to > from)) continue;
    const first = Math.floor(from);
    const lastFrame = Math.min(frames - 1, Math.ceil(to) - 1);
    for (let n = first; n <= lastFrame; n++) covered[n] += Math.min(n + 1, to) - Math.max(n, from);
  }
  for (let n = 0; n < frames; n++) if (covered[n] > 1) covered[n] = 1;
  return covered;
}
