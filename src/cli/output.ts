/**
 * Machine output: one JSON document per line on stdout, nothing else. Human text and warnings
 * go to stderr so pipes and `make` logs stay clean. A closed pipe (`annot query … | head`) ends
 * the process quietly instead of throwing EPIPE.
 */
import { once } from 'node:events';

let pipeClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    pipeClosed = true;
    process.exit(0);
  }
  throw error;
});

/** Writes one JSON line; resolves when stdout can take more (backpressure for streams of millions). */
export async function writeJsonLine(value: unknown): Promise<void> {
  if (pipeClosed) return;
  if (!process.stdout.write(JSON.stringify(value) + '\n')) await once(process.stdout, 'drain');
}

export function writeJson(value: unknown, pretty = false): void {
  process.stdout.write((pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value)) + '\n');
}

export function writeLine(text: string): void {
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
