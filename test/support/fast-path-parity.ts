import { fastCommandLine } from '../../src/cli/fast-path.js';
import { runCli, type CliResult } from './run-cli.js';

type Path = 'fast' | 'oclif';
/** The same for both paths, or one for each: outputs that must not collide (each path its own file). */
type PerPath<T> = T | ((path: Path) => T);

/**
 * One command line run both ways through the real CLI: as given, which the start-up fast path
 * serves (checked here first, so a case cannot pass by the fast path quietly declining it), and
 * with `--` before the positional arguments, which the fast path always leaves to oclif.
 */
export async function runBothPaths(
  words: readonly string[],
  positionals: PerPath<readonly string[]>,
  flags: PerPath<readonly string[]>,
  options: Parameters<typeof runCli>[1] = {},
): Promise<{ fast: CliResult; oclif: CliResult }> {
  const forPath = <T>(value: PerPath<T>, path: Path): T => (typeof value === 'function' ? (value as (path: Path) => T)(path) : value);
  const fastArgs = [...words, ...forPath(positionals, 'fast'), ...forPath(flags, 'fast')];
  if (fastCommandLine(fastArgs) === null) throw new Error(`the fast path declines ${JSON.stringify(fastArgs)}: this case would compare oclif with itself`);
  const fast = await runCli(fastArgs, options);
  const oclif = await runCli([...words, ...forPath(flags, 'oclif'), '--', ...forPath(positionals, 'oclif')], options);
  return { fast, oclif };
}
