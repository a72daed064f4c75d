import { cachedUnit, keepAssets, type DurableAssetFields } from './assets.js';
import { modelIdFor, pickModel } from './catalog.js';
import { BEAT_NAMESPACE } from './cache.js';
import { RenderProducedNoAssetError } from './errors.js';
import { beatHash, type BeatModels } from './hashing.js';
import { hasDurations, unitDurations, type DurationFields } from './media-probe.js';
import { callModel, contentRef, resolveProvider, unitContext, type CommonRenderOptions } from './model-call.js';
import { toBeat, toCharacter, type Beat, type BeatInput, type Character, type CharacterInput } from './scene.js';
import { keepUnit } from './unit-tiers.js';

/** Options of renderBeat. */
export interface RenderBeatOptions extends CommonRenderOptions {
  /** Tier of the speech model (default `balanced`). */
  ttsQuality?: string;
  /** Tier of the talking-video model (default `high`). */
  lipsyncQuality?: string;
  /** Speech model override (a fal endpoint id or a catalog alias). */
  ttsModelId?: string;
  /** Talking-video model override. */
  avatarModelId?: string;
}

/** The result of a rendered beat: its speech, and its talking video when the speaker has a face. */
export interface BeatResult extends DurableAssetFields, DurationFields {
  /** The video url, else the audio url. */
  url: string;
  /** The talking video's URL, or empty when there is none (no face, or the model gave none). */
  video_url: string;
  /** The speech's URL. */
  audio_url: string;
  /** The content hash of the beat's render (its cache key). */
  hash: string;
  /** The beat's id. */
  beat_id: string;
  /** The speaker's name. */
  speaker: string;
  /** Whether the result came from the cache. */
  cache_hit: boolean;
}

/** The result of an empty beat (no line, no action): nothing is rendered. */
export interface EmptyBeatResult {
  /** Always empty. */
  url: '';
  /** Always false. */
  cache_hit: false;
  /** Always empty. */
  hash: '';
  /** Why nothing was rendered. */
  skipped: string;
}

export const EMPTY_BEAT_SKIP = 'empty beat (no line, no action)';

/** The speech model, in the description's order: override, voice model, voice clone, tts tier. */
export function speechModelFor(character: Character, options: RenderBeatOptions): string {
  if (options.ttsModelId) return modelIdFor(options.ttsModelId);
  if (character.voice?.model_id) return modelIdFor(character.voice.model_id);
  if (character.voice?.reference_audio_url) return pickModel('voice_clone', 'high').id;
  return pickModel('tts', options.ttsQuality ?? 'balanced').id;
}

export function avatarModelFor(options: RenderBeatOptions): string {
  return options.avatarModelId ? modelIdFor(options.avatarModelId) : pickModel('avatar', options.lipsyncQuality ?? 'high').id;
}

/** The models a beat would call (null for a step that does not run) and the provider. */
export function beatModels(beat: Beat, character: Character, options: RenderBeatOptions): BeatModels {
  const speaks = beat.line !== '';
  return {
    provider: resolveProvider(options).name,
    tts: speaks ? speechModelFor(character, options) : null,
    avatar: speaks && character.reference_image_url !== '' ? avatarModelFor(options) : null,
  };
}

/**
 * Speech for a beat's line in the speaker's voice, then a talking video from the speaker's face
 * and that audio. Cached by the beat hash; a cached result carries the current beat's id and
 * speaker.
 */
export async function renderBeat(beatInput: BeatInput, characterInput: CharacterInput, options: RenderBeatOptions = {}): Promise<BeatResult | EmptyBeatResult> {
  const beat = toBeat(beatInput);
  const character = toCharacter(characterInput);
  if (beat.line === '' && beat.action === '') {
    return { url: '', cache_hit: false, hash: '', skipped: EMPTY_BEAT_SKIP };
  }
  const provider = resolveProvider(options);
  let ctx = unitContext({ ...options, provider }, { kind: 'beat', id: beat.id });
  const models = beatModels(beat, character, { ...options, provider });
  const hash = beatHash(beat, character, models);

  const cached = await cachedUnit(ctx, BEAT_NAMESPACE, hash, `beat ${beat.id}`);
  ctx = cached.ctx;
  if (cached.hit) {
    // Entries cached before durations were recorded get them now, once.
    if (ctx.assets && !hasDurations(cached.hit)) {
      Object.assign(cached.hit, await unitDurations(cached.hit));
      ctx.cache.putUnit(BEAT_NAMESPACE, hash, cached.hit, `beat:${beat.id}`);
    }
    const r = cached.hit as unknown as BeatResult;
    return { url: r.url, video_url: r.video_url, audio_url: r.audio_url, hash, beat_id: beat.id, speaker: beat.speaker, cache_hit: true, ...durableFields(r) };
  }
  if (ctx.executor) {
    const spec = { kind: 'beat', beat, speaker: character, tts_quality: options.ttsQuality ?? null, lipsync_quality: options.lipsyncQuality ?? null, tts_model: options.ttsModelId ?? null, avatar_model: options.avatarModelId ?? null } as const;
    const done = await ctx.executor.render(spec, ctx);
    const r = done.result as unknown as BeatResult;
    const result: BeatResult = { url: r.url, video_url: r.video_url, audio_url: r.audio_url, hash, beat_id: beat.id, speaker: beat.speaker, cache_hit: done.cacheHit, ...durableFields(r) };
    ctx.cache.putUnit(BEAT_NAMESPACE, hash, { ...result, cache_hit: false }, `beat:${beat.id}`);
    return result;
  }

  let audioUrl = '';
  let videoUrl = '';
  if (models.tts) {
    const args: Record<string, unknown> = { text: beat.line };
    if (character.voice?.reference_audio_url) args.reference_audio_url = character.voice.reference_audio_url;
    if (character.voice?.voice_id) args.voice = character.voice.voice_id;
    const speech = await callModel(ctx, models.tts, args);
    if (speech.length === 0) {
      throw new RenderProducedNoAssetError(`render_beat: TTS produced no asset for beat ${beat.id}`, 'beat', beat.id);
    }
    audioUrl = speech[0].url;
    if (models.avatar) {
      const prompt = beat.emotion || beat.action || 'natural delivery';
      const audioRef = await contentRef(ctx, audioUrl);
      const video = await callModel(ctx, models.avatar, { image_url: character.reference_image_url, audio_url: audioUrl, prompt }, { audio_url: audioRef });
      videoUrl = video[0]?.url ?? '';
    }
  }
  const result: BeatResult = {
    url: videoUrl || audioUrl,
    video_url: videoUrl,
    audio_url: audioUrl,
    hash,
    beat_id: beat.id,
    speaker: beat.speaker,
    cache_hit: false,
  };
  if (ctx.assets) {
    await keepAssets(ctx, result as unknown as Record<string, unknown>);
    Object.assign(result, await unitDurations(result as unknown as Record<string, unknown>));
  }
  const kept = (await keepUnit(ctx, BEAT_NAMESPACE, hash, result as unknown as Record<string, unknown>, `beat:${beat.id}`)) as unknown as BeatResult;
  return kept === (result as unknown) ? result : { ...kept, hash, beat_id: beat.id, speaker: beat.speaker, cache_hit: false };
}

function durableFields(r: BeatResult): DurableAssetFields & DurationFields {
  const out: Record<string, unknown> = {};
  for (const key of ['sha256', 'path', 'audio_sha256', 'audio_path', 'video_sha256', 'video_path', 'duration', 'audio_duration', 'video_duration'] as const) if (r[key] !== undefined) out[key] = r[key];
  return out as DurableAssetFields & DurationFields;
}
