import type { FlagSpecs } from './flag-specs.js';
import { RETIME_FLAGS } from './retime-flags.js';

/**
 * `annot retime`'s flags (commands/retime.ts): the map's parts as `annot convert` has them
 * (retime-flags.ts), and what only an in-place retime needs: the store, the tier, how strict.
 */
export const RETIME_COMMAND_FLAGS = {
  ...RETIME_FLAGS,
  within: {
    kind: 'string',
    description:
      'START,END: retime only the annotations that start in [START, END) before the retime (a child on an INCLUDED_IN or TIME_SUBDIVISION tier moves with its parent), e.g. --within 00:10:00,00:20:00',
  },
  tier: { kind: 'string', description: 'retime only this tier (and the tiers that depend on it)' },
  strict: { kind: 'boolean', description: 'refuse, changing nothing, when an annotation would move before 0 s (by default it is cut at 0 s, or dropped when it ends there)', default: false },
  'strict-time': { kind: 'boolean', description: 'refuse, changing nothing, when a time would fall between ticks of its rate (by default it is rounded to the nearest and counted)', default: false },
  store: { kind: 'string', description: 'a PostgreSQL project (postgres://…?project=name) instead of FILE' },
  project: { kind: 'string', description: 'the project of --store, when its URL has no ?project=' },
  json: { kind: 'boolean', description: 'print what was done as one JSON object on stdout', default: false },
} as const satisfies FlagSpecs;
