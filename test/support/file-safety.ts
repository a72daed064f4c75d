import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { ANNOT_BIN } from './run-cli.js';

/**
 * Helpers for the tests that kill, fill and race the files annot writes (the "Data safety" part
 * of the project's rules): real child processes, real signals, real SQLite checks afterwards.
 */

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** An unprivileged user for tests of folders root could write anyway (root ignores directory modes). */
export const UNPRIVILEGED = { uid: 65534, gid: 65534 };

/** Whether this machine can run a child as UNPRIVILEGED (root with setpriv), or needs none (not root). */
export function unprivilegedRunner(): { prefix: string[] } | { reason: string } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const probe = spawnSync('setpriv', ['--reuid', String(UNPRIVILEGED.uid), '--regid', String(UNPRIVILEGED.gid), '--clear-groups', process.execPath, '-e', '0']);
  if (probe.status === 0) return { prefix: ['setpriv', '--reuid', String(UNPRIVILEGED.uid), '--regid', String(UNPRIVILEGED.gid), '--clear-groups'] };
  return { reason: `running as root and setpriv cannot drop to uid ${UNPRIVILEGED.uid} (${probe.error?.message ?? probe.stderr.toString().trim()})` };
}

/**
 * Starts `annot ARGS` in a real child process. `prefix` runs it through another program
 * (setpriv, prlimit); stdin stays open until the test ends it.
 */
export function startCli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; prefix?: string[]; killAfterMs?: number } = {}): RunningCli {
  const [command, ...rest] = [...(options.prefix ?? []), process.execPath, ANNOT_BIN, ...args];
  const child = spawn(command, rest, { cwd: options.cwd, env: { ...process.env, ANNOT_TOKEN: '', ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000);
  void exited.then(() => clearTimeout(killer));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs `annot ARGS` to its end. */
export async function runToEnd(args: string[], options: Parameters<typeof startCli>[1] & { input?: string } = {}) {
  const running = startCli(args, options);
  running.child.stdin.end(options.input ?? '');
  const { code, signal } = await running.exited;
  return { code, signal, stdout: running.stdout(), stderr: running.stderr() };
}

/** SQLite's own verdict on a file: 'ok', or what is wrong. (A read-only connection leaves the -wal and -shm it needs.) */
export function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** The ids of the annotations an `.annot` file holds. */
export function annotationIds(path: string): Set<string> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const ids = db.prepare('SELECT lower(hex(id)) FROM annotations').pluck().all() as string[];
    return new Set(ids.map((hex) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`));
  } finally {
    db.close();
  }
}

/** Everything beside `path` that belongs to it: SQLite side files and hidden temporaries. */
export function companionsOf(path: string): string[] {
  const name = basename(path);
  return readdirSync(dirname(path)).filter((entry) => entry.startsWith(`${name}-`) || entry.startsWith(`.${name}.`));
}

/** An SRT document of `count` one-second cues. */
export function srtOfCues(count: number, text = 'cue'): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`${i + 1}\n${clock(i)},000 --> ${clock(i)},500\n${text} ${i}\n`);
  return parts.join('\n');
}

/** A WebVTT document of `count` one-second cues. */
export function vttOfCues(count: number, text = 'cue'): string {
  const parts: string[] = ['WEBVTT\n'];
  for (let i = 0; i < count; i++) parts.push(`${clock(i)}.000 --> ${clock(i)}.500\n${text} ${i}\n`);
  return parts.join('\n');
}

function clock(second: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(second / 3600))}:${two(Math.floor(second / 60) % 60)}:${two(second % 60)}`;
}

/** Polls `check` every 10 ms until it answers true or `timeoutMs` passes (a bound, not a timing assertion). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The size of a file, 0 when it does not exist. */
export function sizeOf(path: string): number {
  return statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/** A folder an unprivileged child may write into (for its HOME: oclif keeps data there). */
export function writableFolder(path: string): string {
  if (!existsSync(path)) mkdirSync(path, { recursive: true });
  chmodSync(path, 0o777);
  return path;
}

/** The one line a refusal prints: `annot: <message> [CODE]`, and nothing else on stderr. */
export function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line on stderr, got ${lines.length}:\n${stderr}`);
  return lines[0];
}

/** The hidden temporaries in a folder (`.name.<pid>.<hex>.tmp`), whatever their target. */
export function temporariesIn(folder: string): string[] {
  return readdirSync(folder).filter((entry) => /^\..+\.\d+\.[0-9a-f]{8}\.tmp(-wal|-shm|-journal)?$/.test(entry));
}

