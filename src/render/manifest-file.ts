import { existsSync, readFileSync } from 'node:fs';
import { InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import type { SceneManifest } from './manifest.js';

export class ManifestNotFoundError extends NotFoundError {
  override readonly code = 'ANNOT_MANIFEST_NOT_FOUND';

  constructor(path: string) {
    super(`no manifest at ${path}: write one with "annot render scene SCENE --manifest ${path}".`);
  }
}

export class ManifestFileInvalidError extends InvalidInputError {
  override readonly code = 'ANNOT_MANIFEST_INVALID';

  constructor(path: string, what: string) {
    super(`${path}: not a scene manifest (${what}).`);
  }
}

/**
 * Reads a scene manifest written by `annot render scene`, for the commands that build derived
 * files from it (animatic, timeline, storyboard). Checks the shape those need: title, shots and
 * beats arrays, and the layout (see SceneLayout).
 */
export function readManifestFile(path: string): SceneManifest {
  if (!existsSync(path)) throw new ManifestNotFoundError(path);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ManifestFileInvalidError(path, `not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ManifestFileInvalidError(path, 'expected a JSON object');
  const m = value as Record<string, unknown>;
  if (typeof m.title !== 'string') throw new ManifestFileInvalidError(path, 'field "title": expected a string');
  if (!Array.isArray(m.shots)) throw new ManifestFileInvalidError(path, 'field "shots": expected an array');
  if (!Array.isArray(m.beats)) throw new ManifestFileInvalidError(path, 'field "beats": expected an array');
  const layout = m.layout as Record<string, unknown> | undefined;
  if (layout === undefined) {
    throw new ManifestFileInvalidError(path, 'no "layout": it was written before annot recorded the scene\'s lines in the manifest; run "annot render scene" again to rewrite it');
  }
  if (typeof layout !== 'object' || layout === null || !Array.isArray(layout.shots) || !Array.isArray(layout.beats)) {
    throw new ManifestFileInvalidError(path, 'field "layout": expected an object with "shots" and "beats" arrays');
  }
  return m as unknown as SceneManifest;
}
