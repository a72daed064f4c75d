import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ANNOT_BIN } from './run-cli.js';

export interface ServedCli {
  readonly child: ChildProcessWithoutNullStreams;
  /** `http://127.0.0.1:port`, from the first stdout line. */
  readonly url: string;
  /** Everything written to stderr so far. */
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts the built `annot serve ARGS` in a real child process and waits for the URL on its first
 * stdout line. A server still running after `killAfterMs` (60 s) is killed, so a failed test never
 * leaves one behind; a suite that keeps one for all its cases gives more.
 */
export function serveCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; killAfterMs?: number } = {}): Promise<ServedCli> {
  const child = spawn(process.execPath, [ANNOT_BIN, 'serve', ...args], { cwd: options.cwd, env: { ...process.env, ANNOT_TOKEN: '', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
  // Our end of its stdin stays open after the exit (a child's close waits only for stdout and stderr).
  void exited.then(() => {
    clearTimeout(killer);
    child.stdin.destroy();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^annot serve: listening on (http:\/\/\S+)\n/.exec(out);
      if (match) {
        resolve({
          child,
          url: match[1],
          stderr: () => err,
          exited,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then(({ code }) => reject(new Error(`annot serve exited with ${code} before listening: ${err}`)));
  });
}

/** Polls `check` every 50 ms until it answers true or `timeoutMs` (30 s) passes: a generous bound for a busy machine, not a timing assertion. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
