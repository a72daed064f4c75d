/** Quality tiers, cheapest first. */
export const TIERS = ['fast', 'balanced', 'high', 'ultra'] as const;
/** A quality tier of the model catalog. */
export type Tier = (typeof TIERS)[number];

/** What a model costs. */
export interface ModelPrice {
  /** What the amount is paid for. */
  kind: 'per_call' | 'per_image' | 'per_second' | 'per_token' | 'per_megapixel';
  /** The price of one unit. */
  amount: number;
  /** Its currency (`USD`). */
  currency: string;
  /** Where the figure comes from: fal's pricing API, fal's docs, our measurement, or a guess. */
  source: 'api' | 'docs' | 'empirical' | 'approximate';
  /** Anything else about the price. */
  notes?: string;
}

/** A model of the catalog. */
export interface ModelRecord {
  /** The fal endpoint id, e.g. `fal-ai/flux/dev`. */
  id: string;
  /** What it makes (`tts`, `image`, `image_to_video`, `avatar`...). */
  category: string;
  /** The quality tier it is chosen for. */
  tier: Tier;
  /** Shorter names it is also known by. */
  aliases: string[];
  /** null when no price is known: unknown, never free. */
  price: ModelPrice | null;
}

/**
 * The model catalog: fal.ai endpoint ids by category and quality tier, with list prices where
 * fal publishes one (null = unknown, never free). Within a (category, tier) the first record is
 * the default that pickModel returns; test/render/catalog.test.ts pins every resolved default.
 */
