import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresStore } from '../../src/store/postgres.js';
import { POSTGRES_URL, postgresUnreachable } from '../support/postgres.js';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';
import { shellBlocks, type ReadmeCommand } from './readme-commands.js';

/**
 * The README runs as written: its set-up command and every shell block of its tour, in order, in
 * a scratch copy of the repository (the built dist/ and node_modules/ linked, not copied), with
 * PostgreSQL and Redis as in CI. A command exits with the status its `# exit N` comment announces,
 * else 0. `annot` is bin/annot found on the PATH, as the set-up puts it there. `annot serve` and
 * `annot worker` run in the background until their section ends (a fixed `--port N` becomes a
 * free port, and `localhost:N` / `localhost:PORT` follow it); `curl` fails on an HTTP error
 * (`--fail-with-body`); the tour's PostgreSQL project and Redis queue get names of their own per run. Nothing
 * here waits on the clock: servers are ready when they say so, within generous deadlines.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const SETUP = shellBlocks(README, '## Set up');
const TOUR = shellBlocks(README, '## Tour');
const REDIS_URL = process.env.ANNOT_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Deadlines, not timings: a command or a server still going after this is stuck. */
const COMMAND_DEADLINE_MS = 300_000;
const READY_DEADLINE_MS = 120_000;
const SECTION_DEADLINE_MS = 30 * 60_000;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

