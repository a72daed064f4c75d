import { shotPrompt } from './render-shot.js';
import { beatInputs, shotInputs } from './scene-lookup.js';
import type { Scene } from './scene.js';

/**
 * What a written scene manifest keeps of the scene itself, so the derived files (timeline,
 * animatic, storyboard) are built from the manifest alone: each shot's prompt, and each beat's
 * shot (resolved), speaker, line, action and emotion, in scene order. A beat belongs to its
 * shot_id, else to the shot of the beat before (the first shot to begin with); when no beat
 * names a shot, the beats are shared out over the shots in order.
 */
export interface SceneLayout {
  shots: LayoutShot[];
  beats: LayoutBeat[];
}

export interface LayoutShot {
  shot_id: string;
  prompt: string;
}

export interface LayoutBeat {
  beat_id: string;
  /** The shot the beat is seen in ('' when the scene has no shots). */
  shot_id: string;
  speaker: string;
  line: string;
  action: string;
  emotion: string;
  /** The scene's duration_s: how long an action without a line holds the screen. */
  duration_s: number | null;
  /** Why the beat has no media: its speaker is not a character, or it is empty. */
  skipped?: string;
}

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
