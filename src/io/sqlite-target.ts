import { closeSync, existsSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { FileInUseError, OrphanJournalError } from './errors.js';
import { isDatabaseOpenHere } from './open-databases.js';

/**
 * Renaming a new file over an SQLite database is safe only when no connection has the old one open
 * and no journal of it is left beside it. A server with the old file open keeps writing into its
 * inode and into the `-wal` it knows by name, which then belongs to the new file; a `-wal` left by
 * a killed writer is replayed over the new file when it is next opened (SQLite's "How To Corrupt
 * An SQLite Database File", §2). So before a rename over an SQLite file this module takes the
 * database's own lock, through SQLite:
 *
 * - switching the old file out of WAL mode needs every other connection closed (each holds a
 *   shared lock on the file while in WAL mode), so it fails at once when another process has it
 *   open: the write is refused in one line;
 * - otherwise the switch folds a stale WAL into the old file and removes it, with its `-shm`, and
 *   rolls back a hot `-journal`, all as SQLite's own recovery would;
 * - the exclusive lock is then held across the rename, and the old file is left in rollback mode,
 *   so a process that opened it just before the rename touches no side file by name: it finds the
 *   path now names another file and opens that one instead (sqlite-open.ts in the store).
 */
export interface ReplacementLock {
  /** Lets go of the old file (after the rename). */
  release(): void;
}

/** How long the take-over waits for a reader that is about to finish. */
const TAKE_OVER_WAIT_MS = 1000;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

let sqlite: typeof BetterSqlite3 | undefined;

/**
 * Before any work: refuses a target another process holds open, or one with an orphaned journal
 * beside it, and writes nothing to it: a conversion refused or killed after this leaves the old
 * file as it was, its bytes and its modification time (`make` goes by the time). Its lock is
 * taken and let go (probeInUse); the journal switch the rename needs waits for lockSqliteTarget,
 * once the new file is whole. Loads SQLite only when the target is an SQLite file.
 */
export async function checkSqliteTarget(target: string): Promise<void> {
  const kind = targetKind(target);
  if (kind === 'other') return;
  sqlite ??= (await import('better-sqlite3')).default;
  const db = openOld(target);
  if (db === null) return;
  try {
    probeInUse(db, target, kind);
  } finally {
    db.close();
  }
}

/**
 * Takes the old file's exclusive lock through SQLite and lets it go, reading but never writing.
 * In exclusive locking mode SQLite takes a WAL-mode file's exclusive lock at its first read (and
 * keeps its WAL index in memory, not in a `-shm`); every other connection to a WAL-mode file holds
 * a shared lock while it is open, so the lock is refused at once when another process has it
 * open. A rollback-mode file is locked by BEGIN EXCLUSIVE, refused while another process reads or
 * writes it, and rolled back with nothing in it. A WAL left by a killed writer is folded into the
 * old file when the probe closes, as any connection's close would: the database it holds is the same.
 */
function probeInUse(db: BetterSqlite3.Database, target: string, kind: Exclude<TargetKind, 'other'>): void {
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    if (kind === 'sqlite-wal') {
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
    } else {
      db.exec('BEGIN EXCLUSIVE');
      db.exec('ROLLBACK');
    }
  } catch (error) {
    // Another process holds it: refused. A file SQLite cannot read is replaced like any other (see takeOver).
    cannotOpen(error, target);
  }
}

/**
 * Right before the rename: takes the old file's exclusive lock (refusing as checkSqliteTarget
 * does), or null when the target is not an SQLite file and there is nothing to lock.
 */
export async function lockSqliteTarget(target: string): Promise<ReplacementLock | null> {
  const kind = targetKind(target);
  if (kind === 'other') return null;
  sqlite ??= (await import('better-sqlite3')).default;
  const db = takeOver(target);
  if (db === null) return null;
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    throw busy(error) ? inUse(target) : error;
  }
  // Out of WAL mode, under the exclusive lock, nobody can be using a -shm: SQLite may leave one.
  rmSync(`${target}-shm`, { force: true });
  return {
    release: () => {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
    },
  };
}

type TargetKind = 'other' | 'sqlite' | 'sqlite-wal';

/**
 * What is at the target: an SQLite file (in WAL mode or not) or anything else. Anything else with
 * a `-wal` or `-journal` beside it is refused: that journal is a deleted database's, whose process
 * may still be writing it. A `-shm` alone is stale (a WAL connection always has its `-wal`).
 */
function targetKind(target: string): TargetKind {
  const header = readHeader(target);
  if (header !== null && header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return header[18] === 2 ? 'sqlite-wal' : 'sqlite';
  refuseOrphanJournal(target, header === null ? 'a missing' : 'a non-SQLite');
  return 'other';
}

/**
 * Before a new SQLite file is put at `target` (where no SQLite file is): a `-wal` or `-journal` there
 * would be replayed into it, and may belong to a process still writing a deleted database, so it is
 * refused (OrphanJournalError); a `-shm` alone is stale and removed.
 */
export function refuseOrphanJournal(target: string, what = 'a missing'): void {
  const journal = [`${target}-wal`, `${target}-journal`].find((side) => existsSync(side));
  if (journal !== undefined) {
    throw new OrphanJournalError(
      `${journal} is beside ${what} ${target}: it is the journal of a database that was deleted or replaced, ` +
        `and a process may still be writing it. Once no annot process uses it, remove ${target}-wal, ${target}-shm and ${target}-journal, or write to another file; nothing was written`,
    );
  }
  rmSync(`${target}-shm`, { force: true });
}

/** The first 100 bytes of the target, or null when there is no file. */
function readHeader(target: string): Buffer | null {
  if (!statSync(target, { throwIfNoEntry: false })?.isFile()) return null;
  if (isDatabaseOpenHere(target)) throw new FileInUseError(`${target} is open in this very process; write to another file; nothing was written`);
  const header = Buffer.alloc(100);
  const fd = openSync(target, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  return header;
}

/**
 * Opens the old file and switches it out of WAL mode: fails (FileInUseError) when another
 * connection holds it, else SQLite checkpoints a stale WAL into it and deletes the WAL and -shm.
 * A file SQLite cannot take over (damaged, or not writable) is null, to be replaced like any
 * other file, unless a journal beside it says someone may still be writing it.
 */
function takeOver(target: string): BetterSqlite3.Database | null {
  const db = openOld(target);
  if (db === null) return null;
  try {
    db.pragma('journal_mode = DELETE');
    return db;
  } catch (error) {
    db.close();
    return cannotOpen(error, target);
  }
}

/** A connection to the old file, without a write: null (or FileInUseError) as takeOver says. */
function openOld(target: string): BetterSqlite3.Database | null {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new sqlite!(target, { fileMustExist: true });
    db.pragma(`busy_timeout = ${TAKE_OVER_WAIT_MS}`);
    return db;
  } catch (error) {
    db?.close();
    return cannotOpen(error, target);
  }
}

function cannotOpen(error: unknown, target: string): null {
  if (busy(error)) throw inUse(target);
  const journal = [`${target}-wal`, `${target}-journal`].find((side) => existsSync(side));
  if (journal === undefined) return null;
  throw new FileInUseError(
    `cannot replace ${target} safely: SQLite cannot open it (${(error as Error).message}), and ${journal} beside it may belong to a process still writing it; ` +
      'once no annot process uses it, remove the file and its -wal, -shm and -journal, or write to another file; nothing was written',
    { cause: error },
  );
}

function busy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

function inUse(target: string): FileInUseError {
  return new FileInUseError(`${target} is open in another process (an annot serve, mcp or worker?): stop it, or write to another file; nothing was written`);
}
