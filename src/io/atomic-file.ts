import { closeSync, openSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { NotFoundError } from '../errors/annot-error.js';
import { checkSqliteTarget, lockSqliteTarget } from './sqlite-target.js';
import { removeStaleTemporaries } from './stale-temporaries.js';
import { removeTemporary, temporaryPlaced, temporarySiblingOf, trackTemporary } from './temporary-files.js';
import { writeFailure } from './write-failure.js';

/**
 * Writes a file through a temporary sibling and renames it into place, so a failure never leaves
 * a half-written output and readers never see one. `write` receives the temporary path (an empty
 * file, made first so a folder the user cannot write is refused before any work).
 *
 * - An interrupted run removes the temporary (temporary-files.ts); one left by a killed run is
 *   removed by the next write of the same target (stale-temporaries.ts).
 * - An SQLite target another process holds open is refused, and a stale journal of it is never
 *   left beside the new file (sqlite-target.ts).
 * - A failed write is one typed error naming the target (write-failure.ts): permission denied,
 *   a read-only file system, no space left, the file size limit, an I/O error.
 */
export async function writeAtomically<T>(target: string, write: (temporaryPath: string) => Promise<T>): Promise<T> {
  requireFolderOf(target);
  removeStaleTemporaries(target);
  const temporary = temporarySiblingOf(target);
  try {
    createEmpty(temporary);
    await checkSqliteTarget(target);
    const result = await write(temporary);
    const lock = await lockSqliteTarget(target);
    try {
      renameSync(temporary, target);
      temporaryPlaced(temporary, target);
    } finally {
      lock?.release();
    }
    return result;
  } catch (error) {
    throw writeFailure(error, target, { writing: [temporary, target] }) ?? error;
  } finally {
    // SQLite may leave WAL/SHM companions of the temporary file behind.
    removeTemporary(temporary);
  }
}

/** Before any work: a missing folder is the user's to create, said in their terms (not the temporary file's ENOENT). */
export function requireFolderOf(target: string): void {
  const directory = dirname(target);
  const found = statSync(directory, { throwIfNoEntry: false });
  if (found === undefined) throw new NotFoundError(`cannot write ${target}: the folder ${directory} does not exist; create it first`);
  if (!found.isDirectory()) throw new NotFoundError(`cannot write ${target}: ${directory} is not a folder`);
}

function createEmpty(temporary: string): void {
  trackTemporary(temporary, { sibling: true });
  closeSync(openSync(temporary, 'wx'));
}
