import { ENCODING_FLAG } from './encoding-flag.js';
import type { FlagSpecs } from './flag-specs.js';

/** `annot sync`'s flags (commands/sync.ts). */
export const SYNC_FLAGS = {
  reference: { kind: 'string', description: 'align to the cues of this annotation file instead of a media file\'s speech (annot sync SUBS --reference OTHER.srt [OUT]): one global offset and ratio, no split points' },
  'max-offset': { kind: 'string', description: 'the largest offset tried either way, in seconds', default: '60' },
  'fix-framerate': { kind: 'boolean', description: 'also try the frame-rate changes between 23.976, 24 and 25 fps (--no-fix-framerate: offset only)', default: true, allowNo: true },
  strict: { kind: 'boolean', description: 'fail (exit 1, nothing written) when no alignment is clear (confidence under 0.5), or when the retime would cut or drop a cue at 0 s' },
  'strict-time': { kind: 'boolean', description: 'fail instead of rounding a retimed time that is not exact at its rate' },
  json: { kind: 'boolean', description: 'print the estimate (and what was written) as one JSON document on stdout' },
  from: { kind: 'string', description: 'the format of SUBS (and of --reference), when the extension and content do not tell' },
  to: { kind: 'string', description: 'the format of OUT (default: from its extension)' },
  rate: { kind: 'integer', description: 'import rate in ticks per second for formats with float times', min: 1 },
  ...ENCODING_FLAG,
} as const satisfies FlagSpecs;
