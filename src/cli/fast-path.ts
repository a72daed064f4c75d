/**
 * Start-up fast path for the commands people run in loops and pipes (`annot --version` and the
 * commands of fast-commands.ts): loading @oclif/core alone costs about twice `node -e 0`, so
 * bin/run.js asks here first. The flags are those of the commands themselves (plain data, which
 * the oclif commands read too). Only argument lists this module understands completely are
 * served; anything else (help, `-` for standard input, an unknown or repeated flag, a value oclif
 * would refuse, a wrong number of arguments, `--`) returns false and oclif runs as usual, so its
 * messages and exit codes stay the one reference.
 */
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { parseArgs } from 'node:util';
import { FAST_COMMANDS, type FastCommand } from './fast-commands.js';
import { parseArgsOptions, plainValues, type FlagSpecs, type FlagValues } from './flag-specs.js';

/** Runs argv when it can; false when oclif must. `packageJson` is the CLI's package.json path. */
export async function runFastPath(argv: readonly string[], packageJson: string | URL): Promise<boolean> {
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(userAgent(packageJson) + '\n');
    return true;
  }
  const line = fastCommandLine(argv);
  if (line === null) return false;
  // Read only by a command that asks for it (serve): the others start without reading package.json.
  const cli = { get version() { return readPackage(packageJson).version; } };
  await runReporting(line.args, () => line.command.run(line.positionals, line.flags, cli));
  return true;
}

/** Whether runFastPath would run argv itself (true) or leave it to oclif (false), without running anything. */
export function takesFastPath(argv: readonly string[]): boolean {
  return (argv.length === 1 && argv[0] === '--version') || fastCommandLine(argv) !== null;
}

/** A command line the fast path serves: the command, its own arguments (after its words), and those parsed. */
export interface FastCommandLine {
  readonly command: FastCommand;
  readonly args: readonly string[];
  readonly positionals: string[];
  readonly flags: FlagValues<FastCommand['flags']>;
}

/** argv as the fast path would run it, or null when oclif must. */
export function fastCommandLine(argv: readonly string[]): FastCommandLine | null {
  const command = FAST_COMMANDS.find(({ words }) => words.every((word, i) => argv[i] === word));
  if (command === undefined) return null;
  const args = argv.slice(command.words.length);
  const parsed = parseCommandArgs(command, args);
  return parsed === null ? null : { command, args, ...parsed };
}

/** The line oclif prints for --version: `<name>/<version> <platform>-<arch> node-<version>`. */
function userAgent(packageJson: string | URL): string {
  const { name, version } = readPackage(packageJson);
  const cpu = arch() === 'ia32' ? 'x86' : arch();
  return `${name}/${version} ${isWsl() ? 'wsl' : platform()}-${cpu} node-${process.version}`;
}

function readPackage(packageJson: string | URL): { name: string; version: string } {
  return JSON.parse(readFileSync(packageJson, 'utf8')) as { name: string; version: string };
}

function isWsl(): boolean {
  if (platform() !== 'linux') return false;
  try {
    return readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft');
  } catch {
    return false;
  }
}

/** A command's positionals and typed flags, or null for oclif. */
function parseCommandArgs(command: FastCommand, args: readonly string[]): { positionals: string[]; flags: FlagValues<FastCommand['flags']> } | null {
  const parsed = parsePlainly(args, command.flags);
  if (parsed === null) return null;
  const { positionals } = parsed;
  if (positionals.length < command.positionals.min || positionals.length > command.positionals.max) return null;
  // Standard streams (`-`), an empty name and anything oclif would refuse go the long way, so oclif owns those messages.
  if (positionals.some((positional) => positional === '' || positional.startsWith('-'))) return null;
  const flags = plainValues(command.flags, parsed.values);
  if (flags === null) return null;
  return { positionals, flags };
}

/**
 * node's strict parse of the arguments, or null when oclif must see them: unknown or repeated
 * flags, `--no-<name>` for a flag without that form, or `--`.
 */
function parsePlainly(args: readonly string[], specs: FlagSpecs) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: parseArgsOptions(specs), allowPositionals: true, allowNegative: true, strict: true, tokens: true });
  } catch {
    return null;
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind === 'option-terminator') return null;
    if (token.kind === 'option') {
      if (seen.has(token.name)) return null;
      seen.add(token.name);
      const spec = specs[token.name];
      if (token.rawName === `--no-${token.name}` && !(spec.kind === 'boolean' && spec.allowNo)) return null;
    }
  }
  return parsed;
}

/**
 * Runs the command and reports a failure as AnnotCommand.catch does (failure-report.ts), then
 * exits as oclif's error handler does: at once, with the failure's exit code, whatever handles
 * (a pool, a timer) the failed work left open.
 */
async function runReporting(args: readonly string[], work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const [{ describeFailure }, { reportFailure }] = await Promise.all([import('./errors.js'), import('./failure-report.js')]);
    const failure = describeFailure(error);
    reportFailure(failure, error, args);
    process.exit(failure.exitCode);
  }
}
