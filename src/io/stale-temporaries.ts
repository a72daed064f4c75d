import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isTrackedTemporary, removeTemporary, temporaryOwner } from './temporary-files.js';

/**
 * Removes the temporary siblings of `target` that an earlier run left behind (killed with -9, or
 * by a power cut): `.talk.vtt.<pid>.<random>.tmp` and the SQLite side files of one. A temporary is
 * stale when its writer is gone. The pid in its name says who wrote it, but a pid is reused, so a
 * live process with that pid counts as the writer only if it started before the temporary was last
 * written; a temporary older than the process now holding its pid is another's, and stale.
 * Temporaries of live writers (another `annot convert` into the same file right now) are left alone.
 */
export function removeStaleTemporaries(target: string): void {
  const folder = dirname(target);
  const targetName = basename(target);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = temporaryOwner(name, targetName);
    if (pid === null) continue;
    const path = join(folder, name);
    const mainPath = path.replace(/-(wal|shm|journal)$/, '');
    if (isTrackedTemporary(mainPath)) continue;
    if (writerIsGone(pid, path)) removeTemporary(mainPath);
  }
}

/** Two seconds: the boot time /proc gives is whole seconds, and clocks drift a little. */
const START_TIME_SLACK_MS = 2000;

function writerIsGone(pid: number, path: string): boolean {
  if (!processExists(pid)) return true;
  const started = processStartMs(pid);
  if (started === null) return false;
  let modified: number;
  try {
    modified = statSync(path).mtimeMs;
  } catch {
    return false;
  }
  return started > modified + START_TIME_SLACK_MS;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * When the process `pid` started, in milliseconds since the epoch, from Linux's /proc (field 22 of
 * /proc/PID/stat counts clock ticks, 100 a second on every Linux, since the boot time in
 * /proc/stat); null elsewhere.
 */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count the fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[22 - 3]);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(bootSeconds)) return null;
    return bootSeconds * 1000 + startTicks * 10;
  } catch {
    return null;
  }
}
