import type { CliFailure } from './errors.js';

/**
 * What a failed command prints, on the oclif path (base-command.ts) and the start-up fast path
 * (fast-path.ts) alike: one line on stderr (`annot: <message> [ANNOT_CODE]`), the stack only
 * with ANNOT_DEBUG=1, and when the command line asked for JSON (`--json`, `--format json`) also
 * one JSON document on stdout, so a script reading stdout sees the code too. `args` are the
 * command's own arguments, after its name.
 */
export function reportFailure(failure: CliFailure, error: unknown, args: readonly string[]): void {
  process.stderr.write(`annot: ${failure.message} [${failure.code}]\n`);
  if (process.env.ANNOT_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + '\n');
  if (wantsJson(args)) {
    process.stdout.write(JSON.stringify({ error: { code: failure.code, message: failure.message, exit_code: failure.exitCode } }) + '\n');
  }
  process.exitCode = failure.exitCode;
}

/** Read from the arguments themselves: the parse may be what failed. */
function wantsJson(args: readonly string[]): boolean {
  return args.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && args[i + 1] === 'json'));
}
