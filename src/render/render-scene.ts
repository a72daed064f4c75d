import { AsyncResource } from 'node:async_hooks';
import pLimit from 'p-limit';
import { AnnotError } from '../errors/annot-error.js';
import { buildManifest, type SceneBeatResult, type SceneManifest, type SkippedBeatResult } from './manifest.js';
import { resolveProvider, type CommonRenderOptions } from './model-call.js';
import { renderBeat } from './render-beat.js';
import { renderShot, type ShotResult } from './render-shot.js';
import { toScene, type Scene, type SceneInput } from './scene.js';

export interface RenderSceneOptions extends CommonRenderOptions {
  ttsQuality?: string;
  lipsyncQuality?: string;
  shotQuality?: string;
  shotsAsVideo?: boolean;
  /** Units rendered at once; 1 or less is serial (all shots, then all beats, in scene order). */
  concurrency?: number;
  /** Render every other unit after a failure instead of stopping new work. */
  keepGoing?: boolean;
}

export type SceneUnitResult = ['shot', ShotResult] | ['beat', SceneBeatResult];

interface Unit {
  kind: 'shot' | 'beat';
  id: string;
  index: number;
  run: () => Promise<ShotResult | SceneBeatResult>;
}

interface Finished {
  unit: Unit;
  result?: ShotResult | SceneBeatResult;
  error?: Error;
}

/** The units of a scene, shots first, each bound to its environment, characters and options. */
function sceneUnits(scene: Scene, options: RenderSceneOptions): Unit[] {
  const firstByName = <T extends { name: string }>(items: T[]) => {
    const map = new Map<string, T>();
    for (const item of items) if (!map.has(item.name)) map.set(item.name, item);
    return map;
  };
  const characters = firstByName(scene.characters);
  const environments = firstByName(scene.environments);
  const common: CommonRenderOptions = { ...options, provider: resolveProvider(options) };
  const shots: Unit[] = scene.shots.map((shot, index) => ({
    kind: 'shot',
    id: shot.id,
    index,
    run: () =>
      renderShot(shot, {
        ...common,
        environment: environments.get(shot.environment) ?? null,
        characters: shot.characters.flatMap((name) => characters.get(name) ?? []),
        style: scene.style,
        asVideo: options.shotsAsVideo ?? false,
        quality: options.shotQuality ?? 'balanced',
      }),
  }));
  const beats: Unit[] = scene.beats.map((beat, index) => ({
    kind: 'beat',
    id: beat.id,
    index,
    run: async () => {
      const speaker = characters.get(beat.speaker);
      if (!speaker) {
        const skipped: SkippedBeatResult = { beat_id: beat.id, skipped: 'no character', speaker: beat.speaker, cache_hit: false };
        return skipped;
      }
      return renderBeat(beat, speaker, { ...common, ttsQuality: options.ttsQuality, lipsyncQuality: options.lipsyncQuality });
    },
  }));
  return [...shots, ...beats];
}

/**
 * Renders every unit and yields each as it finishes. With concurrency 1 or less: serially, all
 * shots then all beats in scene order. Above 1: that many at once, in completion order.
 * After a failure no new unit starts (unless keepGoing); units in flight finish and are cached;
 * then a SceneRenderError carries every completed result and every failure.
 */
