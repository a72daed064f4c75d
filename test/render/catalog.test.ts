import { TIERS, listModels, modelCategories, modelIdFor, pickModel, resolveModel, tierSearchOrder, UnknownQualityTierError } from '../../src/render/catalog.js';
import { UnknownModelCategoryError, UnknownModelError } from '../../src/render/errors.js';

/** The resolved default of every (category, tier): pinned here, not left to file order. */
const DEFAULTS: Record<string, [string, string, string, string]> = {
  tts: ['fal-ai/elevenlabs/tts/multilingual-v2', 'fal-ai/elevenlabs/tts/multilingual-v2', 'fal-ai/elevenlabs/tts/multilingual-v2', 'fal-ai/elevenlabs/tts/multilingual-v2'],
  voice_clone: ['fal-ai/minimax/voice-clone', 'fal-ai/minimax/voice-clone', 'fal-ai/minimax/voice-clone', 'fal-ai/minimax/voice-clone'],
  avatar: ['fal-ai/ai-avatar', 'fal-ai/ai-avatar', 'fal-ai/bytedance/omnihuman/v1.5', 'fal-ai/bytedance/omnihuman/v1.5'],
  image: ['fal-ai/flux/schnell', 'fal-ai/flux/dev', 'fal-ai/flux-pro/v1.1', 'fal-ai/flux-pro/v1.1-ultra'],
  image_to_video: [
    'fal-ai/minimax/hailuo-02/pro/image-to-video',
    'fal-ai/minimax/hailuo-02/pro/image-to-video',
    'fal-ai/bytedance/seedance/v1/pro/image-to-video',
    'fal-ai/kling-video/v2.1/master/image-to-video',
  ],
  lipsync: ['fal-ai/ai-avatar/multi', 'fal-ai/ai-avatar/multi', 'fal-ai/sync-lipsync/v2', 'fal-ai/sync-lipsync/v2'],
  text_to_video: [
    'fal-ai/bytedance/seedance/v1/pro/text-to-video',
    'fal-ai/bytedance/seedance/v1/pro/text-to-video',
    'fal-ai/bytedance/seedance/v1/pro/text-to-video',
    'fal-ai/veo3',
  ],
  image_edit: ['fal-ai/flux-kontext/dev', 'fal-ai/flux-kontext/dev', 'fal-ai/bytedance/seededit/v3/edit-image', 'fal-ai/flux-pro/kontext/max'],
  upscale: ['fal-ai/clarity-upscaler', 'fal-ai/clarity-upscaler', 'fal-ai/clarity-upscaler', 'fal-ai/clarity-upscaler'],
  background_removal: ['fal-ai/bria/background/remove', 'fal-ai/bria/background/remove', 'fal-ai/birefnet/v2', 'fal-ai/birefnet/v2'],
  audio: ['fal-ai/elevenlabs/audio-isolation', 'fal-ai/elevenlabs/audio-isolation', 'fal-ai/elevenlabs/audio-isolation', 'fal-ai/elevenlabs/audio-isolation'],
  music: ['fal-ai/diffrhythm', 'fal-ai/diffrhythm', 'fal-ai/lyria2', 'fal-ai/lyria2'],
};

describe('the model catalog', () => {
  it('pins the resolved default of every category at every tier', () => {
    expect(modelCategories()).toEqual(Object.keys(DEFAULTS).sort());
    for (const [category, ids] of Object.entries(DEFAULTS)) {
      TIERS.forEach((tier, i) => expect([category, tier, pickModel(category, tier).id]).toEqual([category, tier, ids[i]]));
    }
  });

  it('has the five categories the renderer uses', () => {
    for (const c of ['tts', 'voice_clone', 'avatar', 'image', 'image_to_video']) expect(listModels({ category: c }).length).toBeGreaterThan(0);
  });

  it('falls back to the nearest tier, the lower one first at equal distance', () => {
    // avatar has balanced and high: fast → balanced (distance 1), ultra → high (distance 1).
    expect(pickModel('avatar', 'fast').tier).toBe('balanced');
    expect(pickModel('avatar', 'ultra').tier).toBe('high');
    // text_to_video has high and ultra: balanced → high (lower is absent), fast → high (distance 2).
    expect(pickModel('text_to_video', 'balanced').tier).toBe('high');
    // image_edit at balanced exists; music at ultra → high.
    expect(pickModel('music', 'ultra').tier).toBe('high');
  });

  it('searches tiers by distance, the lower one first when both neighbours exist', () => {
    expect(tierSearchOrder('fast')).toEqual(['fast', 'balanced', 'high', 'ultra']);
    expect(tierSearchOrder('balanced')).toEqual(['balanced', 'fast', 'high', 'ultra']);
    expect(tierSearchOrder('high')).toEqual(['high', 'balanced', 'ultra', 'fast']);
    expect(tierSearchOrder('ultra')).toEqual(['ultra', 'high', 'balanced', 'fast']);
  });

  it('defaults the tier to balanced', () => {
    expect(pickModel('image').id).toBe('fal-ai/flux/dev');
  });

  it('names the known categories when asked for an unknown one', () => {
    expect(() => pickModel('hologram', 'high')).toThrow(UnknownModelCategoryError);
    expect(() => pickModel('hologram')).toThrow(/no models known for category "hologram"; known categories: audio, avatar, .*voice_clone\./);
  });

  it('rejects an unknown tier rather than guessing', () => {
    expect(() => pickModel('image', 'premium')).toThrow(UnknownQualityTierError);
    expect(() => pickModel('image', 'premium')).toThrow('unknown quality "premium"; expected one of fast, balanced, high, ultra.');
  });

  it('resolves models by id and by alias', () => {
    expect(resolveModel('fal-ai/flux/dev').category).toBe('image');
    expect(resolveModel('omnihuman').id).toBe('fal-ai/bytedance/omnihuman/v1.5');
    expect(resolveModel('hailuo-pro').id).toBe('fal-ai/minimax/hailuo-02/pro/image-to-video');
    expect(() => resolveModel('nope')).toThrow(UnknownModelError);
  });

  it('turns an override alias into its id and keeps any other id as given', () => {
    expect(modelIdFor('flux-schnell')).toBe('fal-ai/flux/schnell');
    expect(modelIdFor('someone/custom-model')).toBe('someone/custom-model');
  });

  it('gives every record a known tier, a unique id and a price or an explicit null', () => {
    const ids = listModels().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of listModels()) {
      expect(TIERS).toContain(r.tier);
      expect(r.price === null || r.price.amount > 0).toBe(true);
    }
  });
});
