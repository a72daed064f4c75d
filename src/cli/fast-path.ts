/**
 * Start-up fast path for the commands people run in loops and pipes (`annot --version`,
 * `annot query`, `annot convert`): loading @oclif/core alone costs about twice `node -e 0`, so bin/run.js asks
 * here first. Only argument lists this module understands completely are served; anything else
 * (help, an unknown or repeated flag, a value oclif would reject) returns false and oclif runs
 * as usual, so its messages and exit codes stay the one reference.
 */
import { readFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { describeFailure } from './errors.js';
import type { PrintQueryRequest } from './print-query.js';
import type { ConvertArguments } from './run-convert.js';

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
      const { runConvert } = await import('./run-convert.js');
      await runConvert(parsed);
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

const QUERY_OPTIONS = {
  start: { type: 'string' },
  end: { type: 'string' },
  rate: { type: 'string' },
  tier: { type: 'string' },
  relation: { type: 'string' },
  from: { type: 'string' },
  fps: { type: 'string' },
  time: { type: 'string' },
} as const;

const TIME_STYLES = new Set(['seconds', 'timecode', 'ticks']);

/** `query <file> [--start S --end E --rate N --tier T --relation R --from F]`, or null for oclif. */
function parseQueryArgs(args: readonly string[]): { file: string; request: PrintQueryRequest } | null {
  const parsed = parsePlainly(args, QUERY_OPTIONS);
  if (parsed === null) return null;
  // Standard input (`-`) and anything oclif would refuse go the long way, so oclif owns those messages.
  if (parsed.positionals.length !== 1 || parsed.positionals[0] === '-') return null;
  if (parsed.values.time !== undefined && !TIME_STYLES.has(parsed.values.time)) return null;
  const { rate, time, ...rest } = parsed.values;
  const rateNumber = plainRate(rate);
  if (rateNumber === null) return null;
  return { file: parsed.positionals[0], request: { ...rest, rate: rateNumber, time: time as PrintQueryRequest['time'] } };
}

const CONVERT_OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  rate: { type: 'string' },
  encoding: { type: 'string' },
  strict: { type: 'boolean' },
  'strict-time': { type: 'boolean' },
  'asset-id': { type: 'string' },
  tier: { type: 'string' },
  variant: { type: 'string' },
} as const;

/** `convert <input> <output> [flags]` with files named (not `-`), or null for oclif. */
function parseConvertArgs(args: readonly string[]): ConvertArguments | null {
  const parsed = parsePlainly(args, CONVERT_OPTIONS);
  if (parsed === null) return null;
  // Standard streams and anything oclif would refuse go the long way, so oclif owns those messages.
  if (parsed.positionals.length !== 2 || parsed.positionals.some((positional) => positional === '-' || positional.startsWith('-'))) return null;
  const { rate, 'strict-time': strictTime, 'asset-id': assetId, ...rest } = parsed.values;
  if (Object.values(parsed.values).some((value) => typeof value === 'string' && value.startsWith('-'))) return null;
  const rateNumber = plainRate(rate);
  if (rateNumber === null) return null;
  return { input: parsed.positionals[0], output: parsed.positionals[1], ...rest, rate: rateNumber, strictTime, assetId };
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

/** `--rate` as a positive safe integer; undefined when not given, null when oclif must refuse it. */
function plainRate(rate: string | undefined): number | undefined | null {
  if (rate === undefined) return undefined;
  return /^\d+$/.test(rate) && Number(rate) >= 1 && Number.isSafeInteger(Number(rate)) ? Number(rate) : null;
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
