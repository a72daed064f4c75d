import { ACTION_ONLY_SKIP, isActionOnly } from './action-only.js';
import { BEAT_NAMESPACE, openRenderCache, SHOT_NAMESPACE } from './cache.js';
import { MODEL_RECORDS } from './models.js';
import type { ModelPrice } from './models.js';
import { beatHash, shotHash } from './hashing.js';
import type { CommonRenderOptions } from './model-call.js';
import { beatModels } from './render-beat.js';
import type { RenderSceneOptions } from './render-scene.js';
import { shotModels, shotUnitKey } from './render-shot.js';
import { beatInputs, shotInputs } from './scene-lookup.js';
import type { Scene } from './scene.js';
import { SECONDS_PER_WORD, wordCount } from './local/wav.js';
import type { RemoteCache } from './remote/remote-cache.js';
import { unitAddress } from './remote/unit-entry.js';

/** Seconds a clip is assumed to last when pricing it (fal's image-to-video models default to 5-6 s). */
export const ASSUMED_CLIP_SECONDS = 5;
/** Still size the renderer asks for (landscape_16_9). */
const STILL_MEGAPIXELS = (1024 * 576) / 1e6;

export interface PlannedCall {
  model_id: string;
  step: 'tts' | 'avatar' | 'image' | 'image_to_video';
  /** Estimated cost in USD; null when the catalog has no price for the model (unknown, not free). */
  estimated_usd: number | null;
  /** How the estimate was made. */
  basis: string;
}

export interface PlannedUnit {
  unit: 'shot' | 'beat';
  id: string;
  /**
   * `cached`: served from this machine's cache, nothing called. `remote`: pulled from the shared
   * cache (--remote-cache), nothing called. `render`: the calls below will be made. `skipped`:
   * nothing to render.
   */
  status: 'cached' | 'remote' | 'render' | 'skipped';
  skipped?: string;
  hash: string;
  calls: PlannedCall[];
  /** Sum of the calls when every price is known; null when one is unknown. 0 for cached and skipped units. */
  estimated_usd: number | null;
}

export interface ScenePlan {
  title: string;
  provider: string;
  units: PlannedUnit[];
  to_render: number;
  cached: number;
  skipped: number;
  /** Sum of the known estimates. */
  known_usd: number;
  /** Calls whose price is unknown: the total is at least known_usd. */
  unknown_price_calls: number;
  /** With a shared cache: its URL, how many units it holds of those to render, or why it could not say. */
  remote_cache?: { url: string; holds: number; unavailable?: string };
}

/**
 * The dry run of a scene render: every unit, whether it is cached, the models it would call and
 * the estimated cost from the catalog prices. Reads the cache; calls nothing, spends nothing.
 */
export function planScene(scene: Scene, options: RenderSceneOptions & { provider: NonNullable<CommonRenderOptions['provider']> }): ScenePlan {
  const cache = openRenderCache(options.cacheDir);
  const provider = options.provider;
  const free = provider.name !== 'fal';
  const units: PlannedUnit[] = [];
  const quality = options.shotQuality ?? 'balanced';
  for (const shot of scene.shots) {
    const { environment, characters } = shotInputs(scene, shot);
    const asVideo = options.shotsAsVideo ?? false;
    const models = shotModels({ provider, asVideo, quality });
    const hash = shotHash(shot, environment ?? undefined, characters, scene.style, asVideo, models);
    const cached = !options.force && cache.getUnit(SHOT_NAMESPACE, shotUnitKey(hash, quality)) !== undefined;
    const calls: PlannedCall[] = [];
    if (!cached) {
      calls.push(priced('image', models.image, free, 1, 0));
      if (models.image_to_video) calls.push(priced('image_to_video', models.image_to_video, free, ASSUMED_CLIP_SECONDS, 0));
    }
    units.push(unit('shot', shot.id, cached ? 'cached' : 'render', hash, calls));
  }
  for (const beat of scene.beats) {
    const { speaker } = beatInputs(scene, beat);
    if (!speaker) {
      units.push({ ...unit('beat', beat.id, 'skipped', '', []), skipped: 'no character' });
      continue;
    }
    if (beat.line === '' && beat.action === '') {
      units.push({ ...unit('beat', beat.id, 'skipped', '', []), skipped: 'empty beat (no line, no action)' });
      continue;
    }
    if (isActionOnly(beat)) {
      units.push({ ...unit('beat', beat.id, 'skipped', '', []), skipped: ACTION_ONLY_SKIP });
      continue;
    }
    const models = beatModels(beat, speaker, { provider, ttsQuality: options.ttsQuality, lipsyncQuality: options.lipsyncQuality });
    const hash = beatHash(beat, speaker, models);
    const cached = !options.force && cache.getUnit(BEAT_NAMESPACE, hash) !== undefined;
    const calls: PlannedCall[] = [];
    const seconds = beat.duration_s ?? Math.max(1, wordCount(beat.line)) * SECONDS_PER_WORD;
    if (!cached && models.tts) calls.push(priced('tts', models.tts, free, seconds, beat.line.length));
    if (!cached && models.avatar) calls.push(priced('avatar', models.avatar, free, seconds, 0));
    units.push(unit('beat', beat.id, cached ? 'cached' : 'render', hash, calls));
  }
  const allCalls = units.flatMap((u) => u.calls);
  return {
    title: scene.title,
    provider: provider.name,
    units,
    to_render: units.filter((u) => u.status === 'render').length,
    cached: units.filter((u) => u.status === 'cached').length,
    skipped: units.filter((u) => u.status === 'skipped').length,
    known_usd: round(allCalls.reduce((sum, c) => sum + (c.estimated_usd ?? 0), 0)),
    unknown_price_calls: allCalls.filter((c) => c.estimated_usd === null).length,
  };
}

