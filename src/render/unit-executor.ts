import type { RenderEvent } from './events.js';
import type { LocalMediaStore } from './remote/remote-cache.js';
import type { Beat, Character, Environment, Shot } from './scene.js';

/**
 * One unit as a render worker needs it, self-contained: the shot or beat with everything its
 * hash depends on, and the options that choose its models. It holds no key and no local path.
 */
export type UnitSpec =
  | {
      kind: 'shot';
      shot: Shot;
      environment: Environment | null;
      characters: Character[];
      style: string;
      as_video: boolean;
      quality: string;
      image_model: string | null;
      image_to_video_model: string | null;
    }
  | {
      kind: 'beat';
      beat: Beat;
      speaker: Character;
      tts_quality: string | null;
      lipsync_quality: string | null;
      tts_model: string | null;
      avatar_model: string | null;
    };

/** What an executor hands back: the unit's result in local form (its media in this machine's store), and whether it cost nothing new. */
export interface ExecutedUnit {
  result: Record<string, unknown>;
  cacheHit: boolean;
}

/**
 * Renders a unit that neither this machine's cache nor the shared one holds, somewhere other than
 * this process: the render workers (farm/farm-client.ts). The unit's own render function still
 * looks up the caches first and records the result here afterwards.
 */
/** What an executor is given of the unit's render: whether to bypass caches, its events, its Ctrl-C, the local media store. */
export interface ExecutorContext {
  force: boolean;
  signal?: AbortSignal;
  emit: (event: RenderEvent) => void;
  assets?: LocalMediaStore;
}

export interface UnitExecutor {
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
