import { shotPrompt } from './render-shot.js';
import { beatInputs, shotInputs } from './scene-lookup.js';
import type { LayoutBeat, SceneLayout } from './manifest.js';
import type { Scene } from './scene.js';

/** The layout a written manifest keeps of its scene (see SceneLayout in manifest.ts). */
export type { LayoutBeat, LayoutShot, SceneLayout } from './manifest.js';

export function sceneLayout(scene: Scene): SceneLayout {
  const shots = scene.shots.map((shot) => {
    const { environment, characters } = shotInputs(scene, shot);
    return { shot_id: shot.id, prompt: shotPrompt(shot, environment ?? undefined, characters, scene.style) };
  });
  const shotIds = scene.shots.map((s) => s.id);
  const anyShotIds = scene.beats.some((b) => b.shot_id !== '');
  let current = shotIds[0] ?? '';
  const beats = scene.beats.map((beat, index) => {
    if (anyShotIds) current = beat.shot_id || current;
    else if (shotIds.length > 0) current = shotIds[Math.floor((index * shotIds.length) / scene.beats.length)];
    const out: LayoutBeat = {
      beat_id: beat.id,
      shot_id: current,
      speaker: beat.speaker,
      line: beat.line,
      action: beat.action,
      emotion: beat.emotion,
      duration_s: beat.duration_s,
    };
    if (!beatInputs(scene, beat).speaker) out.skipped = 'no character';
    else if (beat.line === '' && beat.action === '') out.skipped = 'empty beat (no line, no action)';
    return out;
  });
  return { shots, beats };
}
