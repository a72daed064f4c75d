import Database from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { PermissionDeniedError } from '../io/errors.js';
import { StoreFormatError } from './errors.js';
import { ANNOT_APPLICATION_ID, ANNOT_TABLES, SQLITE_SCHEMA_VERSION } from './sqlite-schema.js';

/** What an existing path holds, decided before anything is written to it. */
export type AnnotFileState =
  | { readonly kind: 'fresh' }
  | { readonly kind: 'annot'; readonly version: number };

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

/**
 * Decides whether `path` (an existing file) is an `.annot` this build can open, reading it only:
 * the SQLite header bytes first (a text file, a truncated file), then the schema through a
 * read-only connection (another SQLite database, a newer schema version). Anything else is a
 * StoreFormatError with a one-line message naming the file, and the file is left as it was.
 * A zero-byte file and an SQLite database without any table are "fresh": SQLite itself treats them
 * as empty databases, and nothing in them can be lost.
 */
export function inspectAnnotFile(path: string, { readHeader = true }: { readHeader?: boolean } = {}): AnnotFileState {
  const stat = statSync(path);
  if (!stat.isFile()) throw formatError(path, 'it is not a regular file');
  if (stat.size === 0) return { kind: 'fresh' };
  // `readHeader` false: this process holds the file open already (see io/open-databases.ts), so it was checked.
  if (readHeader) checkHeader(path, stat.size);
  return inspectSchema(path);
}

function checkHeader(path: string, size: number): void {
  const header = Buffer.alloc(HEADER_BYTES);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read < SQLITE_MAGIC.length || !header.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
    throw formatError(path, 'it is not an SQLite database (no "SQLite format 3" header)');
  }
  if (read < HEADER_BYTES) throw formatError(path, `it is truncated (${size} bytes, shorter than the 100-byte SQLite header)`);
  const rawPageSize = header.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65536 : rawPageSize;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw formatError(path, `its SQLite header is damaged (page size ${rawPageSize})`);
  // With a -wal file beside it another connection may be checkpointing right now, growing the file
  // and its header's page count in two steps: the size check would see a truncation that is not one.
  if (hasWal(path)) return;
  // The header's page count is valid only when its change counter matches "version-valid-for".
  const pages = header.readUInt32BE(28);
  const countValid = header.readUInt32BE(24) === header.readUInt32BE(92);
  if (size % pageSize !== 0 || (countValid && pages > 0 && size < pages * pageSize)) {
    const expected = countValid && pages > 0 ? `, the header says ${pages * pageSize}` : '';
    throw formatError(path, `it is truncated (${size} bytes${expected}, pages of ${pageSize})`);
  }
}

function inspectSchema(path: string): AnnotFileState {
  const hadWal = hasWal(path);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw formatError(path, `SQLite cannot open it (${(error as Error).message})`, error);
  }
  try {
    db.pragma('busy_timeout = 5000');
    let tables: string[];
    let applicationId: number;
    try {
      tables = db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
      applicationId = db.pragma('application_id', { simple: true }) as number;
    } catch (error) {
      if (needsWritableFolder(error)) {
        throw new PermissionDeniedError(
          path,
          `permission denied: cannot read ${path}: it is an SQLite file in WAL mode, which SQLite reads only by creating ${path}-shm beside it, ` +
            `and the folder ${dirname(path)} is not writable for this user; copy the file to a folder you can write`,
          { cause: error },
        );
      }
      throw formatError(path, `its SQLite data is damaged (${(error as Error).message})`, error);
    }
    if (applicationId !== 0 && applicationId !== ANNOT_APPLICATION_ID) {
      throw formatError(path, `it is another application's SQLite database (application_id 0x${applicationId.toString(16)})`);
    }
    if (!tables.includes('meta')) {
      if (tables.length === 0 && applicationId === 0) return { kind: 'fresh' };
      throw formatError(path, `it is an SQLite database without annot's meta table (tables: ${listTables(tables)})`);
    }
    let stamped: string | undefined;
    try {
      stamped = db.prepare<[], string>("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    } catch (error) {
      throw formatError(path, `its meta table is not annot's (${(error as Error).message})`, error);
    }
    if (stamped === undefined) throw formatError(path, 'its meta table has no schema_version');
    const version = Number(stamped);
    if (!Number.isSafeInteger(version) || version < 1) throw formatError(path, `its schema_version ${JSON.stringify(stamped)} is not a version number`);
    if (version > SQLITE_SCHEMA_VERSION) {
      throw new StoreFormatError(
        `${path}: schema_version ${version} is newer than this build of annot reads (up to ${SQLITE_SCHEMA_VERSION}); upgrade annot to open it`,
      );
    }
    if (version === SQLITE_SCHEMA_VERSION) {
      const missing = ANNOT_TABLES.filter((t) => !tables.includes(t));
      if (missing.length > 0) throw formatError(path, `it lacks the table${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    }
    return { kind: 'annot', version };
  } finally {
    db.close();
    if (!hadWal) removeReaderSideFiles(path);
  }
}

/** SQLite's refusal to read a WAL-mode file whose `-shm` it cannot create (a read-only folder or mount). */
function needsWritableFolder(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_READONLY_DIRECTORY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY_CANTINIT';
}

/** Whether a WAL file sits beside `path`: some connection has it open, or a writer crashed. */
export function hasWal(path: string): boolean {
  return existsSync(`${path}-wal`);
}

/**
 * A read-only connection to a WAL file creates the `-wal` and `-shm` files it needs and cannot
 * remove them on close (only a writer checkpoints). When they were not there before and the
 * `-wal` is still empty, they hold nothing: remove them, so reading a file leaves no trace. But a
 * writer (an `annot serve`) may have opened the file meanwhile and be using them: only SQLite knows,
 * so a read-write connection is opened and closed, and SQLite deletes them only when it is the last
 * connection. A file this user may not write is left to the old rule (remove them when empty).
 */
export function removeReaderSideFiles(path: string): void {
  try {
    if (statSync(`${path}-wal`).size !== 0) return;
  } catch {
    return;
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    if (!db.readonly) {
      db.pragma('busy_timeout = 0');
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
      return;
    }
  } catch {
    return;
  } finally {
    db?.close();
  }
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
}

function listTables(tables: readonly string[]): string {
  const shown = tables.slice(0, 5).join(', ');
  return tables.length > 5 ? `${shown}, ...` : shown;
}

function formatError(path: string, what: string, cause?: unknown): StoreFormatError {
  return new StoreFormatError(`${path} is not an .annot file: ${what}`, cause === undefined ? undefined : { cause });
}

/** fsync of a closed file, so its pages are on disk before anyone renames it into place. */
export function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
