import { fastCommandLine } from '../../src/cli/fast-path.js';
import { runCli, type CliResult } from './run-cli.js';

/**
 * One command line run both ways through the real CLI: as given, which the start-up fast path
 * serves (checked here first, so a case cannot pass by the fast path quietly declining it), and
 * with `--` before the positional arguments, which the fast path always leaves to oclif. `flags`
 * may differ by path, for outputs that must not collide (each path its own manifest).
 */
export async function runBothPaths(
  words: readonly string[],
  positionals: readonly string[],
  flags: readonly string[] | ((path: 'fast' | 'oclif') => readonly string[]),
  options: Parameters<typeof runCli>[1] = {},
): Promise<{ fast: CliResult; oclif: CliResult }> {
  const flagsFor = typeof flags === 'function' ? flags : () => flags;
  const fastArgs = [...words, ...positionals, ...flagsFor('fast')];
  if (fastCommandLine(fastArgs) === null) throw new Error(`the fast path declines ${JSON.stringify(fastArgs)}: this case would compare oclif with itself`);
  const fast = await runCli(fastArgs, options);
  const oclif = await runCli([...words, ...flagsFor('oclif'), '--', ...positionals], options);
  return { fast, oclif };
}
