import { AnnotError } from '../errors/annot-error.js';
import { exitStatusFor } from '../errors/error-table.js';
import { redactUrlCredentials } from '../text/redact-credentials.js';

/** The CLI's exit codes: the contract scripts and Makefiles rely on. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliFailure {
  message: string;
  exitCode: number;
  code: string;
}

/**
 * The one place that turns an error into what the user sees and the exit code. Our own typed
 * errors carry a message written for a person and exit 1; oclif's parse errors (bad flags,
 * missing args) are usage errors and exit 2; anything else is a bug, reported in one line with
 * its class so it is never a bare stack trace (ANNOT_DEBUG=1 shows the stack).
 */
export function describeFailure(error: unknown): CliFailure {
  const failure = failureOf(error);
  // Whatever produced the message, a URL's password never reaches the terminal.
  return { ...failure, message: redactUrlCredentials(failure.message) };
}

function failureOf(error: unknown): CliFailure {
  if (error instanceof AnnotError) {
    return { message: error.message, exitCode: exitStatusFor(error.code), code: error.code };
  }
  if (isUsageError(error)) {
    return { message: (error as Error).message, exitCode: EXIT_USAGE, code: 'ANNOT_USAGE' };
  }
  if (isSystemError(error)) {
    return { message: systemMessage(error), exitCode: EXIT_FAILURE, code: `ANNOT_SYSTEM_${error.code}` };
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return { message: `internal error (${name}): ${message}`, exitCode: EXIT_FAILURE, code: 'ANNOT_INTERNAL' };
}

function isUsageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // @oclif/core's parser errors (RequiredArgsError, UnexpectedArgsError, FlagInvalidOptionError, ...)
  // all carry `parse` details; "Nonexistent flag" and friends do too.
  const anyError = error as Error & { parse?: unknown; oclif?: { exit?: number } };
  return anyError.parse !== undefined || anyError.oclif?.exit === 2;
}

interface SystemError extends Error {
  code: string;
  path?: string;
}

function isSystemError(error: unknown): error is SystemError {
  return error instanceof Error && typeof (error as SystemError).code === 'string' && /^E[A-Z]+$/.test((error as SystemError).code);
}

function systemMessage(error: SystemError): string {
  const where = error.path ? `${error.path}: ` : '';
  switch (error.code) {
    case 'ENOENT':
      return `${where}no such file or directory`;
    case 'EACCES':
    case 'EPERM':
      return `${where}permission denied`;
    case 'EISDIR':
      return `${where}is a directory, expected a file`;
    default:
      return `${where}${error.message}`;
  }
}
