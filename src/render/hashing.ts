import { createHash } from 'node:crypto';
import { canonicalJson } from '../json/canonical-json.js';
import type { Beat, Character, Environment, Shot } from './scene.js';

/** SHA-256 (hex) of the canonical JSON of a value. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value, 'hashed')).digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The models a beat render resolves to; null where that step does not run. */
export interface BeatModels {
  /** The provider's name (LocalProvider's output is never served as fal's). */
  provider: string;
  /** The speech model, or null. */
  tts: string | null;
  /** The talking-video model, or null when the speaker has no face. */
  avatar: string | null;
}

/**
 * The hash of a beat render: everything that changes its output. The beat's content (line,
 * action, emotion, duration), the speaker's face and voice, the resolved speech and
 * talking-video models and the provider. Not the beat id nor the speaker's name: they do not
 * change the media, and a cached result is always returned with the current beat's id and
 * speaker.
 */
export function beatHash(beat: Beat, character: Character, models: BeatModels): string {
  return digestOf({
    unit: 'beat',
    line: beat.line,
    action: beat.action,
    emotion: beat.emotion,
    duration_s: beat.duration_s,
    face: character.reference_image_url,
    voice: character.voice
      ? { model_id: character.voice.model_id, reference_audio_url: character.voice.reference_audio_url, voice_id: character.voice.voice_id }
      : null,
    models,
  });
}

/** The models a shot render resolves to; null where that step does not run. */
export interface ShotModels {
  /** The provider's name. */
  provider: string;
  /** The still model. */
  image: string;
  /** The image-to-video model, or null for a still. */
  image_to_video: string | null;
}

/**
 * The hash of a shot render, with the description's `-v` (clip) / `-i` (still) suffix: the
 * shot, its environment, the characters in the prompt with their descriptions, the style, the
 * resolved still and clip models and the provider. The shot id is left out for the same reason
 * as the beat id.
 */
export function shotHash(
  shot: Shot,
  environment: Environment | undefined,
  characters: Character[],
  style: string,
  asVideo: boolean,
  models: ShotModels,
): string {
  const digest = digestOf({
    unit: 'shot',
    description: shot.description,
    framing: shot.framing,
    camera: shot.camera,
    characters: characters.map((c) => ({ name: c.name, description: c.description })),
    environment: environment
      ? { description: environment.description, time_of_day: environment.time_of_day, reference_image_url: environment.reference_image_url }
      : null,
    style,
    models,
  });
  return `${digest}${asVideo ? '-v' : '-i'}`;
}

/**
 * The key of one model call: provider, model id and the canonical arguments, where an argument
 * that is an earlier call's output is given as `sha256:<hex of its bytes>` (see keyArgs in
 * model-call.ts) so a fresh URL for identical bytes is still a hit.
 */
export function callKey(provider: string, modelId: string, keyArgs: Record<string, unknown>): string {
  return digestOf({ provider, model_id: modelId, args: keyArgs });
}
