import type { Fraction } from '../time/decimal.js';
import { alignCues } from './align-cues.js';
import type { CueSpan } from './cue-occupancy.js';
import { decodeSpeechFeatures } from './decode-speech-features.js';
import { FRAME_SECONDS } from './frame-features.js';
import { FRAMERATE_RATIOS } from './framerate-ratios.js';
import { detectSpeech } from './speech-detector.js';
import { cueOccupancy } from './cue-occupancy.js';

/** The default of `--max-offset`: the largest offset tried either way, in seconds. */
export const DEFAULT_MAX_OFFSET_SECONDS = 60;

/**
 * Below this confidence the peak is not clear enough to move the file: `annot sync` warns and
 * writes nothing (and `--strict` refuses). 0.5 is a peak two standard deviations of the other
 * lags above the best of them (correlation-peak.ts). Generated speech and its own cues score 0.75
 * and more; noise bursts and cues of other speech stay under 0.35 (test/sync/).
 */
export const LOW_CONFIDENCE = 0.5;

/** What a sync found: a cue at t belongs at t × ratio + offset. */
export interface SyncEstimate {
  /** The offset in seconds, whole milliseconds, exact. */
  readonly offset: Fraction;
  /** The factor applied to the subtitle's times before the offset (1, or a frame-rate change). */
  readonly ratio: Fraction;
  /** How clear the best alignment is, 0 to 1; under LOW_CONFIDENCE it is not trusted. */
  readonly confidence: number;
  /** What the cues were aligned to: the media's detected speech, or a reference file's cues. */
  readonly against: 'speech' | 'reference';
  /** How many cues were aligned. */
  readonly cues: number;
  /** How long the media's audio is, or the reference's last cue, in seconds. */
  readonly referenceSeconds: number;
  /** Seconds of speech detected (media) or covered by cues (reference). */
  readonly speechSeconds: number;
  /** Wall-clock seconds spent decoding the media (absent for a reference). */
  readonly decodeSeconds?: number;
  /** Wall-clock seconds spent on the rest: detection, occupancy and correlation. */
  readonly alignSeconds: number;
}

/** What a sync searches: the offset range, and whether frame-rate ratios are tried. */
export interface SyncOptions {
  /** The largest offset tried either way, in seconds (default 60). */
  readonly maxOffsetSeconds?: number;
  /** Try the frame-rate ratios of FRAMERATE_RATIOS too (default true); false tries 1 only. */
  readonly fixFramerate?: boolean;
  /** Stops the decoding. */
  readonly signal?: AbortSignal;
}

/**
 * Estimates the offset (and frame-rate ratio) that lays the cues over the speech of a media
 * file's first audio track: decoded with the bundled FFmpeg to 16 kHz mono, 10 ms frames,
 * speech detected by energy and zero crossings (speech-detector.ts), then alignCues. The cues may
 * still be on their way (a file being read): the decoding starts at once, beside their reading,
 * and is stopped when they fail.
 */
export async function estimateSyncToMedia(mediaPath: string, cues: readonly CueSpan[] | Promise<readonly CueSpan[]>, options: SyncOptions = {}): Promise<SyncEstimate> {
  const stop = new AbortController();
  options.signal?.addEventListener('abort', () => stop.abort(options.signal?.reason), { once: true });
  const decodeStart = performance.now();
  const decoding = decodeSpeechFeatures(mediaPath, stop.signal).then((features) => ({ features, decodeSeconds: (performance.now() - decodeStart) / 1000 }));
  // Handled here too, so a decoding that fails while the cues are read is not an unhandled rejection.
  decoding.catch(() => {});
  let spans: readonly CueSpan[];
  try {
    spans = await cues;
  } catch (error) {
    stop.abort();
    await decoding.catch(() => {});
    throw error;
  }
  const { features, decodeSeconds } = await decoding;
  const alignStart = performance.now();
  const speech = detectSpeech(features);
  const reference = Float32Array.from(speech);
  const alignment = alignCues({ reference, cues: spans, maxOffsetSeconds: options.maxOffsetSeconds ?? DEFAULT_MAX_OFFSET_SECONDS, ratios: ratiosOf(options) });
  let speechFrames = 0;
  for (const frame of speech) speechFrames += frame;
  return {
    offset: alignment.offset,
    ratio: alignment.ratio,
    confidence: alignment.confidence,
    against: 'speech',
    cues: spans.length,
    referenceSeconds: features.count * FRAME_SECONDS,
    speechSeconds: speechFrames * FRAME_SECONDS,
    decodeSeconds,
    alignSeconds: (performance.now() - alignStart) / 1000,
  };
}

/**
 * Estimates the offset (and frame-rate ratio) that lays the cues over another file's cues, as
 * alass does with a reference subtitle, though with one global offset and ratio: no split points.
 */
export function estimateSyncToReference(referenceCues: readonly CueSpan[], cues: readonly CueSpan[], options: SyncOptions = {}): SyncEstimate {
  const alignStart = performance.now();
  const reference = cueOccupancy(referenceCues, 1);
  const alignment = alignCues({ reference, cues, maxOffsetSeconds: options.maxOffsetSeconds ?? DEFAULT_MAX_OFFSET_SECONDS, ratios: ratiosOf(options) });
  let covered = 0;
  for (const frame of reference) covered += frame;
  return {
    offset: alignment.offset,
    ratio: alignment.ratio,
    confidence: alignment.confidence,
    against: 'reference',
    cues: cues.length,
    referenceSeconds: reference.length * FRAME_SECONDS,
    speechSeconds: covered * FRAME_SECONDS,
    alignSeconds: (performance.now() - alignStart) / 1000,
  };
}

function ratiosOf(options: SyncOptions): readonly Fraction[] {
  return options.fixFramerate === false ? FRAMERATE_RATIOS.slice(0, 1) : FRAMERATE_RATIOS;
}
