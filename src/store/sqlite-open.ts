import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, linkSync, openSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import { requireFolderOf } from '../io/atomic-file.js';
import { FileInUseError } from '../io/errors.js';
import { refuseOrphanJournal } from '../io/sqlite-target.js';
import { databaseOpened, fileIdentity, isDatabaseOpenHere } from '../io/open-databases.js';
import { removeTemporary, temporarySiblingOf, trackTemporary } from '../io/temporary-files.js';
import { writeFailure } from '../io/write-failure.js';
import { StoreFormatError } from './errors.js';
import { hasWal, inspectAnnotFile, removeReaderSideFiles, syncFile, type AnnotFileState } from './sqlite-file.js';
import { migrationPath, runMigrations } from './sqlite-migrations.js';
import { SQLITE_SCHEMA_VERSION, initializeSchema } from './sqlite-schema.js';

export interface OpenRequest {
  readonly readonly: boolean;
  readonly create: boolean;
  readonly scratch: boolean;
  readonly busyTimeoutMs: number;
}

/** A connection to an `.annot` file, checked, set up and migrated, with what closing it must do. */
export interface OpenedDatabase {
  readonly db: Database.Database;
  /** A read-only open of a file nobody else had open: closing removes the side files it made. */
  readonly cleanSideFiles: boolean;
  /** Records the close in the registry of files this process holds (io/open-databases.ts). */
  readonly closed: () => void;
}

/** How often an open starts again because the path was replaced while it was being opened. */
const OPEN_ATTEMPTS = 5;

/**
 * Opens the `.annot` file at `path` (or `:memory:`). The file is checked before anything is written
 * to it (sqlite-file.ts), created whole or not at all, and opened only once the connection holds the
 * file the path names: `annot convert` replaces a file by renaming a new one over it (under the old
 * one's lock, io/sqlite-target.ts), and a connection to the old one would write into a file nobody
 * will read again, and into side files the new one then takes for its own. A failure to write (a
 * read-only folder, a full disk) is one typed error naming the file.
 */
export function openAnnotDatabase(path: string, request: OpenRequest): OpenedDatabase {
  if (path === ':memory:') return openInMemory(request);
  try {
    if (!existsSync(path)) {
      if (request.readonly || !request.create) {
        throw new NotFoundError(`${path}: no such .annot file${request.readonly ? '' : ' (open it with create: true to make one)'}`);
      }
      // A scratch file is a temporary nobody else knows of: it is made empty, then initialised in place.
      if (request.scratch) closeSync(openSync(path, 'a'));
      else createAnnotFile(path);
    }
    for (let attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
      const opened = openAtPath(path, request);
      if (opened !== null) return opened;
    }
  } catch (error) {
    throw (request.readonly ? undefined : writeFailure(error, path)) ?? busyAsInUse(error, path, request.busyTimeoutMs);
  }
  throw new FileInUseError(`${path} was replaced by another process ${OPEN_ATTEMPTS} times while it was being opened; try again once that process is done`);
}

function openInMemory(request: OpenRequest): OpenedDatabase {
  if (request.readonly) throw new InvalidInputError('an in-memory store cannot be read-only: it starts empty');
  const db = new Database(':memory:');
  setUp(db, ':memory:', { kind: 'fresh' }, [], request);
  return { db, cleanSideFiles: false, closed: () => {} };
}

/**
 * One attempt: null when the path named another file by the time the connection held its lock (the
 * caller starts again). A path that is missing now was deleted meanwhile: created again, or refused.
 */
