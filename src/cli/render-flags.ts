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

/** The shared render cache on S3-compatible storage: every render command takes these (see README, "Rendering as a team"). */
export const REMOTE_CACHE_FLAGS = {
  'remote-cache': {
    kind: 'string',
    description:
      'a render cache shared by the team, s3://BUCKET/PREFIX on any S3-compatible server: looked up after this machine\'s cache, written after a render. Endpoint and credentials come from the standard AWS variables and files (AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_PROFILE, ...)',
    env: 'ANNOT_REMOTE_CACHE',
  },
  'remote-cache-mode': {
    kind: 'string',
    description: 'readwrite, or read: use the shared cache and never write to it (pull-request builds)',
    options: ['readwrite', 'read'],
    default: 'readwrite',
    env: 'ANNOT_REMOTE_CACHE_MODE',
  },
} as const satisfies FlagSpecs;

/** Rendering on the render workers (`annot render worker`) instead of in this process. */
export const QUEUE_FLAGS = {
  queue: {
    kind: 'boolean',
    description: 'send each unit to the render workers through Redis instead of rendering here: no fal key needed here, the workers render with theirs (--provider auto means fal)',
  },
  'queue-name': { kind: 'string', description: 'the render queue (the workers must take from the same)', default: 'annot-render' },
  redis: { kind: 'string', description: 'Redis URL of the render queue (default: ANNOT_REDIS_URL, else redis://127.0.0.1:6379)' },
} as const satisfies FlagSpecs;
