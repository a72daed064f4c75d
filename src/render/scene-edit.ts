import { AnnotError } from '../errors/annot-error.js';
import { RationalTime, type RationalTimeWire } from '../time/rational-time.js';
import { localFile, probeDuration, reduce } from './media-probe.js';
import type { LayoutBeat, SceneLayout, SceneManifest } from './manifest.js';

/**
 * The rendered scene cut together, as every derived file sees it (OTIO, EAF and VTT timelines,
 * the animatic): shots in scene order, each showing its beats one after another. A beat lasts as
 * long as its real speech (the duration the manifest records, else probed from the file); an
 * action without a line its duration_s, else 1 s; a skipped or unrendered beat takes no time.
 * A shot lasts as long as its beats, or, with none, as long as its clip, else the hold (2 s).
 * All times are exact: ticks at one rate every duration divides.
 */
export interface SceneEdit {
  title: string;
  /** Ticks per second of every start and duration below. */
  rate: number;
  duration: RationalTime;
  shots: EditShot[];
  /** Beats not seen in any shot (the scene has no shots): laid out after the shots. */
  beats: EditBeat[];
}

export interface MediaPart {
  path: string;
  /** The file's own duration (exact), absent for a still. */
  duration?: RationalTimeWire;
}

export interface EditShot {
  shot_id: string;
  prompt: string;
  start: RationalTime;
  duration: RationalTime;
  still?: MediaPart;
  clip?: MediaPart;
  /** Why the shot has no media (not in the manifest: it failed or was not rendered). */
  missing?: string;
  /** True when the shot has no beats and is held on screen. */
  held: boolean;
  beats: EditBeat[];
}

export interface EditBeat {
  beat_id: string;
  shot_id: string;
  speaker: string;
  line: string;
  action: string;
  start: RationalTime;
  duration: RationalTime;
  audio?: MediaPart;
  video?: MediaPart;
  /** Why the beat has no media and takes no time: skipped by the render, or not rendered. */
  missing?: string;
}

/** How long an action without a line holds the screen when the scene gives no duration_s. */
export const ACTION_BEAT_SECONDS = 1;
/** How long a shot without beats (and without a clip) is shown, by default. */
export const DEFAULT_HOLD_SECONDS = 2;

export class ManifestLayoutMissingError extends AnnotError {
  readonly code = 'ANNOT_MANIFEST_LAYOUT_MISSING';

  constructor(what: string) {
    super(`${what} has no "layout" (the shots' prompts and the beats' lines): it was not written by "annot render scene". Render the scene again with this version to write it.`);
  }
}

export interface EditOptions {
  /** Seconds a shot without beats is shown (default 2). */
  hold?: number;
}