function openAtPath(path: string, request: OpenRequest): OpenedDatabase | null {
  if (!request.readonly) checkFolderWritable(path);
  const identity = fileIdentity(path);
  if (identity === null) {
    if (request.readonly || !request.create || request.scratch) throw new NotFoundError(`${path}: no such .annot file (it was removed while being opened)`);
    createAnnotFile(path);
    return null;
  }
  // Reading the header outside SQLite would drop this process's own locks on a file it holds open.
  const state = inspectAnnotFile(path, { readHeader: !isDatabaseOpenHere(path) });
  if (request.readonly && state.kind === 'fresh') throw new StoreFormatError(`${path} is not an .annot file: it is empty`);
  // Plan the migrations (and refuse an unreachable version) before anything touches the file.
  const steps = state.kind === 'annot' ? migrationPath(path, state.version) : [];
  if (request.readonly && steps.length > 0) {
    throw new StoreFormatError(
      `${path}: schema_version ${(state as { version: number }).version} needs upgrading to ${SQLITE_SCHEMA_VERSION}; open it once without readonly to migrate it`,
    );
  }
  const cleanSideFiles = request.readonly && !hasWal(path);
  const db = new Database(path, { readonly: request.readonly, fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${request.busyTimeoutMs}`);
    if (!holdsFileAtPath(db, path, identity)) return abandon(db, path, cleanSideFiles);
    if (!request.readonly && !request.scratch && !intoWalMode(db, path, identity, request.busyTimeoutMs)) return abandon(db, path, cleanSideFiles);
    setUp(db, path, state, steps, request);
    return { db, cleanSideFiles, closed: databaseOpened(path) };
  } catch (error) {
    db.close();
    if (cleanSideFiles) removeReaderSideFiles(path);
    throw error;
  }
}

/** A WAL-mode file is written with side files beside it: a folder this user cannot write is refused first, in those terms. */
function checkFolderWritable(path: string): void {
  accessSync(dirname(path), constants.W_OK);
}

function abandon(db: Database.Database, path: string, cleanSideFiles: boolean): null {
  db.close();
  if (cleanSideFiles) removeReaderSideFiles(path);
  return null;
}

/**
 * Whether the connection's file is the one the path names, asked while it holds a shared lock: a
 * file renamed away by `annot convert` was taken out of WAL mode first, so reading it touches no
 * side file by name, and while this read holds the lock nobody can rename the file away. The
 * path named the same file before the connection opened and after it locked: the connection holds it.
 */
function holdsFileAtPath(db: Database.Database, path: string, identity: string): boolean {
  db.exec('BEGIN');
  try {
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return fileIdentity(path) === identity;
  } finally {
    db.exec('COMMIT');
  }
}

/**
 * Switches a file out of rollback mode into WAL mode (a no-op for a file in WAL mode already), and
 * false when the path named another file by the time the switch could be made. The switch needs the
 * file's exclusive lock, for which SQLite's busy timeout does not wait: it is tried again here, and
 * before each try the path is looked at again, so a file `annot convert` renamed away meanwhile (it
 * leaves the old one in rollback mode) is never switched, which would create side files by name
 * beside the new one. A writer that keeps its lock past the timeout is FileInUseError.
 */
function intoWalMode(db: Database.Database, path: string, identity: string, timeoutMs: number): boolean {
  if (db.pragma('journal_mode', { simple: true }) === 'wal') return true;
  const deadline = Date.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 100)) {
    if (fileIdentity(path) !== identity) return false;
    try {
      db.pragma('journal_mode = WAL');
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw busyAsInUse(error, path, timeoutMs);
    }
    Atomics.wait(PAUSE, 0, 0, pause);
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** SQLite's "database is locked" after the busy timeout, said as what it is. */
export function busyAsInUse(error: unknown, path: string, timeoutMs: number): unknown {
  if ((error as { code?: unknown } | null)?.code !== 'SQLITE_BUSY') return error;
  return new FileInUseError(`${path} is locked by another process writing it (waited ${timeoutMs / 1000} s); try again once it is done`, { cause: error });
}

/** Pragmas, then the schema of a new file or the migrations of an older one. */
function setUp(db: Database.Database, path: string, state: AnnotFileState, steps: ReturnType<typeof migrationPath>, request: OpenRequest): void {
  if (request.scratch && !request.readonly) {
    // Pages of a new file need no journal to roll back; the in-memory journal covers the rest.
    db.pragma('cache_size = -16384');
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
  } else {
    db.pragma('cache_size = -65536');
    // In WAL mode (intoWalMode), synchronous=NORMAL cannot corrupt the file; a power cut may lose the last commits.
    if (!request.readonly) db.pragma('synchronous = NORMAL');
  }
  if (state.kind === 'fresh') initializeSchema(db);
  else runMigrations(db, path, steps);
}

/**
 * Creates a new `.annot` file whole: built in a temporary sibling, then linked into place, which
 * fails if another process created the file first (then theirs is opened). A file that appears
 * empty at the path would be taken by another opener for one to initialise, in its own journal mode.
 */
function createAnnotFile(path: string): void {
  requireFolderOf(path);
  refuseOrphanJournal(path);
  const temporary = temporarySiblingOf(path);
  trackTemporary(temporary);
  try {
    const db = new Database(temporary);
    try {
      db.pragma('journal_mode = WAL');
      initializeSchema(db);
    } finally {
      db.close();
    }
    syncFile(temporary);
    placeWithoutReplacing(temporary, path);
  } finally {
    removeTemporary(temporary);
  }
}

function placeWithoutReplacing(temporary: string, path: string): void {
  try {
    linkSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    // A file system without hard links: a rename, unless the file appeared meanwhile.
    if ((code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') && !existsSync(path)) renameSync(temporary, path);
    else throw error;
  }
}
