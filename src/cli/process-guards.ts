import { constants } from 'node:os';
import { WriteFailedError } from '../io/errors.js';
import { removeAllTemporaries } from '../io/temporary-files.js';
import { writeFailure } from '../io/write-failure.js';

/**
 * How an annot process ends when something outside it ends it, installed by bin/run.js before
 * anything else runs:
 *
 * - SIGINT, SIGTERM or SIGHUP, for a command without its own shutdown (convert, validate, query,
 *   render plan...): every temporary file and scratch folder is removed (io/temporary-files.ts),
 *   one line says so (`annot: interrupted: nothing written`), and the exit status is the shell's
 *   128 + the signal's number. Commands that shut down their own way (serve, mcp, worker, render
 *   scene) add their own handlers, and this one then leaves the signal to them.
 * - standard output that fails (`> /dev/full`, a file past the size limit): one typed line on
 *   stderr, exit 1, where Node and oclif would print a stack trace. A reader that went away (EPIPE)
 *   is not a failure (src/cli/output.ts).
 */
export function guardProcess(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, leaveToCommandOrExit);
  process.stdout.prependListener('error', exitOnStdoutFailure);
}

function leaveToCommandOrExit(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  exitInterrupted(signal);
}

/** Removes the temporaries, says what the run had written, and exits as the signal asks. */
export function exitInterrupted(signal: NodeJS.Signals): never {
  const { attemptedWrites, written } = removeAllTemporaries();
  const what = written.length > 0 ? ` after writing ${written.join(', ')}` : attemptedWrites ? ': nothing written' : '';
  process.stderr.write(`annot: interrupted${what}\n`);
  process.exit(128 + (constants.signals[signal] ?? 0));
}

/** Removes the temporaries and exits now with `code`: the second Ctrl-C of a command draining its work. */
export function exitNow(code: number): never {
  removeAllTemporaries();
  process.exit(code);
}

function exitOnStdoutFailure(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  const failure = writeFailure(error, 'standard output', { onDisk: false }) ?? new WriteFailedError('standard output', `cannot write standard output: ${error.message}`, { cause: error });
  removeAllTemporaries();
  process.stderr.write(`annot: ${failure.message} [${failure.code}]\n`);
  process.exit(1);
}
