import { AnnotError } from '../errors/annot-error.js';

/**
 * A file that could not be written (or, for a WAL-mode SQLite file, read), said in the user's
 * terms: `path` is the file they named (never the temporary sibling it was being written through),
 * and the message says what happened.
 */
export abstract class FileAccessError extends AnnotError {
  constructor(
    /** The file or folder the operation was on. */
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The user may not write the file or its folder (EACCES, EPERM, SQLite's "unable to open"). */
export class PermissionDeniedError extends FileAccessError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_PERMISSION_DENIED';
}

/** The file lives on a file system mounted read-only (EROFS). */
export class ReadOnlyFileSystemError extends FileAccessError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_READ_ONLY_FILE_SYSTEM';
}

/** The device (or the user's quota) is full (ENOSPC, EDQUOT, SQLITE_FULL). */
export class NoSpaceError extends FileAccessError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_NO_SPACE';
}

/** The file would grow past the process's file size limit (EFBIG: `ulimit -f`, RLIMIT_FSIZE). */
export class FileTooLargeError extends FileAccessError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FILE_TOO_LARGE';
}

/** The device failed the write (EIO, SQLite's "disk I/O error"). */
export class WriteFailedError extends FileAccessError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_WRITE_FAILED';
}

/** An SQLite file another process holds open: replacing it would lose that process's writes. */
export class FileInUseError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_FILE_IN_USE';
}

/**
 * A `-wal` or `-journal` beside a missing (or non-SQLite) file: the journal of a database that was
 * deleted, which a process may still be writing. A new file put there would replay it.
 */
export class OrphanJournalError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_ORPHAN_JOURNAL';
}
