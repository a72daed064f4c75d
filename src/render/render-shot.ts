import { canonicalJson } from '../json/canonical-json.js';
import { cachedUnit, keepAssets, type DurableAssetFields } from './assets.js';
import { modelIdFor, pickModel } from './catalog.js';
import { SHOT_NAMESPACE } from './cache.js';
import { RenderProducedNoAssetError } from './errors.js';
import { shotHash, type ShotModels } from './hashing.js';
import { hasDurations, unitDurations, type DurationFields } from './media-probe.js';
import { callModel, contentRef, resolveProvider, unitContext, type CommonRenderOptions } from './model-call.js';
import {
  toCharacter,
  toEnvironment,
  toShot,
  type Character,
  type CharacterInput,
  type Environment,
  type EnvironmentInput,
  type Shot,
  type ShotInput,
} from './scene.js';
import { keepUnit } from './unit-tiers.js';

/** Options of renderShot. */
export interface RenderShotOptions extends CommonRenderOptions {
  /** The environment the shot is set in, when it has one. */
  environment?: EnvironmentInput | null;
  /** The characters in the shot, in order. */
  characters?: CharacterInput[];
  /** The scene's style, added to the prompt. */
  style?: string;
  /** Make a clip from the still (default false). */
  asVideo?: boolean;
  /** Tier of the still and clip models (default `balanced`). */
  quality?: string;
  /** Still model override (a fal endpoint id or a catalog alias). */
  imageModelId?: string;
  /** Image-to-video model override. */
  imageToVideoModelId?: string;
}

/** The result of a shot rendered as a still. */
export interface StillShotResult extends DurableAssetFields {
  /** The still's URL. */
  url: string;
  /** Always `image`. */
  kind: 'image';
  /** The content hash of the shot's render (its cache key). */
  hash: string;
  /** The shot's id. */
  shot_id: string;
  /** Whether the result came from the cache. */
  cache_hit: boolean;
}

/** The result of a shot rendered as a clip made from its still. */
export interface ClipShotResult extends DurableAssetFields, DurationFields {
  /** The clip url, else the still url. */
  url: string;
  /** Always `video`. */
  kind: 'video';
  /** The still's URL. */
  still_url: string;
  /** The clip's URL, or empty when the clip model gave none. */
  video_url: string;
  /** The content hash of the shot's render (its cache key). */
  hash: string;
  /** The shot's id. */
  shot_id: string;
  /** Whether the result came from the cache. */
  cache_hit: boolean;
}

/** The result of a shot: a still or a clip. */
export type ShotResult = StillShotResult | ClipShotResult;

/** Fal's preset for 1024×576 stills. */
export const STILL_IMAGE_SIZE = 'landscape_16_9';

/** The still prompt: the description's parts, joined by ` | `. */
export function shotPrompt(shot: Shot, environment: Environment | undefined, characters: Character[], style: string): string {
  const parts = [shot.description || 'shot', `framing: ${shot.framing}`];
  if (environment) {
    parts.push(`location: ${environment.description}`);
    if (environment.time_of_day) parts.push(`time: ${environment.time_of_day}`);
  }
  for (const c of characters) if (c.description) parts.push(`${c.name}: ${c.description}`);
  if (shot.camera) parts.push(`camera: ${shot.camera}`);
  if (style) parts.push(`style: ${style}`);
  return parts.join(' | ');
}

export function shotModels(options: RenderShotOptions): ShotModels {
  const quality = options.quality ?? 'balanced';
  return {
    provider: resolveProvider(options).name,
    image: options.imageModelId ? modelIdFor(options.imageModelId) : pickModel('image', quality).id,
    image_to_video: options.asVideo
      ? options.imageToVideoModelId
        ? modelIdFor(options.imageToVideoModelId)
        : pickModel('image_to_video', quality).id
      : null,
  };
}

/** The unit key of a shot: the (hash, quality) pair of the description. */
export function shotUnitKey(hash: string, quality: string): string {
  return canonicalJson({ hash, quality });
}

/** A still of the shot, or a short clip made from that still. */
export async function renderShot(shotInput: ShotInput, options: RenderShotOptions = {}): Promise<ShotResult> {
  const shot = toShot(shotInput);
  const environment = options.environment ? toEnvironment(options.environment) : undefined;
  const characters = (options.characters ?? []).map(toCharacter);
  const style = options.style ?? '';
  const asVideo = options.asVideo ?? false;
  const quality = options.quality ?? 'balanced';
  const provider = resolveProvider(options);
  let ctx = unitContext({ ...options, provider }, { kind: 'shot', id: shot.id });
  const models = shotModels({ ...options, provider });
  const hash = shotHash(shot, environment, characters, style, asVideo, models);
  const unitKey = shotUnitKey(hash, quality);

  const cached = await cachedUnit(ctx, SHOT_NAMESPACE, unitKey, `shot ${shot.id}`);
  ctx = cached.ctx;
  if (cached.hit && ctx.assets && !hasDurations(cached.hit)) {
    // Entries cached before durations were recorded get them now, once.
    Object.assign(cached.hit, await unitDurations(cached.hit));
    ctx.cache.putUnit(SHOT_NAMESPACE, unitKey, cached.hit, `shot:${shot.id}`);
  }
  if (cached.hit) return { ...(cached.hit as unknown as ShotResult), hash, shot_id: shot.id, cache_hit: true };
  if (ctx.executor) {
    const spec = {
      kind: 'shot',
      shot,
      environment: environment ?? null,
      characters,
      style,
      as_video: asVideo,
      quality,
      image_model: options.imageModelId ?? null,
      image_to_video_model: options.imageToVideoModelId ?? null,
    } as const;
    const done = await ctx.executor.render(spec, ctx);
    const result = { ...(done.result as unknown as ShotResult), hash, shot_id: shot.id, cache_hit: done.cacheHit };
    ctx.cache.putUnit(SHOT_NAMESPACE, unitKey, { ...result, cache_hit: false }, `shot:${shot.id}`);
    return result;
  }

  const prompt = shotPrompt(shot, environment, characters, style);
  const stills = await callModel(ctx, models.image, { prompt, image_size: STILL_IMAGE_SIZE });
  if (stills.length === 0) {
    throw new RenderProducedNoAssetError(`render_shot: image generation produced no asset for ${shot.id}`, 'shot', shot.id);
  }
  const stillUrl = stills[0].url;
  let result: ShotResult;
  if (!models.image_to_video) {
    result = { url: stillUrl, kind: 'image', hash, shot_id: shot.id, cache_hit: false };
  } else {
    const args: Record<string, unknown> = { image_url: stillUrl };
    if (shot.camera) args.prompt = shot.camera;
    const stillRef = await contentRef(ctx, stillUrl);
    const clips = await callModel(ctx, models.image_to_video, args, { image_url: stillRef });
    const videoUrl = clips[0]?.url ?? '';
    result = { url: videoUrl || stillUrl, kind: 'video', still_url: stillUrl, video_url: videoUrl, hash, shot_id: shot.id, cache_hit: false };
  }
  if (ctx.assets) {
    await keepAssets(ctx, result as unknown as Record<string, unknown>);
    Object.assign(result, await unitDurations(result as unknown as Record<string, unknown>));
  }
  const kept = (await keepUnit(ctx, SHOT_NAMESPACE, unitKey, result as unknown as Record<string, unknown>, `shot:${shot.id}`)) as unknown as ShotResult;
  return kept === result ? result : { ...kept, hash, shot_id: shot.id, cache_hit: false };
}
