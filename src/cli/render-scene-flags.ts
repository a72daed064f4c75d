import type { FlagSpecs } from './flag-specs.js';
import { HOLD_FLAG } from './hold-flag.js';
import { FORCE_FLAG, PROVIDER_FLAG, QUEUE_FLAGS, REMOTE_CACHE_FLAGS, SCENE_QUALITY_FLAGS } from './render-flags.js';

/** `annot render scene`'s flags, read by the oclif command (commands/render/scene.ts) and the start-up fast path. */
export const RENDER_SCENE_FLAGS = {
  ...SCENE_QUALITY_FLAGS,
  'shots-as-video': { kind: 'boolean', description: 'make a short clip from each still' },
  ...FORCE_FLAG,
  concurrency: { kind: 'integer', description: 'units rendered at once (1: serial, shots then beats in scene order); with --queue each worker\'s own --concurrency sets the pace', min: 1, default: 1 },
  ...PROVIDER_FLAG,
  ...REMOTE_CACHE_FLAGS,
  ...QUEUE_FLAGS,
  manifest: {
    kind: 'string',
    description:
      'manifest path (default: DIR/<title>.manifest.json with --out DIR, else <cache dir>/scenes/<title>.manifest.json); rewritten only when its content changes, refused when it belongs to another scene file',
  },
  out: { kind: 'string', description: 'place the final assets in DIR/<title>/ as shot-<id>.png, beat-<id>.mp4 (copies, reflinked where the file system can; never links into the cache)' },
  quiet: { kind: 'boolean', char: 'q', description: "print only the one-line summary and errors (the scene's findings only when --strict refuses on them)" },
  'keep-going': { kind: 'boolean', description: 'after a failed unit, render all the others instead of stopping new work' },
  json: { kind: 'boolean', description: 'one JSON line per finished unit on stdout even on a terminal' },
  timeline: { kind: 'string', description: 'also write the scene as a timeline (.vtt, .srt, .otio, .annot, .eaf, ...): lines, speakers and shots tiers' },
  storyboard: { kind: 'string', description: 'also write a self-contained HTML storyboard page' },
  animatic: {
    kind: 'string',
    description:
      'also assemble the scene into one H.264/AAC mp4 (talking videos, or stills with the speech; lines as a mov_text track and beside it as NAME.mp4.vtt); rebuilt only when its media change',
  },
  ...HOLD_FLAG,
  strict: { kind: 'boolean', description: 'refuse a scene that `annot validate --strict` fails (errors or warnings): nothing is rendered, nothing paid' },
} as const satisfies FlagSpecs;
