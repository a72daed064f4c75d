/**
 * Machine output: one JSON document per line on stdout, nothing else. Human text and warnings
 * go to stderr so pipes and `make` logs stay clean.
 *
 * A closed pipe (`annot validate bad.eaf | head -1`) never changes the exit status: once stdout
 * reports EPIPE, writing stops (every later write is dropped, a pending drain is released) and
 * the command runs to its end and exits with the status it would have had. Streaming commands
 * ask stdoutClosed() to stop early.
 */
import { once } from 'node:events';

let pipeClosed = false;
const closedListeners = new Set<() => void>();

// Any other failure of stdout (a full disk) ends the process in one line: src/cli/process-guards.ts.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') return;
  pipeClosed = true;
  for (const listener of closedListeners) listener();
  closedListeners.clear();
});

/** Whether the reader of stdout has gone away (a `| head` that had enough). */
export function stdoutClosed(): boolean {
  return pipeClosed;
}

/** Writes one JSON line; resolves when stdout can take more (backpressure for streams of millions). */
export async function writeJsonLine(value: unknown): Promise<void> {
  if (pipeClosed) return;
  if (!process.stdout.write(JSON.stringify(value) + '\n')) await drainedOrClosed();
}

/** Writes texts that are already JSON, one per line, in chunks that respect backpressure. */
export async function writeTextLines(lines: readonly string[]): Promise<void> {
  for (let at = 0; at < lines.length && !pipeClosed; at += 1000) {
    if (!process.stdout.write(lines.slice(at, at + 1000).join('\n') + '\n')) await drainedOrClosed();
  }
}

export function writeJson(value: unknown, pretty = false): void {
  if (pipeClosed) return;
  process.stdout.write((pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) + '\n');
}

export function writeLine(text: string): void {
  if (pipeClosed) return;
  process.stdout.write(text + '\n');
}

/** Notices, warnings and progress: stderr, so stdout carries only results. */
export function notice(text: string): void {
  process.stderr.write(text + '\n');
}

/** Whether stdout is a terminal (progress bars and tables) or a pipe (JSON lines only). */
export function stdoutIsTerminal(): boolean {
  return Boolean(process.stdout.isTTY);
}

async function drainedOrClosed(): Promise<void> {
  if (pipeClosed) return;
  let release = (): void => {};
  const closed = new Promise<void>((resolve) => {
    release = resolve;
    closedListeners.add(resolve);
  });
  try {
    await Promise.race([once(process.stdout, 'drain'), closed]);
  } finally {
    closedListeners.delete(release);
  }
}
