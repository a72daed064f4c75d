import { statSync } from 'node:fs';

/**
 * The SQLite files this process holds open, by device and inode. A process's POSIX locks on a file
 * all vanish when it closes any descriptor of that file, even one SQLite never saw: reading the
 * header of a file this process already has open (with fs.openSync and closeSync) would drop the
 * lock that tells other processes it is in use (sqlite-target.ts relies on that lock). Code that
 * reads such a file outside SQLite asks here first.
 */
const open = new Map<string, number>();

/** The device-and-inode key of a path, or null when it does not exist. */
export function fileIdentity(path: string): string | null {
  const stat = statSync(path, { throwIfNoEntry: false, bigint: true });
  return stat === undefined ? null : `${stat.dev}:${stat.ino}`;
}

/** Records that this process opened `path` through SQLite; the returned function records the close. */
export function databaseOpened(path: string): () => void {
  const identity = fileIdentity(path);
  if (identity === null) return () => {};
  open.set(identity, (open.get(identity) ?? 0) + 1);
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    const left = (open.get(identity) ?? 1) - 1;
    if (left === 0) open.delete(identity);
    else open.set(identity, left);
  };
}

/** Whether this process holds `path` open through SQLite. */
export function isDatabaseOpenHere(path: string): boolean {
  const identity = fileIdentity(path);
  return identity !== null && open.has(identity);
}
