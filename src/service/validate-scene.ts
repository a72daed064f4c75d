import { readFileSync } from 'node:fs';
import type { SceneWarning } from '../render/scene.js';

export interface SceneValidationSummary {
  readonly valid: true;
  readonly title: string;
  readonly characters: number;
  readonly environments: number;
  readonly shots: number;
  readonly beats: number;
  /** Not errors: what rendering will skip or leave out (unknown speakers, unknown characters). */
  readonly warnings: SceneWarning[];
}

/** Whether a file is a scene file rather than an annotation file: YAML, or JSON shaped like a scene. */
export function isSceneFile(path: string): boolean {
  if (/\.ya?ml$/i.test(path)) return true;
  if (!/\.json$/i.test(path)) return false;
  const head = readFileSync(path, 'utf8').slice(0, 65536);
  return /^\s*\{/.test(head) && /"(?:beats|shots)"\s*:/.test(head) && /"characters"\s*:/.test(head);
}

/**
 * Loads a scene file with the same checks rendering applies (a SceneFileError names the file, the
 * line and the field) and lists what rendering would skip.
 */
export async function validateScene(path: string): Promise<SceneValidationSummary> {
  // Imported here so `annot validate` on an annotation file loads no render code.
  const { loadSceneFile, sceneWarnings } = await import('../render/scene.js');
  const scene = await loadSceneFile(path);
  return {
    valid: true,
    title: scene.title,
    characters: scene.characters.length,
    environments: scene.environments.length,
    shots: scene.shots.length,
    beats: scene.beats.length,
    warnings: sceneWarnings(scene),
  };
}
