import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { NotFoundError } from '../errors/annot-error.js';

/**
 * Writes a file through a temporary sibling and renames it into place, so a failure never leaves
 * a half-written output and readers never see one. `write` receives the temporary path.
 */
export async function writeAtomically<T>(target: string, write: (temporaryPath: string) => Promise<T>): Promise<T> {
  checkDirectory(target);
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const result = await write(temporary);
    renameSync(temporary, target);
    return result;
  } catch (error) {
    removeQuietly(temporary);
    throw error;
  } finally {
    // SQLite may leave WAL/SHM companions of the temporary file behind.
    removeQuietly(`${temporary}-wal`);
    removeQuietly(`${temporary}-shm`);
  }
}

/** Before any work: a missing folder is the user's to create, said in their terms (not the temporary file's ENOENT). */
function checkDirectory(target: string): void {
  const directory = dirname(target);
  const found = statSync(directory, { throwIfNoEntry: false });
  if (found === undefined) throw new NotFoundError(`cannot write ${target}: the folder ${directory} does not exist; create it first`);
  if (!found.isDirectory()) throw new NotFoundError(`cannot write ${target}: ${directory} is not a folder`);
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // best effort: a leftover temporary file is harmless and its name says what it is
  }
}
