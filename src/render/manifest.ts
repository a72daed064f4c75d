import { join } from 'node:path';
import { defaultCacheDir } from './cache.js';
import type { BeatResult, EmptyBeatResult } from './render-beat.js';
import type { ShotResult } from './render-shot.js';
import type { SceneLayout } from './scene-layout.js';

/** The result of a beat whose speaker is not a character of the scene. */
export interface SkippedBeatResult {
  beat_id: string;
  skipped: 'no character';
  speaker: string;
  cache_hit: false;
}

export type SceneBeatResult = BeatResult | EmptyBeatResult | SkippedBeatResult;

export interface SceneManifest {
  title: string;
  style: string;
  shot_count: number;
  beat_count: number;
  cache_hits: number;
  shots: ShotResult[];
  beats: SceneBeatResult[];
  /**
   * What the derived files need of the scene (prompts, lines, beats' shots), so they are built
   * from the manifest alone. Written by `annot render scene`; not part of render_scene's result.
   */
  layout?: SceneLayout;
}

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
