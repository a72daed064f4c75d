import type { FlagSpecs } from './flag-specs.js';
import { HOLD_FLAG } from './hold-flag.js';

/** `annot render timeline`'s flags, read by the oclif command (commands/render/timeline.ts) and the start-up fast path. */
export const RENDER_TIMELINE_FLAGS = {
  manifest: { kind: 'string', description: 'the manifest written by `annot render scene`', required: true },
  animatic: { kind: 'string', description: "the animatic of the same manifest: EAF and VTT then link it instead of each beat's media" },
  ...HOLD_FLAG,
} as const satisfies FlagSpecs;