async function* finishedUnits(
  sceneInput: Scene | SceneInput,
  options: RenderSceneOptions,
  inCallerContext: (fn: () => Promise<ShotResult | SceneBeatResult>) => Promise<ShotResult | SceneBeatResult>,
): AsyncGenerator<Finished, void, undefined> {
  const units = sceneUnits(toScene(sceneInput as SceneInput), options);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  if (concurrency <= 1) {
    for (const unit of units) {
      try {
        yield { unit, result: await inCallerContext(unit.run) };
      } catch (error) {
        yield { unit, error: error as Error };
        if (!options.keepGoing) return;
      }
      if (options.signal?.aborted) return;
    }
    return;
  }
  const done: Finished[] = [];
  let wake: (() => void) | undefined;
  let unsettled = units.length;
  let stopped = false;
  // rejectOnClear: units dropped from the queue settle (rejected) instead of hanging, so the
  // count of unsettled units reaches zero.
  const limit = pLimit({ concurrency, rejectOnClear: true });
  const stop = () => {
    stopped = true;
    limit.clearQueue();
  };
  // p-limit starts a queued unit as soon as a slot frees, which is before a .then() on the failed
  // unit's promise would run. So the stop decision is made inside the limited function, before it
  // returns and frees its slot, and every unit checks it first thing, before doing any work.
  const runUnit = async (unit: Unit): Promise<Finished | undefined> => {
    if (stopped || options.signal?.aborted) return undefined;
    try {
      return { unit, result: await inCallerContext(unit.run) };
    } catch (error) {
      if (!options.keepGoing) stop();
      return { unit, error: error as Error };
    } finally {
      if (options.signal?.aborted) stop();
    }
  };
  const settle = (item: Finished | undefined) => {
    unsettled--;
    if (item) done.push(item);
    wake?.();
  };
  try {
    // A unit that was not started (undefined, or rejected by clearQueue) yields nothing.
    for (const unit of units) limit(runUnit, unit).then(settle, () => settle(undefined));
    while (unsettled > 0 || done.length > 0) {
      if (done.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      while (done.length > 0) yield done.shift()!;
    }
  } finally {
    stop();
  }
}

/**
 * The render's units, each started in the async context of the code that asked for the render
 * (its bound credentials), even when the generator is pulled from another context: an async
 * generator's body otherwise runs in the context of whoever calls next().
 */
function renderedUnits(scene: Scene | SceneInput, options: RenderSceneOptions, collect: (item: Finished) => void) {
  const inCallerContext = AsyncResource.bind((fn: () => Promise<ShotResult | SceneBeatResult>) => fn());
  return collectedUnits(finishedUnits(scene, options, inCallerContext), collect);
}

async function* collectedUnits(units: AsyncGenerator<Finished, void, undefined>, collect: (item: Finished) => void) {
  const failures: UnitFailure[] = [];
  for await (const item of units) {
    collect(item);
    if (item.error) failures.push({ kind: item.unit.kind, id: item.unit.id, error: item.error });
    else yield [item.unit.kind, item.result] as SceneUnitResult;
  }
  return { failures };
}

/** Yields `[kind, result]` as each unit finishes; see finishedUnits for order and failures. */
export function iterRenderScene(scene: Scene | SceneInput, options: RenderSceneOptions = {}): AsyncGenerator<SceneUnitResult, void, undefined> {
  const completed: Finished[] = [];
  return yieldedResults(scene, renderedUnits(scene, options, (item) => completed.push(item)), completed, options);
}

async function* yieldedResults(
  scene: Scene | SceneInput,
  run: ReturnType<typeof renderedUnits>,
  completed: Finished[],
  options: RenderSceneOptions,
): AsyncGenerator<SceneUnitResult, void, undefined> {
  for (;;) {
    const step = await run.next();
    if (step.done) {
      throwIfFailed(scene, completed, step.value.failures, options);
      return;
    }
    yield step.value;
  }
}

/** Renders the whole scene and returns its manifest, shots and beats in scene order. */
export async function renderScene(scene: Scene | SceneInput, options: RenderSceneOptions = {}): Promise<SceneManifest> {
  const completed: Finished[] = [];
  const run = renderedUnits(scene, options, (item) => completed.push(item));
  for (;;) {
    const step = await run.next();
    if (step.done) {
      throwIfFailed(scene, completed, step.value.failures, options);
      return manifestOf(scene, completed);
    }
  }
}

function manifestOf(scene: Scene | SceneInput, completed: Finished[]): SceneManifest {
  const ok = completed.filter((f) => !f.error).sort((a, b) => a.unit.index - b.unit.index);
  const shots = ok.filter((f) => f.unit.kind === 'shot').map((f) => f.result as ShotResult);
  const beats = ok.filter((f) => f.unit.kind === 'beat').map((f) => f.result as SceneBeatResult);
  return buildManifest({ title: scene.title, style: scene.style ?? '' }, shots, beats);
}

function throwIfFailed(scene: Scene | SceneInput, completed: Finished[], failures: UnitFailure[], _options: RenderSceneOptions): void {
  if (failures.length === 0) return;
  const total = (scene.shots?.length ?? 0) + (scene.beats?.length ?? 0);
  const manifest = {
    ...manifestOf(scene, completed),
    failures: failures.map((f) => ({ kind: f.kind, id: f.id, error: f.error.message, code: (f.error as { code?: string }).code ?? null })),
  };
  throw new SceneRenderError(manifest, failures, total - completed.length);
}

/** One unit of a scene that failed. */
export interface UnitFailure {
  kind: 'shot' | 'beat';
  id: string;
  error: Error;
}

/**
 * A scene render in which at least one unit failed. It carries every result that completed
 * (they are cached too, so a re-run resumes) and every failure, plus the manifest of what
 * completed, so a caller can still write it.
 */
export class SceneRenderError extends AnnotError {
  readonly code = 'ANNOT_SCENE_RENDER_FAILED';

  constructor(
    readonly manifest: SceneManifest & { failures: Array<{ kind: 'shot' | 'beat'; id: string; error: string; code: string | null }> },
    readonly failures: UnitFailure[],
    readonly notStarted: number,
  ) {
    const first = failures[0];
    const others = failures.length > 1 ? ` (and ${failures.length - 1} more failed units)` : '';
    const skipped = notStarted > 0 ? `; ${notStarted} units were not started` : '';
    super(
      `render_scene: ${first.kind} ${first.id} failed: ${first.error.message}${others}${skipped}. ` +
        'Completed units are cached: fix the cause and run the render again to resume.',
      { cause: first.error },
    );
  }
}
