import type { FlagSpecs } from './flag-specs.js';

/**
 * `annot retime`'s flags (commands/retime.ts). The map's parts have the names and meanings they
 * have on `annot convert` (a RetimeRequest spelled `--fps-from`...); the rest choose the store
 * and how strict the retime is.
 */
export const RETIME_FLAGS = {
  shift: { kind: 'string', description: 'move every time by this signed amount: seconds (2.5, -1.2), a timecode (-00:00:01.200), SMPTE (-00:00:12:05, with --fps) or v/r; give a negative one as --shift=-2.5' },
  'fps-from': {
    kind: 'string',
    description: 'the frame rate the times were made for; with --fps-to, scales every time by FROM/TO, exactly. Usual pairs: 23.976 to 25 (an NTSC film release to PAL), 25 to 23.976, 24 to 25, 25 to 24, 29.97 to 25; 23.976 is read as 24000/1001 and 29.97 as 30000/1001',
  },
  'fps-to': { kind: 'string', description: 'the frame rate of the media the times should fit (see --fps-from)' },
  scale: { kind: 'string', description: 'multiply every time by this positive ratio (1.001, 25/24), after --fps-from/--fps-to and before --shift' },
  sync: { kind: 'string', description: "two-point sync 'T1=U1,T2=U2': the time that was at T1 goes to U1 and T2 to U2, linearly in between and beyond (no --fps-from, --fps-to or --scale with it; a --shift applies after it)" },
  within: { kind: 'string', description: 'START,END: retime only the annotations that start in [START, END) before the retime (a child on an INCLUDED_IN or TIME_SUBDIVISION tier moves with its parent)' },
  fps: { kind: 'string', description: 'frames per second of SMPTE HH:MM:SS:FF times in the other flags (24, 25, 29.97, 30000/1001)' },
  tier: { kind: 'string', description: 'retime only this tier (and the tiers that depend on it)' },
  strict: { kind: 'boolean', description: 'refuse, changing nothing, when an annotation would move before 0 s (by default it is cut at 0 s, or dropped when it ends there)', default: false },
  'strict-time': { kind: 'boolean', description: 'refuse, changing nothing, when a time would fall between ticks of its rate (by default it is rounded to the nearest and counted)', default: false },
  store: { kind: 'string', description: 'a PostgreSQL project (postgres://…?project=name) instead of FILE' },
  project: { kind: 'string', description: 'the project of --store, when its URL has no ?project=' },
  json: { kind: 'boolean', description: 'print what was done as one JSON object on stdout', default: false },
} as const satisfies FlagSpecs;
