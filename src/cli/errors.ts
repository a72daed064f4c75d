import { AnnotError } from '../errors/annot-error.js';
import { exitStatusFor, type ErrorCode } from '../errors/error-table.js';
import { isSystemError, systemFailure } from '../errors/system-error.js';
import { writeFailure } from '../io/write-failure.js';
import { redactSecrets } from '../text/secret-redaction.js';

/** The CLI's exit codes: the contract scripts and Makefiles rely on. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface CliFailure {
  message: string;
  exitCode: number;
  code: ErrorCode;
}

/**
 * The one place that turns an error into what the user sees and the exit code. Our own typed
 * errors carry a message written for a person and exit 1; oclif's parse errors (bad flags,
 * missing args) are usage errors and exit 2; anything else is a bug, reported in one line with
 * its class so it is never a bare stack trace (ANNOT_DEBUG=1 shows the stack). No credential
 * from the environment (the fal key, the server's token) is ever part of the message.
 */
export function describeFailure(error: unknown): CliFailure {
  const failure = failureOf(error);
  // Whatever produced the message, no credential (a key, a token, a URL's password) reaches the terminal.
  return { ...failure, message: redactSecrets(failure.message, SECRET_ENVIRONMENT.map((name) => process.env[name])) };
}

/** The secrets a command may hold from its environment: no error line it prints carries them. */
const SECRET_ENVIRONMENT = ['FAL_KEY', 'ANNOT_TOKEN'];

function failureOf(error: unknown): CliFailure {
  if (error instanceof AnnotError) {
    return { message: error.message, exitCode: exitStatusFor(error.code), code: error.code };
  }
  if (isUsageError(error)) {
    return { message: (error as Error).message, exitCode: EXIT_USAGE, code: 'ANNOT_USAGE' };
  }
  const diskFailure = diskFailureOf(error);
  if (diskFailure !== undefined) return { message: diskFailure.message, exitCode: exitStatusFor(diskFailure.code), code: diskFailure.code };
  if (isSystemError(error)) {
    return { ...systemFailure(error), exitCode: EXIT_FAILURE };
  }
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return { message: `internal error (${name}): ${message}`, exitCode: EXIT_FAILURE, code: 'ANNOT_INTERNAL' };
}

/**
 * A full disk, a read-only folder or the file size limit that reached this point untyped (the
 * writers type their own: io/write-failure.ts) still gets its typed code, with the path it names.
 */
function diskFailureOf(error: unknown): { message: string; code: ErrorCode } | undefined {
  if (!(error instanceof Error) || error instanceof AnnotError) return undefined;
  const path = (error as NodeJS.ErrnoException).path;
  const typed = writeFailure(error, path ?? 'a file', { onDisk: false });
  if (typed === undefined) return undefined;
  // Without the write in hand, a permission error may be a read's: say only what was refused.
  const message = typed.code === 'ANNOT_PERMISSION_DENIED' ? `permission denied: ${path ?? error.message}` : typed.message;
  return { message, code: typed.code };
}

function isUsageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // @oclif/core's parser errors (RequiredArgsError, UnexpectedArgsError, FlagInvalidOptionError, ...)
  // all carry `parse` details; "Nonexistent flag" and friends do too.
  const anyError = error as Error & { parse?: unknown; oclif?: { exit?: number } };
  return anyError.parse !== undefined || anyError.oclif?.exit === 2;
}
