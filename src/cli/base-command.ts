import { Command } from '@oclif/core';
import { describeFailure } from './errors.js';

/**
 * Every annot command extends this, so every failure goes through src/cli/errors.ts: one clean
 * line on stderr (`annot: <message>`), the mapped exit code, no stack trace unless ANNOT_DEBUG=1.
 */
export abstract class AnnotCommand extends Command {
  protected override async catch(error: Error & { exitCode?: number }): Promise<unknown> {
    // oclif's own exit() (used for --help/--version and this.exit(n)) must pass through unchanged.
    if ((error as { code?: string }).code === 'EEXIT') throw error;
    const failure = describeFailure(error);
    process.stderr.write(`annot: ${failure.message}\n`);
    if (process.env.ANNOT_DEBUG && error instanceof Error && error.stack) process.stderr.write(error.stack + '\n');
    process.exitCode = failure.exitCode;
    return this.exit(failure.exitCode);
  }
}