export const MODEL_RECORDS: readonly ModelRecord[] = [
  // speech
  { id: 'fal-ai/elevenlabs/tts/multilingual-v2', category: 'tts', tier: 'high', aliases: ['elevenlabs-tts'], price: { kind: 'per_token', amount: 0.00018, currency: 'USD', source: 'approximate', notes: 'tokens are characters' } },
  { id: 'fal-ai/minimax/speech-02-hd', category: 'tts', tier: 'high', aliases: ['minimax-tts'], price: null },
  { id: 'fal-ai/minimax/voice-clone', category: 'voice_clone', tier: 'high', aliases: ['voice-clone'], price: null },
  // talking video
  { id: 'fal-ai/ai-avatar', category: 'avatar', tier: 'balanced', aliases: ['ai-avatar'], price: { kind: 'per_second', amount: 0.2, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/bytedance/omnihuman/v1.5', category: 'avatar', tier: 'high', aliases: ['omnihuman'], price: { kind: 'per_second', amount: 0.1, currency: 'USD', source: 'empirical' } },
  { id: 'fal-ai/ai-avatar/multi', category: 'lipsync', tier: 'balanced', aliases: [], price: { kind: 'per_second', amount: 0.2, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/kling-video/lipsync/audio-to-video', category: 'lipsync', tier: 'balanced', aliases: ['kling-lipsync'], price: null },
  { id: 'fal-ai/sync-lipsync/v2', category: 'lipsync', tier: 'high', aliases: ['sync-lipsync'], price: { kind: 'per_second', amount: 0.05, currency: 'USD', source: 'api' } },
  // stills
  { id: 'fal-ai/flux/schnell', category: 'image', tier: 'fast', aliases: ['flux-schnell'], price: { kind: 'per_megapixel', amount: 0.003, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/hidream-i1-fast', category: 'image', tier: 'fast', aliases: [], price: { kind: 'per_megapixel', amount: 0.01, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/sana/sprint', category: 'image', tier: 'fast', aliases: [], price: { kind: 'per_megapixel', amount: 0.0025, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/flux/dev', category: 'image', tier: 'balanced', aliases: ['flux-dev'], price: { kind: 'per_megapixel', amount: 0.025, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/ideogram/v3', category: 'image', tier: 'balanced', aliases: [], price: { kind: 'per_image', amount: 0.03, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/recraft/v3/text-to-image', category: 'image', tier: 'balanced', aliases: [], price: { kind: 'per_image', amount: 0.04, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/flux-pro/v1.1', category: 'image', tier: 'high', aliases: ['flux-pro'], price: { kind: 'per_megapixel', amount: 0.04, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/flux-pro/v1.1-ultra', category: 'image', tier: 'ultra', aliases: ['flux-ultra'], price: { kind: 'per_image', amount: 0.06, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/imagen4/preview/ultra', category: 'image', tier: 'ultra', aliases: [], price: { kind: 'per_image', amount: 0.06, currency: 'USD', source: 'api' } },
  // clips
  { id: 'fal-ai/minimax/hailuo-02/pro/image-to-video', category: 'image_to_video', tier: 'balanced', aliases: ['hailuo-pro'], price: { kind: 'per_second', amount: 0.08, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/pixverse/v4.5/image-to-video', category: 'image_to_video', tier: 'balanced', aliases: [], price: null },
  { id: 'fal-ai/bytedance/seedance/v1/pro/image-to-video', category: 'image_to_video', tier: 'high', aliases: ['seedance-i2v'], price: { kind: 'per_second', amount: 0.2, currency: 'USD', source: 'approximate' } },
  { id: 'fal-ai/kling-video/v2.1/master/image-to-video', category: 'image_to_video', tier: 'ultra', aliases: ['kling-master'], price: { kind: 'per_second', amount: 0.28, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/bytedance/seedance/v1/pro/text-to-video', category: 'text_to_video', tier: 'high', aliases: ['seedance-t2v'], price: { kind: 'per_second', amount: 0.2, currency: 'USD', source: 'approximate' } },
  { id: 'fal-ai/veo3', category: 'text_to_video', tier: 'ultra', aliases: ['veo3'], price: { kind: 'per_second', amount: 0.4, currency: 'USD', source: 'api' } },
  // image editing and post
  { id: 'fal-ai/flux-kontext/dev', category: 'image_edit', tier: 'balanced', aliases: ['flux-kontext-dev'], price: { kind: 'per_image', amount: 0.04, currency: 'USD', source: 'approximate' } },
  { id: 'fal-ai/omnigen-v2', category: 'image_edit', tier: 'balanced', aliases: [], price: { kind: 'per_megapixel', amount: 0.15, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/bytedance/seededit/v3/edit-image', category: 'image_edit', tier: 'high', aliases: ['seededit'], price: { kind: 'per_image', amount: 0.03, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/flux-pro/kontext/max', category: 'image_edit', tier: 'ultra', aliases: ['flux-kontext-max'], price: { kind: 'per_image', amount: 0.08, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/clarity-upscaler', category: 'upscale', tier: 'high', aliases: ['clarity-upscaler'], price: { kind: 'per_megapixel', amount: 0.03, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/bria/background/remove', category: 'background_removal', tier: 'balanced', aliases: ['bria-bg-remove'], price: null },
  { id: 'fal-ai/ideogram/v3/reframe', category: 'background_removal', tier: 'balanced', aliases: [], price: { kind: 'per_image', amount: 0.03, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/birefnet/v2', category: 'background_removal', tier: 'high', aliases: ['birefnet'], price: { kind: 'per_image', amount: 0.005, currency: 'USD', source: 'approximate' } },
  // audio
  { id: 'fal-ai/elevenlabs/audio-isolation', category: 'audio', tier: 'balanced', aliases: [], price: { kind: 'per_second', amount: 0.00166667, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/diffrhythm', category: 'music', tier: 'balanced', aliases: ['diffrhythm'], price: { kind: 'per_second', amount: 0.001, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/mmaudio-v2/text-to-audio', category: 'music', tier: 'balanced', aliases: [], price: { kind: 'per_second', amount: 0.001, currency: 'USD', source: 'api' } },
  { id: 'fal-ai/lyria2', category: 'music', tier: 'high', aliases: ['lyria2'], price: { kind: 'per_second', amount: 0.00333333, currency: 'USD', source: 'api' } },
];
