import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN, runCli, type CliResult } from '../support/run-cli.js';

export const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));
export const LIGHTHOUSE_MAKEFILE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.mk', import.meta.url));

/** A temp directory holding a fresh cache, for one test file. */
export function cliDir(): { dir: string; cacheDir: string; env: NodeJS.ProcessEnv; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'annot-render-cli-'));
  const cacheDir = join(dir, 'cache');
  // No key from the machine leaks into the tests; the placeholder speech keeps them fast and the same everywhere.
  const env = { ANNOT_CACHE_DIR: cacheDir, FAL_KEY: '', ANNOT_LOCAL_SPEECH: 'placeholder' };
  return { dir, cacheDir, env, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function render(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60000): Promise<CliResult> {
  return runCli(['render', ...args], { env, timeoutMs });
}

/** The JSON lines of stdout; throws when any line is not JSON (stdout must carry nothing else). */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

/** Starts `annot <args>` and hands back the child, for tests that signal it. */
export function startCli(args: string[], env: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [ANNOT_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
}
