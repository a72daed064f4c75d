import { Flags } from '@oclif/core';

/** Flags the `annot render` commands share. Kept free of render imports so `--help` stays fast. */

const TIERS = ['fast', 'balanced', 'high', 'ultra'];

export const providerFlag = Flags.string({
  description: 'where model calls go: fal (needs FAL_KEY), local (offline preview made with ffmpeg), or auto (fal when a key is set, else local)',
  options: ['auto', 'fal', 'local'],
  default: 'auto',
});

export const forceFlag = Flags.boolean({ description: 'bypass the unit and call caches: every model call is made again' });

export function tierFlag(description: string, defaultTier: string) {
  return Flags.string({ description, options: TIERS, default: defaultTier });
}

/** The quality tiers of `render_beat` (speech, talking video), with the description's defaults. */
export const beatQualityFlags = {
  'tts-quality': tierFlag('tier of the speech model', 'balanced'),
  'lipsync-quality': tierFlag('tier of the talking-video model', 'high'),
};

/** The quality tiers of `render_scene`: the beat tiers plus the shot tier. */
export const sceneQualityFlags = {
  ...beatQualityFlags,
  'shot-quality': tierFlag('tier of the still and clip models', 'balanced'),
};
