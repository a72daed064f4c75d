import { resolve } from 'node:path';
import { OutputClashError } from './errors.js';

/**
 * The sidecar subtitles of an animatic: its whole file name with `.vtt` added
 * (`build/lighthouse.mp4.vtt`). Not `lighthouse.vtt`, which is the name a user gives the scene's
 * own timeline (`render scene --timeline build/lighthouse.vtt`): the animatic would replace it.
 */
export function animaticSubtitlesPath(path: string): string {
  return `${path}.vtt`;
}

/**
 * Refuses, before anything is rendered, outputs of one render that would be written to the same
 * file, or over the scene file itself: each names the flag that asked for it. Paths compare as
 * resolved from the working directory.
 */
export function checkDistinctOutputs(sceneFile: string, outputs: ReadonlyArray<{ flag: string; path: string | undefined }>): void {
  const taken = new Map<string, string>([[resolve(sceneFile), 'the scene file']]);
  for (const { flag, path } of outputs) {
    if (path === undefined) continue;
    const earlier = taken.get(resolve(path));
    if (earlier !== undefined) throw new OutputClashError(path, earlier, flag);
    taken.set(resolve(path), flag);
  }
}