/** The edit of a manifest (with its layout: see SceneLayout), durations probed where missing. */
export async function sceneEdit(manifest: SceneManifest, layout: SceneLayout | undefined = manifest.layout, options: EditOptions = {}): Promise<SceneEdit> {
  if (!layout) throw new ManifestLayoutMissingError('the manifest');
  const hold = RationalTime.fromSecondsLossy(String(options.hold ?? DEFAULT_HOLD_SECONDS), 1000);
  const shotResults = new Map(manifest.shots.map((r) => [r.shot_id, r as unknown as Record<string, unknown>]));
  const beatResults = new Map<string, Record<string, unknown>>();
  for (const r of manifest.beats) if ('beat_id' in r) beatResults.set(r.beat_id, r as unknown as Record<string, unknown>);

  // Beats first (their durations), with times filled in once the common rate is known.
  type Draft = Omit<EditBeat, 'start' | 'duration'> & { seconds: RationalTimeWire };
  const drafts: Draft[] = [];
  for (const beat of layout.beats) drafts.push(await draftBeat(beat, beatResults.get(beat.beat_id)));
  type ShotDraft = Omit<EditShot, 'start' | 'duration' | 'beats'> & { seconds?: RationalTimeWire };
  const shotDrafts: ShotDraft[] = [];
  for (const shot of layout.shots) {
    const r = shotResults.get(shot.shot_id);
    const draft: ShotDraft = { shot_id: shot.shot_id, prompt: shot.prompt, held: false };
    if (!r) draft.missing = 'not rendered';
    else {
      const stillFile = localFile(r.still_path ?? r.path, r.still_url ?? r.url);
      if (stillFile && !/\.(mp4|mov|webm|mkv)$/i.test(stillFile)) draft.still = { path: stillFile };
      const clipFile = r.kind === 'video' && r.video_url ? localFile(r.video_path, r.video_url) : undefined;
      if (clipFile) draft.clip = { path: clipFile, duration: (r.video_duration as RationalTimeWire | undefined) ?? (await probeDuration(clipFile, 'video')) };
      if (!draft.still && !draft.clip) draft.missing = 'media not on this machine';
    }
    shotDrafts.push(draft);
  }

  const rate = commonRate([hold.toWire(), ...drafts.map((d) => d.seconds), ...shotDrafts.flatMap((s) => (s.clip?.duration ? [s.clip.duration] : []))]);
  const at = (t: RationalTimeWire) => new RationalTime(t.v, t.r).toRateLossy(rate);
  let clock = new RationalTime(0, rate);
  const place = (d: Draft): EditBeat => {
    const { seconds, ...rest } = d;
    const beat: EditBeat = { ...rest, start: clock, duration: at(seconds) };
    clock = clock.plus(beat.duration);
    return beat;
  };
  const shots: EditShot[] = [];
  const known = new Set(shotDrafts.map((s) => s.shot_id));
  for (const draft of shotDrafts) {
    const start = clock;
    const beats = drafts.filter((d) => d.shot_id === draft.shot_id).map(place);
    const { seconds: _seconds, ...rest } = draft;
    void _seconds;
    const shot: EditShot = { ...rest, start, duration: clock.minus(start), beats };
    if (beats.every((b) => b.duration.v === 0)) {
      shot.held = true;
      shot.duration = draft.clip?.duration ? at(draft.clip.duration) : hold.toRateLossy(rate);
      // Zero-length beats (skipped) sit at the start of the held shot.
      clock = start.plus(shot.duration);
    }
    shots.push(shot);
  }
  const loose = drafts.filter((d) => !known.has(d.shot_id)).map(place);
  return { title: manifest.title, rate, duration: clock, shots, beats: loose };
}

async function draftBeat(beat: LayoutBeat, r: Record<string, unknown> | undefined) {
  const base = { beat_id: beat.beat_id, shot_id: beat.shot_id, speaker: beat.speaker, line: beat.line, action: beat.action };
  const none = { v: 0, r: 1 };
  if (beat.skipped) return { ...base, missing: `skipped: ${beat.skipped}`, seconds: none };
  if (!r) return { ...base, missing: 'not rendered', seconds: none };
  // An action-only beat is skipped by the render (nothing to speak) but still holds the screen below.
  const actionOnly = beat.line === '' && beat.action !== '';
  if (typeof r.skipped === 'string' && !actionOnly) return { ...base, missing: `skipped: ${r.skipped}`, seconds: none };
  const audioFile = r.audio_url ? localFile(r.audio_path, r.audio_url) : undefined;
  const videoFile = r.video_url ? localFile(r.video_path, r.video_url) : undefined;
  const out: Omit<EditBeat, 'start' | 'duration'> & { seconds: RationalTimeWire } = { ...base, seconds: none };
  if (audioFile) out.audio = { path: audioFile, duration: (r.audio_duration as RationalTimeWire | undefined) ?? (await probeDuration(audioFile, 'audio')) };
  if (videoFile) out.video = { path: videoFile, duration: (r.video_duration as RationalTimeWire | undefined) ?? (await probeDuration(videoFile, 'video')) };
  if (out.audio?.duration) out.seconds = out.audio.duration;
  else if (beat.line !== '') {
    out.missing = r.audio_url ? 'speech not on this machine' : 'not rendered';
  } else {
    // An action without a line: no media, the scene's duration_s (else 1 s) on screen.
    const seconds = beat.duration_s ?? ACTION_BEAT_SECONDS;
    const t = RationalTime.fromSecondsLossy(String(seconds), 1000).toWire();
    out.seconds = reduce(t.v, t.r);
  }
  return out;
}

/** The least rate at which every duration is a whole number of ticks (microseconds if that grows unsafe). */
function commonRate(durations: RationalTimeWire[]): number {
  let rate = 1n;
  for (const d of durations) {
    const { r } = reduce(d.v, d.r);
    const big = BigInt(r);
    let a = rate;
    let b = big;
    while (b !== 0n) [a, b] = [b, a % b];
    rate = (rate / a) * big;
    if (rate > 1_000_000_000n) return 1_000_000_000;
  }
  return Number(rate);
}

/** Seconds of a time, as a number (for ffmpeg arguments and subtitle timestamps). */
export function seconds(t: RationalTime): number {
  return t.v / t.r;
}
