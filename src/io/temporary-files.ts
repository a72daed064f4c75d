import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * The temporary files and folders this process has made and not yet removed or renamed into
 * place, so that an interrupted run (Ctrl-C, SIGTERM, a failed standard output) removes them
 * before it exits instead of leaving them beside the user's files. The write-through-a-temporary
 * of atomic-file.ts and every scratch folder register here.
 */
const pending = new Set<string>();
/** Targets an atomic write has put in place, in order: what an interrupted run did write. */
const written: string[] = [];
let attempted = false;

/** The SQLite side files a temporary database may have beside it. */
export const SQLITE_SIDE_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

/**
 * The hidden temporary sibling a write of `target` goes through: `.talk.vtt.<pid>.<random>.tmp`.
 * The pid lets a later run tell a temporary whose writer is gone (stale-temporaries.ts).
 */
export function temporarySiblingOf(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Whether `name` (a file name, no folder) is a temporary sibling of `targetName`, and of which pid. */
export function temporaryOwner(name: string, targetName: string): number | null {
  const prefix = `.${targetName}.`;
  if (!name.startsWith(prefix)) return null;
  const match = /^(\d+)\.[0-9a-f]{8}\.tmp(?:-wal|-shm|-journal)?$/.exec(name.slice(prefix.length));
  return match ? Number(match[1]) : null;
}

/** Registers a temporary file or folder: an interrupted run removes it. `sibling` marks the temporary of an atomic write. */
export function trackTemporary(path: string, { sibling = false }: { sibling?: boolean } = {}): void {
  if (sibling) attempted = true;
  pending.add(path);
}

/** Whether this process has `path` registered as its own temporary. */
export function isTrackedTemporary(path: string): boolean {
  return pending.has(path);
}

/** The temporary became the target: nothing to remove any more. */
export function temporaryPlaced(path: string, target: string): void {
  pending.delete(path);
  written.push(target);
}

/** Removes a temporary file (and any SQLite side files beside it), quietly. */
export function removeTemporary(path: string): void {
  for (const file of [path, ...SQLITE_SIDE_SUFFIXES.map((suffix) => `${path}${suffix}`)]) removeQuietly(file);
  pending.delete(path);
}

/** A new scratch folder in the system's temporary folder, registered until removeScratchFolder. */
export function makeScratchFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  trackTemporary(folder);
  return folder;
}

export function removeScratchFolder(folder: string): void {
  removeQuietly(folder);
  pending.delete(folder);
}

/**
 * Removes every registered temporary, synchronously (a signal handler calls it just before the
 * process exits), and says what the run had written: nothing, or the targets already in place.
 */
export function removeAllTemporaries(): { attemptedWrites: boolean; written: readonly string[] } {
  for (const path of [...pending]) {
    removeTemporary(path);
  }
  return { attemptedWrites: attempted, written: [...written] };
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // best effort: a leftover temporary file is harmless, its name says what it is, and the next write of its target removes it
  }
}
