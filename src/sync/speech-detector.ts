import type { FrameFeatures } from './frame-features.js';

/** How far above the local noise floor a frame's energy must be to be speech, in dB. */
const ABOVE_FLOOR_DB = 12;
/** Quieter than this is never speech, whatever the floor (digital silence has a floor of -100 dB). */
const QUIETEST_SPEECH_DB = -60;
/** Voiced speech crosses zero less often than this (vowels, nasals); fricatives and noise more. */
const VOICED_CROSSINGS = 0.25;
/** A loud frame that is not voiced counts only this near a voiced one (a fricative beside its vowel). */
const UNVOICED_REACH = 20;
/** Pauses shorter than this between speech frames are filled (the gaps between words). */
const LONGEST_FILLED_GAP = 20;
/** Runs of speech shorter than this are dropped (clicks, a door). */
const SHORTEST_RUN = 8;
/** The noise floor is estimated per block of this many frames (1 s)... */
const BLOCK = 100;
/** ...as a low percentile of the block's energies, then the minimum over this many blocks either side. */
const FLOOR_REACH_BLOCKS = 10;

/**
 * Which 10 ms frames hold speech (1) and which do not (0): an energy and zero-crossing detector
 * that adapts to the noise floor. The floor is tracked by minimum statistics (the quietest part of
 * the 21 s around a frame, from each second's 10th percentile), so a frame is speech when it is
 * well above what the recording is like when nobody speaks there, not above a fixed level. A loud
 * frame that crosses zero often (a fricative, or broadband noise) counts only next to a voiced one;
 * short pauses are filled and short bursts dropped, as cues span phrases, not syllables.
 */
export function detectSpeech(features: FrameFeatures): Uint8Array {
  const { count, energyDb, zeroCrossings } = features;
  const floor = noiseFloor(energyDb);
  const loud = new Uint8Array(count);
  const voiced = new Uint8Array(count);
  for (let n = 0; n < count; n++) {
    const threshold = Math.max(floor[Math.floor(n / BLOCK)] + ABOVE_FLOOR_DB, QUIETEST_SPEECH_DB);
    if (energyDb[n] <= threshold) continue;
    loud[n] = 1;
    if (zeroCrossings[n] < VOICED_CROSSINGS) voiced[n] = 1;
  }
  const speech = new Uint8Array(count);
  const nearVoiced = distanceToMarked(voiced);
  for (let n = 0; n < count; n++) speech[n] = loud[n] && nearVoiced[n] <= UNVOICED_REACH ? 1 : 0;
  fillShortGaps(speech, LONGEST_FILLED_GAP);
  dropShortRuns(speech, SHORTEST_RUN);
  return speech;
}

/** The noise floor of each block of frames, in dB. */
function noiseFloor(energyDb: Float32Array): Float32Array {
  const blocks = Math.ceil(energyDb.length / BLOCK);
  const low = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    const values = energyDb.slice(b * BLOCK, Math.min((b + 1) * BLOCK, energyDb.length)).sort();
    low[b] = values[Math.floor(values.length / 10)];
  }
  const floor = new Float32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    let least = Infinity;
    for (let c = Math.max(0, b - FLOOR_REACH_BLOCKS); c <= Math.min(blocks - 1, b + FLOOR_REACH_BLOCKS); c++) least = Math.min(least, low[c]);
    floor[b] = least;
  }
  return floor;
}

/** For each frame, how many frames away the nearest marked one is (a large number when none is). */
function distanceToMarked(marked: Uint8Array): Uint32Array {
  const far = 0xffffffff;
  const distance = new Uint32Array(marked.length).fill(far);
  let last = -Infinity;
  for (let n = 0; n < marked.length; n++) {
    if (marked[n]) last = n;
    distance[n] = Math.min(far, n - last);
  }
  last = Infinity;
  for (let n = marked.length - 1; n >= 0; n--) {
    if (marked[n]) last = n;
    distance[n] = Math.min(distance[n], last - n);
  }
  return distance;
}

/** Marks the unmarked runs shorter than `longest` that have marked frames on both sides. */
function fillShortGaps(signal: Uint8Array, longest: number): void {
  let lastMarked = -1;
  for (let n = 0; n < signal.length; n++) {
    if (!signal[n]) continue;
    if (lastMarked >= 0 && n - lastMarked - 1 < longest) signal.fill(1, lastMarked + 1, n);
    lastMarked = n;
  }
}

/** Unmarks the marked runs shorter than `shortest`. */
function dropShortRuns(signal: Uint8Array, shortest: number): void {
  let runStart = -1;
  for (let n = 0; n <= signal.length; n++) {
    const on = n < signal.length && signal[n] === 1;
    if (on && runStart < 0) runStart = n;
    if (!on && runStart >= 0) {
      if (n - runStart < shortest) signal.fill(0, runStart, n);
      runStart = -1;
    }
  }
}
