import { AnnotError } from '../errors/annot-error.js';
import { errorCodeOf } from '../errors/error-code-of.js';
import type { ErrorCode } from '../errors/error-table.js';
import { withoutCredentials } from './credentials.js';
import { buildManifest, type SceneBeatResult, type SceneManifest } from './manifest.js';
import type { ShotResult } from './render-shot.js';
import type { Scene, SceneInput } from './scene.js';
import { finishedUnits, type FinishedUnit, type SceneUnitOptions, type UnitIdentity } from './scene-units.js';

/** Options of renderScene, iterRenderScene and runScene. */
export type RenderSceneOptions = SceneUnitOptions;

/**
 * One finished unit of a scene: which unit (kind, id, and index among the scene's shots or
 * beats) and its result. The id is the unit's own, also for an empty beat, whose result has none.
 */
export type SceneUnitResult =
  | (UnitIdentity & {
      /** A shot. */
      kind: 'shot';
      /** The shot's result. */
      result: ShotResult;
    })
  | (UnitIdentity & {
      /** A beat. */
      kind: 'beat';
      /** The beat's result (a skipped result for an empty beat or a speaker who is no character). */
      result: SceneBeatResult;
    });

/** One unit of a scene that failed. */
export interface UnitFailure extends UnitIdentity {
  /** What it failed with. */
  error: Error;
}

/** A failed unit as the manifest records it. */
export interface FailedUnitRecord {
  /** The kind of the unit. */
  unit: 'shot' | 'beat';
  /** The shot's or beat's id. */
  id: string;
  /** The error's message, with any credential taken out. */
  error: string;
  /** The error's code (ANNOT_INTERNAL for an error that is not annot's). */
  code: ErrorCode;
}

/** A scene's manifest, with the failed units when some failed. */
export type SceneRunManifest = SceneManifest & {
  /** The failed units, when some failed. */
  failures?: FailedUnitRecord[];
};

/** Everything a scene render ended with. */
export interface SceneRunOutcome {
  /** Built once, from the finished units in scene order; `failures` when some unit failed. */
  manifest: SceneRunManifest;
  /** In the order they finished. */
  finished: SceneUnitResult[];
  /** The units that failed, in the order they failed. */
  failures: UnitFailure[];
  /** Units that never started (after a failure without keepGoing, or an abort). */
  notStarted: number;
  /** When some unit failed: the error to throw, which carries this outcome. */
  error?: SceneRenderError;
}

/**
 * Renders a scene to its end without throwing for a failed unit: each unit is handed to
 * `onFinished` as it finishes, and the outcome lists every result and every failure, with the
 * manifest built once from them (a caller can still write it when some unit failed).
 */
export async function runScene(
  scene: Scene | SceneInput,
  options: RenderSceneOptions,
  onFinished: (unit: SceneUnitResult) => void | Promise<void> = () => {},
): Promise<SceneRunOutcome> {
  const run = new SceneRunRecord(scene);
  for await (const unit of finishedUnits(scene, options)) {
    const finished = run.record(unit);
    if (finished) await onFinished(finished);
  }
  return run.outcome();
}

/**
 * Yields each unit as it finishes, as `{kind, id, index, result}`; see finishedUnits for order.
 * When some unit failed, throws a SceneRenderError at the end, which carries the manifest of what
 * completed. The units start in the async context of the caller of this function.
 */
export function iterRenderScene(scene: Scene | SceneInput, options: RenderSceneOptions = {}): AsyncGenerator<SceneUnitResult, void, undefined> {
  return resultsOf(new SceneRunRecord(scene), finishedUnits(scene, options));
}

async function* resultsOf(run: SceneRunRecord, units: AsyncGenerator<FinishedUnit, void, undefined>): AsyncGenerator<SceneUnitResult, void, undefined> {
  for await (const unit of units) {
    const finished = run.record(unit);
    if (finished) yield finished;
  }
  const { error } = run.outcome();
  if (error) throw error;
}

/** Renders the whole scene and returns its manifest, shots and beats in scene order. */
export async function renderScene(scene: Scene | SceneInput, options: RenderSceneOptions = {}): Promise<SceneManifest> {
  const { manifest, error } = await runScene(scene, options);
  if (error) throw error;
  return manifest;
}

/** What a render has finished so far, and the outcome (with its one manifest) at the end. */
class SceneRunRecord {
  private readonly finished: SceneUnitResult[] = [];
  private readonly failures: UnitFailure[] = [];

  constructor(private readonly scene: Scene | SceneInput) {}

  /** Records a finished unit; the unit's result when it succeeded. */
  record(unit: FinishedUnit): SceneUnitResult | undefined {
    if ('error' in unit) {
      this.failures.push(unit);
      return undefined;
    }
    this.finished.push(unit);
    return unit;
  }

  outcome(): SceneRunOutcome {
    const inSceneOrder = [...this.finished].sort((a, b) => a.index - b.index);
    const manifest: SceneRunManifest = buildManifest(
      { title: this.scene.title ?? '', style: this.scene.style ?? '' },
      inSceneOrder.flatMap((unit) => (unit.kind === 'shot' ? [unit.result] : [])),
      inSceneOrder.flatMap((unit) => (unit.kind === 'beat' ? [unit.result] : [])),
    );
    const total = (this.scene.shots?.length ?? 0) + (this.scene.beats?.length ?? 0);
    const notStarted = total - this.finished.length - this.failures.length;
    if (this.failures.length === 0) return { manifest, finished: this.finished, failures: [], notStarted };
    manifest.failures = this.failures.map(({ kind, id, error }) => ({ unit: kind, id, error: withoutCredentials(error.message), code: errorCodeOf(error) }));
    const outcome: SceneRunOutcome = { manifest, finished: this.finished, failures: this.failures, notStarted };
    outcome.error = new SceneRenderError(outcome);
    return outcome;
  }
}

/**
 * A scene render in which at least one unit failed. It carries every result that completed
 * (they are cached too, so a re-run resumes) and every failure, plus the manifest of what
 * completed, so a caller can still write it.
 */
export class SceneRenderError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_SCENE_RENDER_FAILED';
  /** The manifest of the units that completed, with the failed ones in `failures`. */
  readonly manifest: SceneManifest & {
    /** The failed units. */
    failures: FailedUnitRecord[];
  };
  /** The units that failed, in the order they failed. */
  readonly failures: UnitFailure[];
  /** How many units never started (after a failure without keepGoing, or an abort). */
  readonly notStarted: number;

  constructor(outcome: Pick<SceneRunOutcome, 'manifest' | 'failures' | 'notStarted'>) {
    const [first] = outcome.failures;
    const others = outcome.failures.length > 1 ? ` (and ${outcome.failures.length - 1} more failed units)` : '';
    const skipped = outcome.notStarted > 0 ? `; ${outcome.notStarted} units were not started` : '';
    super(
      `render_scene: ${first.kind} ${first.id} failed: ${first.error.message}${others}${skipped}. ` +
        'Completed units are cached: fix the cause and run the render again to resume.',
      { cause: first.error },
    );
    this.manifest = { ...outcome.manifest, failures: outcome.manifest.failures ?? [] };
    this.failures = outcome.failures;
    this.notStarted = outcome.notStarted;
  }
}
