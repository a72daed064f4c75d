import { Command } from '@oclif/core';
import { describeFailure } from './errors.js';

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
    const failure = describeFailure(error);
    process.stderr.write(`annot: ${failure.message} [${failure.code}]\n`);
    if (process.env.ANNOT_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + '\n');
    if (this.wantsJson()) {
      process.stdout.write(JSON.stringify({ error: { code: failure.code, message: failure.message, exit_code: failure.exitCode } }) + '\n');
    }
    process.exitCode = failure.exitCode;
    return this.exit(failure.exitCode);
  }

  /** Whether the command line asked for JSON output, read from argv (the parse itself may be what failed). */
  private wantsJson(): boolean {
    const argv = this.argv;
    return argv.some((arg, i) => arg === '--json' || arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json'));
  }
}
