import { withoutCredentials } from './credentials.js';

/**
 * Progress of a render, for the CLI's progress display. Provider events (`queued`, `progress`,
 * `log`, `done`, `error`) describe one model call; `cache_hit` is a unit or a model call served
 * from the cache. The renderer adds `unit` to every event so a display can show which unit a
 * model call belongs to.
 */
export interface RenderEvent {
  /** What happened. */
  type: 'queued' | 'progress' | 'log' | 'done' | 'error' | 'cache_hit' | 'notice';
  /** The unit the event belongs to. */
  unit?: {
    /** A shot or a beat. */
    kind: 'shot' | 'beat';
    /** Its id. */
    id: string;
  };
  /** The model called. */
  model_id?: string;
  /** The provider's id of the request. */
  request_id?: string;
  /** `queued`: requests ahead of this one. */
  queue_position?: number;
  /** `log`: one runner log line. `error`: the error message. `notice`: something the user should know (a cached unit re-rendered because its media are gone). */
  message?: string;
  /** `done`/`error`: time since submission. */
  elapsed_ms?: number;
  /** `cache_hit`: whether the whole unit (true) or one model call (false) was served. */
  whole_unit?: boolean;
  /** `cache_hit` of a whole unit: this machine's cache, or the shared one (`--remote-cache`). */
  tier?: 'local' | 'remote';
}

/** Told about render events as they happen. */
export type RenderEventListener = (event: RenderEvent) => void;

/**
 * Calls the listener and keeps going if it throws: a broken display must not fail a paid render.
 * A message leaves without any credential in it, whatever a provider put there.
 */
export function emitSafely(listener: RenderEventListener | undefined, event: RenderEvent): void {
  if (!listener) return;
  try {
    listener(event.message === undefined ? event : { ...event, message: withoutCredentials(event.message) });
  } catch {
    // deliberately ignored, see above
  }
}
