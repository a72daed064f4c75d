import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built `annot` executable, as a user runs it (tests run after `npm run build`). */
export const ANNOT_BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `annot <args>` in a real child process and collects its output. */
export function runCli(
  args: string[],
  options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ANNOT_BIN, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // ANNOT_TEST_CLI_TIMEOUT_MS: more patience on a loaded machine.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? Number(process.env.ANNOT_TEST_CLI_TIMEOUT_MS ?? 20000));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(options.input ?? '');
  });
}
