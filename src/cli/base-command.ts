import { Command } from '@oclif/core';
import { nonExistentFlags, unknownFlagsMessage } from './did-you-mean.js';
import { describeFailure, type CliFailure } from './errors.js';

/**
 * Every annot command extends this, so every failure goes through src/cli/errors.ts: one clean
 * line on stderr (`annot: <message> [ANNOT_CODE]`), the mapped exit code, no stack trace unless
 * ANNOT_DEBUG=1. When the command was asked for JSON (`--json`, `--format json`), the error is
 * also one JSON document on stdout, `{"error": {"code", "message", "exit_code"}}`, so a script
 * reading stdout sees the code too.
 */
export abstract class AnnotCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    // oclif's own exit() (used for --help/--version and this.exit(n)) must pass through unchanged.
    if ((error as { code?: string }).code === 'EEXIT') throw error;
    const failure = this.withFlagHint(describeFailure(error), error);
    process.stderr.write(`annot: ${failure.message} [${failure.code}]\n`);
    if (process.env.ANNOT_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + '\n');
    if (this.wantsJson()) {
      process.stdout.write(JSON.stringify({ error: { code: failure.code, message: failure.message, exit_code: failure.exitCode } }) + '\n');
    }
    process.exitCode = failure.exitCode;
    return this.exit(failure.exitCode);
  }

  /** oclif's "Nonexistent flag: --strcit\nSee more help with --help" as one line, with the nearest flag. */
  private withFlagHint(failure: CliFailure, error: unknown): CliFailure {
    const typed = nonExistentFlags(error);
    if (typed === undefined) return failure;
    const known = Object.entries(this.ctor.flags ?? {}).filter(([, flag]) => !flag.hidden).map(([name]) => name);
    const command = [this.config.bin, ...(this.id ?? '').split(':')].filter(Boolean).join(' ');
    return { ...failure, message: unknownFlagsMessage(typed, known, command) };
  }

  /** Whether the command line asked for JSON output, read from argv (the parse itself may be what failed). */
  private wantsJson(): boolean {
    const argv = this.argv;
    return argv.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'));
  }
}
