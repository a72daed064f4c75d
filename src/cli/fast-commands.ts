import { CONVERT_FLAGS } from './convert-flags.js';
import type { FlagSpecs, FlagValues } from './flag-specs.js';
import { QUERY_FLAGS } from './query-flags.js';
import { RENDER_SCENE_FLAGS } from './render-scene-flags.js';
import { RENDER_TIMELINE_FLAGS } from './render-timeline-flags.js';
import { SERVE_FLAGS } from './serve-flags.js';
import type { TimeStyle } from '../time/time-format.js';
import { VALIDATE_FLAGS } from './validate-flags.js';

/**
 * A command the start-up fast path (fast-path.ts) serves: its name, the same flags its oclif
 * command builds its own from, how many positional arguments oclif would accept, and the one
 * function both paths call. The body is imported only when the command runs.
 */
export interface FastCommand<T extends FlagSpecs = FlagSpecs> {
  /** The command's words: `['convert']`, `['render', 'scene']`. */
  readonly words: readonly string[];
  readonly flags: T;
  readonly positionals: { readonly min: number; readonly max: number };
  run(positionals: readonly string[], flags: FlagValues<T>, cli: CliContext): Promise<void>;
}

/** What oclif's config would tell a command about the CLI itself. */
export interface CliContext {
  /** The package's version (oclif's `this.config.version`). */
  readonly version: string;
}

/** Erases an entry's flag type, so that entries with different flags share the table. */
function fastCommand<T extends FlagSpecs>(command: FastCommand<T>): FastCommand {
  return command as unknown as FastCommand;
}

/** The commands people run in loops, pipes, Makefiles and CI, where start-up time adds up. */
export const FAST_COMMANDS: readonly FastCommand[] = [
  fastCommand({
    words: ['query'],
    flags: QUERY_FLAGS,
    positionals: { min: 1, max: 1 },
    run: async ([file], flags) => (await import('./print-query.js')).printQuery(file, { ...flags, time: flags.time as TimeStyle }),
  }),
  fastCommand({
    words: ['convert'],
    flags: CONVERT_FLAGS,
    // IN OUT, or any number of inputs with --out-dir; runConvertCommand tells the two apart as oclif's run() does.
    positionals: { min: 1, max: Infinity },
    run: async (positionals, flags) => (await import('./run-convert.js')).runConvertCommand(positionals, flags),
  }),
  fastCommand({
    words: ['validate'],
    flags: VALIDATE_FLAGS,
    positionals: { min: 1, max: 1 },
    run: async ([file], flags) => (await import('./run-validate.js')).runValidate(file, flags),
  }),
  fastCommand({
    words: ['render', 'scene'],
    flags: RENDER_SCENE_FLAGS,
    positionals: { min: 1, max: 1 },
    run: async ([scene], flags) => (await import('./run-render-scene.js')).runRenderScene(scene, flags),
  }),
  fastCommand({
    words: ['render', 'timeline'],
    flags: RENDER_TIMELINE_FLAGS,
    positionals: { min: 1, max: 1 },
    run: async ([path], flags) => (await import('./run-render-timeline.js')).runRenderTimeline(path, flags),
  }),
  fastCommand({
    words: ['serve'],
    flags: SERVE_FLAGS,
    positionals: { min: 0, max: 1 },
    run: async ([file], flags, { version }) => (await import('./run-serve.js')).runServe(file, flags, version),
  }),
];
