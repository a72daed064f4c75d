import { terminalBar } from './terminal-bar.js';

/**
 * The terminal display of a batch conversion: one cli-progress bar on stderr with files done of
 * total, failures and the time left. Lines said while it runs (findings, warnings, failures) are
 * printed above it. cli-progress loads only when the bar is shown.
 */
export interface BatchProgress {
  done(failed: boolean): void;
  /** Prints a line above the bar. */
  say(text: string): void;
  stop(): void;
}

export async function batchProgress(total: number): Promise<BatchProgress> {
  const bar = await terminalBar(process.stderr, '{bar} {value}/{total} files | {failed} failed | ETA {eta_formatted}');
  let done = 0;
  let failed = 0;
  bar.start(total, 0, { failed });
  // An interrupted run exits from its signal handler (process-guards.ts): the terminal gets its cursor back.
  const restore = (): void => bar.stop();
  process.once('exit', restore);
  return {
    done(failure) {
      done++;
      if (failure) failed++;
      bar.update(done, { failed });
    },
    say(text) {
      // Clear the bar's line, print, and draw the bar again below.
      process.stderr.write(`\r\x1b[K${text}\n`);
      bar.render();
    },
    stop() {
      bar.stop();
      process.removeListener('exit', restore);
    },
  };
}
