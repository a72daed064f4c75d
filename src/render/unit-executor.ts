import type { RenderEvent } from './events.js';
import type { LocalMediaStore } from './remote/remote-cache.js';
import type { Beat, Character, Environment, Shot } from './scene.js';

/**
 * One unit as a render worker needs it, self-contained: the shot or beat with everything its
 * hash depends on, and the options that choose its models. It holds no key and no local path.
 */
export type UnitSpec =
  | {
      /** A shot: its still, or its clip. */
      kind: 'shot';
      /** The shot as the scene file gives it. */
      shot: Shot;
      /** The environment the shot names, or null when it names none. */
      environment: Environment | null;
      /** The characters the shot names, in its order. */
      characters: Character[];
      /** The scene's style, part of the image prompt. */
      style: string;
      /** Whether the still is animated into a clip (the render's `asVideo`). */
      as_video: boolean;
      /** The quality tier the shot's models are picked from. */
      quality: string;
      /** An image model chosen by id instead of by tier, or null. */
      image_model: string | null;
      /** An image-to-video model chosen by id instead of by tier, or null. */
      image_to_video_model: string | null;
    }
  | {
      /** A beat: a character's line, spoken. */
      kind: 'beat';
      /** The beat as the scene file gives it. */
      beat: Beat;
      /** The character who speaks it, with their voice. */
      speaker: Character;
      /** The quality tier of the speech model, or null for the render's default. */
      tts_quality: string | null;
      /** The quality tier of the lip-sync model, or null for the render's default. */
      lipsync_quality: string | null;
      /** A speech model chosen by id instead of by tier, or null. */
      tts_model: string | null;
      /** An avatar (lip-sync) model chosen by id instead of by tier, or null. */
      avatar_model: string | null;
    };

/** What an executor hands back: the unit's result in local form (its media in this machine's store), and whether it cost nothing new. */
export interface ExecutedUnit {
  /** The unit's result as renderShot or renderBeat gives it, its media paths and `file:` URLs on this machine; the caller adds the unit's hash and id. */
  result: Record<string, unknown>;
  /** Whether the unit came from a cache where it ran (nothing was paid for it). */
  cacheHit: boolean;
}

/** What an executor is given of the unit's render: whether to bypass caches, its events, its Ctrl-C, the local media store. */
export interface ExecutorContext {
  /** The render's `force`: the unit is rendered again even where a cache holds it. */
  force: boolean;
  /** The render's Ctrl-C: the executor stops the unit (where it can) and rejects with RenderAbortedError. */
  signal?: AbortSignal;
  /** Where the unit's render events go (model calls, progress, notices), as if it rendered here. */
  emit: (event: RenderEvent) => void;
  /** This machine's media store, where the executor puts the unit's media so that its result's paths are local. */
  assets?: LocalMediaStore;
}

/**
 * Renders a unit that neither this machine's cache nor the shared one holds, somewhere other than
 * this process: the render workers (farm/farm-client.ts). The unit's own render function still
 * looks up the caches first and records the result here afterwards. A render takes one as its
 * `executor` option.
 */
export interface UnitExecutor {
  /** Renders one unit (or finds it in the caches where it runs) and hands its result back with its media on this machine. */
  render(spec: UnitSpec, ctx: ExecutorContext): Promise<ExecutedUnit>;
  /** After a failure (without keep-going): units not started yet are withdrawn; their render rejects with UnitNotStartedError. */
  stopNew?(): Promise<void>;
}

/** A unit the executor withdrew before it started (after another unit failed): counted as not started, not as failed. */
export class UnitNotStartedError extends Error {
  constructor() {
    super('withdrawn before it started');
    this.name = 'UnitNotStartedError';
  }
}