interface Background {
  readonly text: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

const sections = new Map<string, ReadmeCommand[]>();
for (const block of TOUR) sections.set(block.section, [...(sections.get(block.section) ?? []), ...block.commands]);

const services = Promise.all([postgresUnreachable(), redisUnreachable(REDIS_URL)]);

describe('the README, run as written', () => {
  let scratch = '';
  let env: NodeJS.ProcessEnv = {};
  let unreachable: string | null = null;
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  /** `--port N` as written → the port the server really listens on; PORT → the last server's. */
  const ports = new Map<string, string>();
  let running: Background[] = [];
  /** The jobs `annot process --queue` put on the tour's queue, which its worker must finish before it stops. */
  let queuedJobs: string[] = [];
  /** The PostgreSQL projects the tour made, dropped at the end. */
  const projects = new Set<string>();
  /** The S3-compatible server "Rendering as a team" uses (s3rver here, with no bucket until the tour makes one). */
  let s3: S3TestServer | undefined;

  beforeAll(async () => {
    const [postgres, redis] = await services;
    unreachable = postgres !== null ? `PostgreSQL at ${POSTGRES_URL}: ${postgres}` : redis !== null ? `Redis at ${REDIS_URL}: ${redis}` : null;
    if (unreachable !== null && process.env.CI !== 'true') console.warn(`\n!!! ${unreachable}: SKIPPING the README tour. Start PostgreSQL and Redis (see .ci/run). !!!\n`);
    scratch = mkdtempSync(join(tmpdir(), 'annot-readme-'));
    for (const entry of ['fixtures', 'bin', 'package.json', 'oclif.manifest.json', 'README.md']) cpSync(join(ROOT, entry), join(scratch, entry), { recursive: true, verbatimSymlinks: true });
    for (const entry of ['dist', 'node_modules', 'schemas']) symlinkSync(join(ROOT, entry), join(scratch, entry));
    // The set-up's `npm install` has been done (it is this checkout's); anything else asked of npm is a mistake.
    const shims = join(scratch, '.shims');
    mkdirSync(shims);
    writeFileSync(join(shims, 'npm'), '#!/bin/sh\n[ "$1" = install ] && exit 0\necho "the README tour test runs no npm but npm install" >&2\nexit 1\n');
    chmodSync(join(shims, 'npm'), 0o755);
    s3 = await startS3Server();
    env = { ...process.env, ...s3.env, PATH: `${shims}:${join(scratch, 'bin')}:${process.env.PATH}`, ANNOT_CACHE_DIR: join(scratch, '.cache'), ANNOT_PG_URL: POSTGRES_URL, ANNOT_REDIS_URL: REDIS_URL };
    for (const name of ['FAL_KEY', 'ANNOT_TOKEN', 'ANNOT_DEBUG']) delete env[name];
  }, SECTION_DEADLINE_MS);

  afterAll(async () => {
    await stopAll();
    for (const url of projects) await PostgresStore.open(url).then((store) => store.dropProject(), () => undefined);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    await s3?.close();
  }, SECTION_DEADLINE_MS);

  it('gives exactly two set-up commands: install and render offline, and npm test', () => {
    expect(SETUP.map((block) => block.commands.map((command) => command.text))).toEqual([
      ['npm install && export PATH="$PWD/bin:$PATH" && annot render scene fixtures/scenes/lighthouse.yaml --out build/media'],
      ['npm test'],
    ]);
    // annot is called as the set-up puts it on the PATH, never through npx (seconds per call).
    expect([...SETUP, ...TOUR].flatMap((block) => block.commands).filter((command) => /\bnpx\b/.test(command.text))).toEqual([]);
    expect(README).not.toContain('ANNOT="npx annot"');
  });

  it('set-up: installs, puts annot on the PATH and renders the example scene with the local provider', async () => {
    if (skip()) return;
    const [install] = SETUP[0].commands;
    await expectStatus(install);
    expect(readFileSync(join(scratch, 'build', 'media', 'The_Last_Keeper.manifest.json'), 'utf8')).toContain('"scene_sha256"');
  }, SECTION_DEADLINE_MS);

  for (const [section, commands] of sections) {
    it(`tour: ${section}`, async () => {
      if (skip()) return;
      try {
        for (const command of commands) {
          if (/^annot (serve|worker|render worker)\b/.test(command.text)) await startBackground(command);
          else await expectStatus(command);
        }
      } finally {
        await stopAll();
      }
    }, SECTION_DEADLINE_MS);
  }

  function skip(): boolean {
    if (unreachable === null) return false;
    if (process.env.CI === 'true') throw new Error(`${unreachable}: CI must run the README tour`);
    return true;
  }

  /** The command as this run executes it: its servers' real ports, its own PostgreSQL project, curl failing on HTTP errors. */
  function rewrite(text: string): string {
    const base = POSTGRES_URL.split('?')[0];
    return text
      .replace(/postgres:\/\/postgres@127\.0\.0\.1:5432\/test\?project=(\w+)/g, (_, project: string) => {
        const url = `${base}?project=${project}_${suffix}`;
        projects.add(url);
        return url;
      })
      .replace(/localhost:(\d+|PORT)\b/g, (whole, port: string) => `localhost:${ports.get(port) ?? (port === 'PORT' ? whole : port)}`)
      .replace(/(^|&& |\| )curl -s /g, '$1curl -s --fail-with-body ')
      // The tour's queue is its own, so another run's worker on the same Redis never takes its jobs.
      .replace(/^(annot worker .*|annot process .* --queue\b.*)$/, `$1 --queue-name annot-tour-${suffix}`)
      .replace(/^(annot render worker .*|annot render (scene|beat|shot) .* --queue\b.*)$/, `$1 --queue-name annot-tour-render-${suffix}`);
  }

  async function expectStatus(command: ReadmeCommand): Promise<void> {
    const text = rewrite(command.text);
    const ran = await run(text);
    if (/^annot process .* --queue\b/.test(text) && ran.status === 0) queuedJobs.push(ran.stdout.trim());
    const shown = `README line ${command.line}: ${text}\nexit ${ran.status}, expected ${command.expectedStatus}\n--- stdout\n${ran.stdout.slice(-4000)}\n--- stderr\n${ran.stderr.slice(-4000)}`;
    expect({ status: ran.status, command: shown }).toEqual({ status: command.expectedStatus, command: shown });
  }

  function run(text: string): Promise<Ran> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-o', 'pipefail', '-c', text], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const killer = setTimeout(() => child.kill('SIGKILL'), COMMAND_DEADLINE_MS);
      child.on('error', reject);
      child.on('close', (status) => {
        clearTimeout(killer);
        resolve({ status, stdout, stderr });
      });
    });
  }

  /** Starts a server or worker the README runs in its own terminal, and waits until it says it is ready. */
  async function startBackground(command: ReadmeCommand): Promise<void> {
    const fixedPort = /--port (\d+)/.exec(command.text)?.[1];
    const text = rewrite(command.text).replace(/--port \d+/, '--port 0');
    const child = spawn('bash', ['-c', `exec ${text}`], { cwd: scratch, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    const started: Background = { text, child, output: () => output, exited };
    running.push(started);
    const ready = new Promise<string>((resolve, reject) => {
      const look = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /annot serve: listening on http:\/\/[^:\s]+:(\d+)/.exec(output);
        if (url) resolve(url[1]);
        else if (/annot (render )?worker: ready/.test(output)) resolve('');
      };
      child.stdout!.on('data', look);
      child.stderr!.on('data', look);
      void exited.then((status) => reject(new Error(`README line ${command.line}: ${text} exited with ${status} before it was ready:\n${output}`)));
      setTimeout(() => reject(new Error(`README line ${command.line}: ${text} not ready within ${READY_DEADLINE_MS} ms:\n${output}`)), READY_DEADLINE_MS).unref();
    });
    const port = await ready;
    if (port !== '') {
      ports.set('PORT', port);
      if (fixedPort !== undefined) ports.set(fixedPort, port);
    }
  }

  /** Stops what the section started (SIGTERM, as Ctrl-C would), each of which must end cleanly. */
  async function stopAll(): Promise<void> {
    const stopping = running;
    running = [];
    ports.clear();
    const jobs = queuedJobs;
    queuedJobs = [];
    const failures: string[] = [];
    for (const background of stopping) {
      if (background.text.startsWith('annot worker')) failures.push(...(await jobsFinished(background, jobs)));
      background.child.kill('SIGTERM');
      const killer = setTimeout(() => background.child.kill('SIGKILL'), READY_DEADLINE_MS);
      const status = await background.exited;
      clearTimeout(killer);
      if (status !== 0) failures.push(`${background.text} ended with ${status} on SIGTERM:\n${background.output().slice(-4000)}`);
    }
    if (failures.length > 0) throw new Error(failures.join('\n'));
  }
});

/** Waits (within a deadline) until the worker has finished each job; what it did not complete, as failures. */
async function jobsFinished(worker: Background, jobs: readonly string[]): Promise<string[]> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  const finished = (job: string) => new RegExp(`job ${job} \\(\\S+\\) (completed|failed for good)`).exec(worker.output())?.[1];
  while (jobs.some((job) => finished(job) === undefined) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return jobs.filter((job) => finished(job) !== 'completed').map((job) => `${worker.text} did not complete job ${job}:\n${worker.output().slice(-4000)}`);
}

/** Why Redis cannot be reached (a PING on its port), or null when it can. */
function redisUnreachable(url: string): Promise<string | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    const done = (why: string | null) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(3000, () => done('no answer within 3 s'));
    socket.on('error', (error) => done(error.message));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG') ? null : `answered ${JSON.stringify(data.toString())}`));
  });
}
