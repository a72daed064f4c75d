import { ENCODING_FLAG } from './encoding-flag.js';
import type { FlagSpecs } from './flag-specs.js';

/** `annot query`'s flags, read by the oclif command (commands/query.ts) and the start-up fast path. */
export const QUERY_FLAGS = {
  start: { kind: 'string', description: 'window start: seconds (12.345, exact), a timecode HH:MM:SS.mmm or MM:SS.mmm, or SMPTE HH:MM:SS:FF with --fps' },
  end: { kind: 'string', description: 'window end (exclusive), in the same forms' },
  fps: { kind: 'string', description: 'frames per second of SMPTE HH:MM:SS:FF times (24, 25, 29.97, 30000/1001)' },
  time: { kind: 'string', description: 'how times are printed beside {v, r}: seconds (s, exact), timecode (s and tc) or ticks (only {v, r})', options: ['seconds', 'timecode', 'ticks'], default: 'seconds' },
  rate: { kind: 'integer', description: 'ticks per second for the window (default: exact for the digits given)', min: 1 },
  tier: { kind: 'string', description: 'only annotations on this tier' },
  relation: { kind: 'string', description: 'intersects (default) or an Allen relation: before, after, meets, met_by, overlaps, overlapped_by, starts, started_by, during, contains, finishes, finished_by, equals' },
  from: { kind: 'string', description: 'input format, when the extension and content do not tell' },
  ...ENCODING_FLAG,
} as const satisfies FlagSpecs;
