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
