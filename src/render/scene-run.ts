import { buildManifest, type SceneBeatResult, type SceneManifest } from './manifest.js';
import type { ShotResult } from './render-shot.js';
import { iterRenderScene, SceneRenderError, type RenderSceneOptions } from './render-scene.js';
import type { Scene } from './scene.js';

/** One finished unit as the CLI reports it: which unit, and its result. */
export interface FinishedUnit {
  unit: 'shot' | 'beat';
  id: string;
  result: ShotResult | SceneBeatResult;
}

export interface FailedUnit {
  unit: 'shot' | 'beat';
  id: string;
  error: string;
  code: string | null;
}

export interface SceneRunOutcome {
  /** Shots and beats in scene order; with `failures` when some unit failed. */
  manifest: SceneManifest & { failures?: FailedUnit[] };
  finished: FinishedUnit[];
  failures: FailedUnit[];
  /** Units that never started (after a failure without keepGoing, or an abort). */
  notStarted: number;
  /** The first failure, to rethrow with its message. */
  error?: SceneRenderError;
}

/**
 * Renders a scene through iterRenderScene, reporting each unit as it finishes with its id (the
 * empty-beat result of the description carries none: empty beats are identical, so they take
 * the ids of the scene's empty beats in order), and returns the manifest in scene order.
 * Failures do not throw: they are listed, so the caller can still write the manifest.
 */
export async function runScene(scene: Scene, options: RenderSceneOptions, onFinished: (unit: FinishedUnit) => void | Promise<void>): Promise<SceneRunOutcome> {
  const characters = new Set(scene.characters.map((c) => c.name));
  const emptyBeatIds = scene.beats.filter((b) => characters.has(b.speaker) && b.line === '' && b.action === '').map((b) => b.id);
  const finished: FinishedUnit[] = [];
  let error: SceneRenderError | undefined;
  try {
    for await (const [kind, result] of iterRenderScene(scene, options)) {
      const id = kind === 'shot' ? result.shot_id : 'beat_id' in result ? result.beat_id : (emptyBeatIds.shift() ?? '');
      const unit: FinishedUnit = { unit: kind, id, result };
      finished.push(unit);
      await onFinished(unit);
    }
  } catch (caught) {
    if (!(caught instanceof SceneRenderError)) throw caught;
    error = caught;
  }
  const failures: FailedUnit[] = (error?.failures ?? []).map((f) => ({
    unit: f.kind,
    id: f.id,
    error: f.error.message,
    code: (f.error as { code?: string }).code ?? null,
  }));
  const manifest: SceneRunOutcome['manifest'] = buildManifest(
    { title: scene.title, style: scene.style },
    inSceneOrder(scene.shots.map((s) => s.id), finished.filter((f) => f.unit === 'shot')) as ShotResult[],
    inSceneOrder(scene.beats.map((b) => b.id), finished.filter((f) => f.unit === 'beat')) as SceneBeatResult[],
  );
  if (failures.length > 0) manifest.failures = failures;
  return { manifest, finished, failures, notStarted: error?.notStarted ?? 0, error };
}

/** Results ordered as their ids appear in the scene (a repeated id takes its next place). */
function inSceneOrder(ids: string[], units: FinishedUnit[]): Array<ShotResult | SceneBeatResult> {
  const positions = new Map<string, number[]>();
  ids.forEach((id, index) => positions.set(id, [...(positions.get(id) ?? []), index]));
  const placed = units.map((u) => ({ index: positions.get(u.id)?.shift() ?? Number.MAX_SAFE_INTEGER, result: u.result }));
  return placed.sort((a, b) => a.index - b.index).map((p) => p.result);
}
