import type { FlagSpecs } from './flag-specs.js';

/**
 * Flags the `annot render` commands share, as plain data (flag-specs.ts): the commands build
 * their oclif flags from these, and `render scene`'s start-up fast path reads them. Kept free of
 * render imports so `--help` stays fast.
 */

const TIERS = ['fast', 'balanced', 'high', 'ultra'] as const;

export const PROVIDER_FLAG = {
  provider: {
    kind: 'string',
    description: 'where model calls go: fal (needs FAL_KEY), local (offline preview made with ffmpeg), or auto (fal when a key is set, else local)',
    options: ['auto', 'fal', 'local'],
    default: 'auto',
  },
} as const satisfies FlagSpecs;

export const FORCE_FLAG = {
  force: { kind: 'boolean', description: 'bypass the unit and call caches: every model call is made again' },
} as const satisfies FlagSpecs;

/** A quality tier flag: one of TIERS, with its default. */
export function tierFlag(description: string, defaultTier: (typeof TIERS)[number]) {
  return { kind: 'string', description, options: TIERS, default: defaultTier } as const;
}

/** The quality tiers of `render_beat` (speech, talking video), with the description's defaults. */
export const BEAT_QUALITY_FLAGS = {
  'tts-quality': tierFlag('tier of the speech model', 'balanced'),
  'lipsync-quality': tierFlag('tier of the talking-video model', 'high'),
} as const satisfies FlagSpecs;

/** The quality tiers of `render_scene`: the beat tiers plus the shot tier. */
export const SCENE_QUALITY_FLAGS = {
  ...BEAT_QUALITY_FLAGS,
  'shot-quality': tierFlag('tier of the still and clip models', 'balanced'),
} as const satisfies FlagSpecs;
