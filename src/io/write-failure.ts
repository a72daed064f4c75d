import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FileTooLargeError, FileAccessError, NoSpaceError, PermissionDeniedError, ReadOnlyFileSystemError, WriteFailedError } from './errors.js';

/**
 * Turns the operating system's or SQLite's report of a failed write into one typed error that
 * names the file the user asked for: `permission denied: cannot write build/x.srt (…)`,
 * `no space left on the device writing x.annot`, `file size limit exceeded writing x.annot (…)`.
 * Anything that is not a write failure (a parse error, a missing input) gives undefined, so the
 * caller keeps it as it was.
 *
 * `path` is the file named in the message. `onDisk` false says it is not a file (standard output),
 * so no folder is looked at for the reason. `writing` lists the paths being written (the target and
 * its temporary sibling): a system error naming any other path (an input) is not this write's.
 */
export function writeFailure(error: unknown, path: string, options: { onDisk?: boolean; writing?: readonly string[] } = {}): FileAccessError | undefined {
  const { onDisk = true, writing } = options;
  if (error instanceof FileAccessError) {
    // Said of a temporary sibling: said again of the target. Said of another file (an input): that file's.
    if (error.path === path) return error;
    return aboutWriting({ path: error.path }, writing) && writing !== undefined ? writeFailure(error.cause, path, options) : undefined;
  }
  if (!aboutWriting(error, writing)) return undefined;
  const kind = failureKind(error);
  if (kind === undefined) return undefined;
  const cause = { cause: error };
  switch (kind) {
    case 'permission':
      return onDisk ? accessFailure(path, error) : new PermissionDeniedError(path, `permission denied: cannot write ${path}`, cause);
    case 'read-only':
      return new ReadOnlyFileSystemError(path, `cannot write ${path}: the file system is mounted read-only`, cause);
    case 'no-space':
      return new NoSpaceError(path, `no space left on the device writing ${path}`, cause);
    case 'quota':
      return new NoSpaceError(path, `disk quota exceeded writing ${path}`, cause);
    case 'too-large':
      return new FileTooLargeError(path, `file size limit exceeded writing ${path}${limitNote()}`, cause);
    case 'io':
      return new WriteFailedError(path, `I/O error writing ${path}: ${(error as Error).message}`, cause);
  }
}

/** Whether a system error is about the paths being written: a read, or an error naming another path, is not. */
function aboutWriting(error: unknown, writing: readonly string[] | undefined): boolean {
  const { path, syscall } = (error ?? {}) as { path?: unknown; syscall?: unknown };
  if (syscall === 'read') return false;
  if (writing === undefined || typeof path !== 'string') return true;
  return writing.some((written) => path.startsWith(written));
}

type FailureKind = 'permission' | 'read-only' | 'no-space' | 'quota' | 'too-large' | 'io';

const ERRNO_KINDS: Readonly<Record<string, FailureKind>> = {
  EACCES: 'permission',
  EPERM: 'permission',
  EROFS: 'read-only',
  ENOSPC: 'no-space',
  EDQUOT: 'quota',
  EFBIG: 'too-large',
  EIO: 'io',
};

function failureKind(error: unknown): FailureKind | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return undefined;
  if (error.name === 'SqliteError') return sqliteKind(code);
  return ERRNO_KINDS[code];
}

/**
 * SQLite reports ENOSPC as SQLITE_FULL and every other failed write (EFBIG included) as an
 * SQLITE_IOERR_*; it cannot open (or create the journal of) a file it may not write.
 * better-sqlite3 does not give the errno, so a write error under a file size limit is taken to be
 * that limit. Read errors (IOERR_READ, IOERR_SHORT_READ) are not write failures.
 */
function sqliteKind(code: string): FailureKind | undefined {
  if (code === 'SQLITE_FULL') return 'no-space';
  if (code === 'SQLITE_CANTOPEN' || code.startsWith('SQLITE_CANTOPEN_') || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM') return 'permission';
  if (code.startsWith('SQLITE_IOERR') && !/READ$/.test(code)) return fileSizeLimit() === null ? 'io' : 'too-large';
  return undefined;
}

/** Permission denied, with the reason found on disk: a read-only mount, the file, or its folder (the nearest one that exists). */
function accessFailure(path: string, error: unknown): FileAccessError {
  let folder = dirname(path);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const denied = (what: string) => new PermissionDeniedError(path, `permission denied: cannot write ${path} (${what})`, { cause: error });
  for (const [candidate, what] of [
    [folder, `the folder ${folder} is not writable`],
    [path, 'the file is read-only'],
  ] as const) {
    if (candidate === path && !existsSync(path)) continue;
    try {
      accessSync(candidate, constants.W_OK);
    } catch (reason) {
      if ((reason as NodeJS.ErrnoException).code === 'EROFS') return new ReadOnlyFileSystemError(path, `cannot write ${path}: the file system is mounted read-only`, { cause: error });
      if ((reason as NodeJS.ErrnoException).code === 'EACCES') return denied(what);
    }
  }
  return new PermissionDeniedError(path, `permission denied: cannot write ${path}`, { cause: error });
}

function limitNote(): string {
  const limit = fileSizeLimit();
  return limit === null ? '' : ` (the limit is ${limit} bytes: ulimit -f, RLIMIT_FSIZE)`;
}

/** This process's file size limit in bytes (RLIMIT_FSIZE), or null when there is none or it cannot be read. */
export function fileSizeLimit(): number | null {
  let limits: string;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const soft = /^Max file size\s+(\S+)/m.exec(limits)?.[1];
  return soft === undefined || soft === 'unlimited' ? null : Number(soft);
}
