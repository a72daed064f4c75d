import { Command } from '@oclif/core';
import { nonExistentFlags, unknownFlagsMessage } from './did-you-mean.js';
import { describeFailure, type CliFailure } from './errors.js';
import { reportFailure } from './failure-report.js';

/**
 * Every annot command extends this, so every failure goes through src/cli/errors.ts and is
 * reported as failure-report.ts says: one clean line on stderr (`annot: <message> [ANNOT_CODE]`),
 * the mapped exit code, no stack trace unless ANNOT_DEBUG=1, and with `--json` or `--format json`
 * also `{"error": {"code", "message", "exit_code"}}` on stdout.
 */
export abstract class AnnotCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    // oclif's own exit() (used for --help/--version and this.exit(n)) must pass through unchanged.
    if ((error as { code?: string }).code === 'EEXIT') throw error;
    const failure = this.withFlagHint(describeFailure(error), error);
    reportFailure(failure, error, this.argv);
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
}
