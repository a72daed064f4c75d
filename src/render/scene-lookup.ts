import { NotFoundError } from '../errors/annot-error.js';
import type { Beat, Character, Environment, Scene, Shot } from './scene.js';

/**
 * Finding one unit of a scene and what it renders with, by the description's rules: a shot's
 * environment is the scene environment of that name (none if absent), its characters the scene
 * characters it names (unknown names left out); a beat's speaker is the character of that name.
 */

export class UnitNotFoundError extends NotFoundError {
  override readonly code = 'ANNOT_UNIT_NOT_FOUND';

  constructor(kind: 'shot' | 'beat', id: string, file: string, known: string[]) {
    super(`no ${kind} "${id}" in ${file}; its ${kind}s are: ${known.join(', ') || '(none)'}.`);
  }
}

function firstByName<T extends { name: string }>(items: T[], name: string): T | undefined {
  return items.find((item) => item.name === name);
}

export interface ShotInputs {
  shot: Shot;
  environment: Environment | null;
  characters: Character[];
}

export function shotInputs(scene: Scene, shot: Shot): ShotInputs {
  return {
    shot,
    environment: firstByName(scene.environments, shot.environment) ?? null,
    characters: shot.characters.flatMap((name) => firstByName(scene.characters, name) ?? []),
  };
}

export function findShot(scene: Scene, id: string, file: string): ShotInputs {
  const shot = scene.shots.find((s) => s.id === id);
  if (!shot) throw new UnitNotFoundError('shot', id, file, scene.shots.map((s) => s.id));
  return shotInputs(scene, shot);
}

export interface BeatInputs {
  beat: Beat;
  /** Undefined when the speaker is not a character of the scene (the beat is skipped). */
  speaker: Character | undefined;
}

export function beatInputs(scene: Scene, beat: Beat): BeatInputs {
  return { beat, speaker: firstByName(scene.characters, beat.speaker) };
}

export function findBeat(scene: Scene, id: string, file: string): BeatInputs {
  const beat = scene.beats.find((b) => b.id === id);
  if (!beat) throw new UnitNotFoundError('beat', id, file, scene.beats.map((b) => b.id));
  return beatInputs(scene, beat);
}
