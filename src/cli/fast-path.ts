/**
 * Start-up fast path for the commands people run in loops and pipes (`annot --version`,
 * `annot query`, `annot convert`): loading @oclif/core alone costs about twice `node -e 0`, so bin/run.js asks
 * here first. The flags are those of the commands themselves (convert-flags.ts, query-flags.ts, which
 * the oclif commands read too). Only argument lists this module understands completely are served; anything else
 * (help, an unknown or repeated flag, a value oclif would reject) returns false and oclif runs
 * as usual, so its messages and exit codes stay the one reference.
 */
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeFailure } from './errors.js';
import { CONVERT_FLAGS } from './convert-flags.js';
import { parseArgsOptions, plainValues, type FlagValues } from './flag-specs.js';
import type { PrintQueryRequest } from './print-query.js';
import { QUERY_FLAGS } from './query-flags.js';

/** Runs argv when it can; false when oclif must. `packageJson` is the CLI's package.json path. */
export async function runFastPath(argv: readonly string[], packageJson: string | URL): Promise<boolean> {
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write(userAgent(packageJson) + '\n');
    return true;
  }
  if (argv[0] === 'query') {
    const parsed = parseQueryArgs(argv.slice(1));
    if (!parsed) return false;
    await runReporting(async () => {
      const { printQuery } = await import('./print-query.js');
      await printQuery(parsed.file, parsed.request);
    });
    return true;
  }
  if (argv[0] === 'convert') {
    const parsed = parseConvertArgs(argv.slice(1));
    if (!parsed) return false;
    await runReporting(async () => {
      const { runConvertCommand } = await import('./run-convert.js');
      await runConvertCommand(parsed.positionals, parsed.flags);
    });
    return true;
  }
  return false;
}

/** The line oclif prints for --version: `<name>/<version> <platform>-<arch> node-<version>`. */
function userAgent(packageJson: string | URL): string {
  const { name, version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { name: string; version: string };
  const cpu = arch() === 'ia32' ? 'x86' : arch();
  return `${name}/${version} ${isWsl() ? 'wsl' : platform()}-${cpu} node-${process.version}`;
}

function isWsl(): boolean {
  if (platform() !== 'linux') return false;
  try {
    return readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft');
  } catch {
    return false;
  }
}

/** `query <file> [flags]`, or null for oclif. */
function parseQueryArgs(args: readonly string[]): { file: string; request: PrintQueryRequest } | null {
  const parsed = parsePlainly(args, parseArgsOptions(QUERY_FLAGS));
  if (parsed === null) return null;
  // Standard input (`-`) and anything oclif would refuse go the long way, so oclif owns those messages.
  if (parsed.positionals.length !== 1 || parsed.positionals[0] === '-') return null;
  const values = plainValues(QUERY_FLAGS, parsed.values);
  if (values === null) return null;
  return { file: parsed.positionals[0], request: { ...values, time: values.time as PrintQueryRequest['time'] } };
}

/** `convert <input> <output> [flags]` or `convert <input>... --out-dir DIR [flags]` with files named (not `-`), or null for oclif. */
function parseConvertArgs(args: readonly string[]): { positionals: string[]; flags: FlagValues<typeof CONVERT_FLAGS> } | null {
  const parsed = parsePlainly(args, parseArgsOptions(CONVERT_FLAGS));
  if (parsed === null) return null;
  // Standard streams and anything oclif would refuse go the long way, so oclif owns those messages.
  if (parsed.positionals.length === 0 || parsed.positionals.some((positional) => positional === '-' || positional.startsWith('-'))) return null;
  const flags = plainValues(CONVERT_FLAGS, parsed.values);
  if (flags === null) return null;
  return { positionals: parsed.positionals, flags };
}

/** node's strict parse of the arguments, or null when oclif must see them: unknown or repeated flags, or `--`. */
function parsePlainly<T extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: T) {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true, tokens: true });
  } catch {
    return null;
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind === 'option-terminator') return null;
    if (token.kind === 'option') {
      if (seen.has(token.name)) return null;
      seen.add(token.name);
    }
  }
  return parsed;
}

/** The same failure report as AnnotCommand.catch: one line on stderr, the mapped exit code. */
async function runReporting(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const failure = describeFailure(error);
    // The same line the oclif path prints (src/cli/base-command.ts).
    process.stderr.write(`annot: ${failure.message} [${failure.code}]\n`);
    if (process.env.ANNOT_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + '\n');
    process.exitCode = failure.exitCode;
  }
}
