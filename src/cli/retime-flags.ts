import type { FlagSpecs, FlagValues } from './flag-specs.js';

/**
 * The retiming flags (issue 35), described once for every command that retimes as it writes
 * (`annot convert`). The order they compose in is the one retimeMap documents: the frame-rate
 * change, then --scale, then --shift; --sync sets scale and offset itself, and --shift applies
 * after it. --within picks annotations by their start before any of it. Plain data, as the start-up
 * fast path reads it; retime-of-flags.ts turns the values into a map.
 */
export const RETIME_FLAGS = {
  shift: {
    kind: 'string',
    description:
      'retime: move every annotation by a signed time: 2.5, -1.2, -00:00:01.200, -00:00:12:05 (SMPTE, with --fps); exact at the input\'s rate. Composes last: frame rate, then --scale, then --shift',
  },
  'fps-from': {
    kind: 'string',
    description:
      'retime: with --fps-to, the frame rate the times were made for; times are multiplied by FROM/TO exactly (23.976 means 24000/1001, 29.97 30000/1001). Usual pairs: 23.976→25 (PAL speed-up), 25→23.976 (PAL back to film), 24→25, 25→24, 29.97→25, 25→29.97, 29.97→23.976',
  },
  'fps-to': { kind: 'string', description: 'retime: with --fps-from, the frame rate of the media the times should fit (see --fps-from)' },
  scale: { kind: 'string', description: 'retime: multiply every time by a positive ratio (1.001, 25/24, 0.96); applied after a frame-rate change, before --shift' },
  sync: {
    kind: 'string',
    description:
      "retime: two-point sync 'T1=U1,T2=U2': the time at T1 goes to U1 and the time at T2 to U2, linearly between and beyond (as Subtitle Edit's point sync); not with --fps-from, --fps-to or --scale; a --shift applies after it",
  },
  within: {
    kind: 'string',
    description:
      'retime only the annotations that start inside START,END (times before the retime; START inclusive, END exclusive), e.g. --within 00:10:00,00:20:00. One that straddles an edge moves whole when its start is inside, and stays when it is not',
  },
  fps: { kind: 'string', description: 'frames per second of SMPTE HH:MM:SS:FF times in --shift, --sync and --within (24, 25, 29.97, 30000/1001)' },
} as const satisfies FlagSpecs;

/** The retiming flags' values, as a command parsed them. */
export type RetimeFlagValues = FlagValues<typeof RETIME_FLAGS>;
