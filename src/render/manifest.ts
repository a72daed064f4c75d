import { join } from 'node:path';
import { defaultCacheDir } from './cache.js';
import type { BeatResult, EmptyBeatResult } from './render-beat.js';
import type { ShotResult } from './render-shot.js';

/** The result of a beat whose speaker is not a character of the scene. */
export interface SkippedBeatResult {
  /** The beat's id. */
  beat_id: string;
  /** Why nothing was rendered: no character of the scene has the beat's speaker. */
  skipped: 'no character';
  /** The speaker named by the beat. */
  speaker: string;
  /** Always false. */
  cache_hit: false;
}

/** The result of one beat of a scene: rendered, empty, or skipped. */
export type SceneBeatResult = BeatResult | EmptyBeatResult | SkippedBeatResult;

/** What renderScene returns and `annot render scene` writes: the results of every shot and beat, in scene order. */
export interface SceneManifest {
  /** The scene's title. */
  title: string;
  /** The scene's style. */
  style: string;
  /** The number of shot results. */
  shot_count: number;
  /** The number of beat results, skipped ones included. */
  beat_count: number;
  /** The number of results that came from the cache. */
  cache_hits: number;
  /** The shot results, in scene order. */
  shots: ShotResult[];
  /** The beat results, in scene order. */
  beats: SceneBeatResult[];
  /**
   * What the derived files need of the scene (prompts, lines, beats' shots), so they are built
   * from the manifest alone. Written by `annot render scene`; not part of render_scene's result.
   */
  layout?: SceneLayout;
}

/** A manifest of these results: counts, cache hits, shots and beats as given. */
export function buildManifest(scene: { title: string; style: string }, shots: ShotResult[], beats: SceneBeatResult[]): SceneManifest {
  return {
    title: scene.title,
    style: scene.style,
    shot_count: shots.length,
    beat_count: beats.length,
    cache_hits: [...shots, ...beats].filter((r) => r.cache_hit === true).length,
    shots,
    beats,
  };
}

/**
 * Where a scene's manifest goes: `dir` (else `<cache dir>/scenes`), file name the title with
 * every space and `/` replaced by `_` (`scene` when empty) plus `.manifest.json`. Writes nothing.
 */
export function manifestPathFor(scene: { title: string }, dir?: string): string {
  const base = dir ? dir : join(defaultCacheDir(), 'scenes');
  const name = scene.title ? scene.title.replace(/[ /]/g, '_') : 'scene';
  return join(base, `${name}.manifest.json`);
}

/**
 * What a written scene manifest keeps of the scene itself, so the derived files (timeline,
 * animatic, storyboard) are built from the manifest alone: each shot's prompt, and each beat's
 * shot (resolved), speaker, line, action and emotion, in scene order. A beat belongs to its
 * shot_id, else to the shot of the beat before (the first shot to begin with); when no beat
 * names a shot, the beats are shared out over the shots in order.
 */
export interface SceneLayout {
  /** Each shot's id and prompt, in scene order. */
  shots: LayoutShot[];
  /** Each beat's place and text, in scene order. */
  beats: LayoutBeat[];
}

/** A shot as the derived files need it. */
export interface LayoutShot {
  /** The shot's id. */
  shot_id: string;
  /** The prompt its still was made from. */
  prompt: string;
}

/** A beat as the derived files need it. */
export interface LayoutBeat {
  /** The beat's id. */
  beat_id: string;
  /** The shot the beat is seen in ('' when the scene has no shots). */
  shot_id: string;
  /** The beat's speaker. */
  speaker: string;
  /** The line spoken. */
  line: string;
  /** The action, for a beat without a line. */
  action: string;
  /** How the line is said. */
  emotion: string;
  /** The scene's duration_s: how long an action without a line holds the screen. */
  duration_s: number | null;
  /** Why the beat has no media: its speaker is not a character, or it is empty. */
  skipped?: string;
}
