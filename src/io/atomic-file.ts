import { randomBytes } from 'node:crypto';
import { renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file through a temporary sibling and renames it into place, so a failure never leaves
 * a half-written output and readers never see one. `write` receives the temporary path.
 */
export async function writeAtomically<T>(target: string, write: (temporaryPath: string) => Promise<T>): Promise<T> {
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

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // best effort: a leftover temporary file is harmless and its name says what it is
  }
}