/**
 * The plan with the shared cache asked about every unit this machine would render: a unit it
 * holds (entry valid, every blob present) is `remote`, costs nothing and calls nothing. Only
 * lookups by name, no listing and no download.
 */
export async function withRemoteHoldings(plan: ScenePlan, options: { provider: { name: string; origin?: string }; shotQuality?: string; remoteCache: RemoteCache }): Promise<ScenePlan> {
  const { remoteCache } = options;
  const quality = options.shotQuality ?? 'balanced';
  const notices: string[] = [];
  const emit = (event: { message?: string }) => event.message && notices.push(event.message);
  const units = await Promise.all(
    plan.units.map(async (u) => {
      if (u.status !== 'render') return u;
      const address = u.unit === 'shot' ? unitAddress(options.provider, SHOT_NAMESPACE, shotUnitKey(u.hash, quality)) : unitAddress(options.provider, BEAT_NAMESPACE, u.hash);
      return (await remoteCache.holds(address, { emit })) ? { ...unit(u.unit, u.id, 'remote', u.hash, []), calls: [] } : u;
    }),
  );
  const allCalls = units.flatMap((u) => u.calls);
  const holds = units.filter((u) => u.status === 'remote').length;
  return {
    ...plan,
    units,
    to_render: units.filter((u) => u.status === 'render').length,
    known_usd: round(allCalls.reduce((sum, c) => sum + (c.estimated_usd ?? 0), 0)),
    unknown_price_calls: allCalls.filter((c) => c.estimated_usd === null).length,
    remote_cache: { url: remoteCache.url, holds, ...(remoteCache.unavailableBecause ? { unavailable: remoteCache.unavailableBecause } : {}) },
  };
}

function unit(kind: 'shot' | 'beat', id: string, status: PlannedUnit['status'], hash: string, calls: PlannedCall[]): PlannedUnit {
  const unknown = calls.some((c) => c.estimated_usd === null);
  return { unit: kind, id, status, hash, calls, estimated_usd: unknown ? null : round(calls.reduce((s, c) => s + (c.estimated_usd ?? 0), 0)) };
}

/** The estimate of one call from the model's catalog price; `seconds`/`characters` size the work. */
function priced(step: PlannedCall['step'], modelId: string, free: boolean, seconds: number, characters: number): PlannedCall {
  if (free) return { model_id: modelId, step, estimated_usd: 0, basis: 'local preview (free)' };
  const record = MODEL_RECORDS.find((r) => r.id === modelId);
  const price: ModelPrice | null = record?.price ?? null;
  if (!price) return { model_id: modelId, step, estimated_usd: null, basis: record ? 'no price in the catalog' : 'not in the catalog' };
  switch (price.kind) {
    case 'per_call':
    case 'per_image':
      return { model_id: modelId, step, estimated_usd: round(price.amount), basis: `${price.amount} ${price.currency} ${price.kind.replace('_', ' ')}` };
    case 'per_megapixel':
      return { model_id: modelId, step, estimated_usd: round(price.amount * STILL_MEGAPIXELS), basis: `${price.amount} ${price.currency} per megapixel × ${STILL_MEGAPIXELS.toFixed(2)} MP` };
    case 'per_second':
      return { model_id: modelId, step, estimated_usd: round(price.amount * seconds), basis: `${price.amount} ${price.currency} per second × ~${seconds.toFixed(1)} s` };
    case 'per_token':
      return { model_id: modelId, step, estimated_usd: round(price.amount * characters), basis: `${price.amount} ${price.currency} per character × ${characters}` };
  }
}

function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
