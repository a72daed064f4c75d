import { AsyncResource } from 'node:async_hooks';
import pLimit from 'p-limit';
import type { SceneBeatResult, SkippedBeatResult } from './manifest.js';
import { resolveProvider, type CommonRenderOptions } from './model-call.js';
import { renderBeat } from './render-beat.js';
import { renderShot, type ShotResult } from './render-shot.js';
import { toScene, type Scene, type SceneInput } from './scene.js';
import { UnitNotStartedError } from './unit-executor.js';

/** Options of a scene render. */
export interface SceneUnitOptions extends CommonRenderOptions {
  /** Tier of the speech model (default `balanced`). */
  ttsQuality?: string;
  /** Tier of the talking-video model (default `high`). */
  lipsyncQuality?: string;
  /** Tier of the still and clip models (default `balanced`). */
  shotQuality?: string;
  /** Make a clip from each shot's still (default false). */
  shotsAsVideo?: boolean;
  /** Units rendered at once; 1 or less is serial (all shots, then all beats, in scene order). */
  concurrency?: number;
  /** Render every other unit after a failure instead of stopping new work. */
  keepGoing?: boolean;
}

/** Which unit of a scene: its kind, its id, and its place among the scene's shots or beats. */
export interface UnitIdentity {
  /** A shot or a beat. */
  kind: 'shot' | 'beat';
  /** The shot's or beat's id. */
  id: string;
  /** 0-based index among the scene's shots (kind shot) or beats (kind beat). */
  index: number;
}

/** A unit that finished: its result, or the error it failed with. */
export type FinishedUnit =
  | (UnitIdentity & { kind: 'shot'; result: ShotResult })
  | (UnitIdentity & { kind: 'beat'; result: SceneBeatResult })
  | (UnitIdentity & { error: Error });

interface Unit extends UnitIdentity {
  run: () => Promise<ShotResult | SceneBeatResult>;
}

type InCallerContext = (fn: () => Promise<ShotResult | SceneBeatResult>) => Promise<ShotResult | SceneBeatResult>;

/** The units of a scene, shots first, each bound to its environment, characters and options. */
function sceneUnits(scene: Scene, options: SceneUnitOptions): Unit[] {
  const firstByName = <T extends { name: string }>(items: T[]) => {
    const map = new Map<string, T>();
    for (const item of items) if (!map.has(item.name)) map.set(item.name, item);
    return map;
  };
  const characters = firstByName(scene.characters);
  const environments = firstByName(scene.environments);
  // One provider for every unit: built here when the caller gave none.
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
 * Renders every unit of a scene and yields each as it finishes, with its id and index, whether
 * it succeeded or failed. Each unit starts in the async context of the code that called this
 * function (its bound credentials), even when the generator is pulled from another context: an
 * async generator's body otherwise runs in the context of whoever calls next(). With concurrency
 * 1 or less: serially, all shots then all beats in scene order. Above 1: that many at once, in
 * completion order. After a failure no new unit starts (unless keepGoing); units in flight
 * finish and are cached.
 */
export function finishedUnits(scene: Scene | SceneInput, options: SceneUnitOptions): AsyncGenerator<FinishedUnit, void, undefined> {
  const inCallerContext: InCallerContext = AsyncResource.bind((fn: () => Promise<ShotResult | SceneBeatResult>) => fn());
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const units = () => sceneUnits(toScene(scene as SceneInput), options);
  return concurrency <= 1 ? serialUnits(units, options, inCallerContext) : concurrentUnits(units, concurrency, options, inCallerContext);
}

async function runOne(unit: Unit, inCallerContext: InCallerContext): Promise<FinishedUnit> {
  const { kind, id, index } = unit;
  try {
    return { kind, id, index, result: await inCallerContext(unit.run) } as FinishedUnit;
  } catch (error) {
    return { kind, id, index, error: error as Error };
  }
}

async function* serialUnits(units: () => Unit[], options: SceneUnitOptions, inCallerContext: InCallerContext): AsyncGenerator<FinishedUnit, void, undefined> {
  for (const unit of units()) {
    const finished = await runOne(unit, inCallerContext);
    yield finished;
    if (('error' in finished && !options.keepGoing) || options.signal?.aborted) return;
  }
}

async function* concurrentUnits(
  units: () => Unit[],
  concurrency: number,
  options: SceneUnitOptions,
  inCallerContext: InCallerContext,
): AsyncGenerator<FinishedUnit, void, undefined> {
  const all = units();
  const done: FinishedUnit[] = [];
  let wake: (() => void) | undefined;
  let unsettled = all.length;
  let stopped = false;
  // rejectOnClear: units dropped from the queue settle (rejected) instead of hanging, so the
  // count of unsettled units reaches zero.
  const limit = pLimit({ concurrency, rejectOnClear: true });
  const stop = () => {
    if (stopped) return;
    stopped = true;
    limit.clearQueue();
    // Units handed to the render workers and not taken yet are not started either.
    void options.executor?.stopNew?.().catch(() => undefined);
  };
  // p-limit starts a queued unit as soon as a slot frees, which is before a .then() on the failed
  // unit's promise would run. So the stop decision is made inside the limited function, before it
  // returns and frees its slot, and every unit checks it first thing, before doing any work.
  const runUnit = async (unit: Unit): Promise<FinishedUnit | undefined> => {
    if (stopped || options.signal?.aborted) return undefined;
    const finished = await runOne(unit, inCallerContext);
    if ('error' in finished && finished.error instanceof UnitNotStartedError) return undefined;
    if (('error' in finished && !options.keepGoing) || options.signal?.aborted) stop();
    return finished;
  };
  const settle = (item: FinishedUnit | undefined) => {
    unsettled--;
    if (item) done.push(item);
    wake?.();
  };
  try {
    // A unit that was not started (undefined, or rejected by clearQueue) yields nothing.
    for (const unit of all) limit(runUnit, unit).then(settle, () => settle(undefined));
    while (unsettled > 0 || done.length > 0) {
      if (done.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      while (done.length > 0) yield done.shift()!;
    }
  } finally {
    stop();
  }
}
