import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN } from '../support/run-cli.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

// `annot --version`, `annot query`, `annot validate` and `annot convert` must load only what they use: a stray
// static import of the server, MCP, queue, PostgreSQL, telemetry or render code would slow every
// start-up (see bench/startup.bench.js). Each case runs a real process with a resolve hook that
// records every module loaded, then checks the package names and our own source folders.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOOK = fileURLToPath(new URL('../support/record-loads.mjs', import.meta.url));
/**
 * bin/run.js loads the fast path as one bundle (bin/load-fast-path.js), whose modules no hook sees
 * resolved: each case also runs the same command line from the modules in dist/src, where the hook
 * sees our source folders. The packages are checked on both.
 */
const FROM_MODULES = fileURLToPath(new URL('../support/run-fast-path-modules.mjs', import.meta.url));

const HEAVY_PACKAGES = [/^fastify$/, /^@fastify\//, /^@modelcontextprotocol\//, /^bullmq$/, /^ioredis$/, /^pg(-.*)?$/, /^@opentelemetry\//, /^cli-progress$/];
const HEAVY_SOURCES = ['server', 'mcp', 'processors', 'render', 'telemetry'];

interface Loads {
  /** Every file the process resolved (node: built-ins left out). */
  files: Set<string>;
  packages: Set<string>;
  sources: Set<string>;
}

function run(args: string[], logFile: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', HOOK, ...args], { env: { ...process.env, ...env, ANNOT_LOAD_LOG: logFile }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** What the hook recorded; a missing or empty log means the hook did not run, which must not pass as "loaded nothing". */
function readLoads(logFile: string): Loads {
  const lines = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean) : [];
  if (lines.length === 0) throw new Error(`the load hook recorded nothing in ${logFile}: it did not run, so nothing can be said about what was loaded`);
  const files = new Set<string>();
  const packages = new Set<string>();
  const sources = new Set<string>();
  for (const line of lines) {
    if (line.startsWith('node:')) continue;
    const path = line.startsWith('file:') ? fileURLToPath(line) : line;
    files.add(path);
    const pkg = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path.split(/node_modules[\\/](?=.*node_modules)/).pop() ?? '');
    if (pkg) packages.add(pkg[1].replace(/\\/g, '/'));
    else {
      const source = /[\\/]dist[\\/]src[\\/]([^\\/]+)[\\/]/.exec(path);
      if (source) sources.add(source[1]);
    }
  }
  return { files, packages, sources };
}

/** The command line through bin/run.js (the bundle) and from the modules: the same exit code and stderr, no package the modules do not load. */
async function runBoth(args: string[], logFile: () => string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string; loads: Loads }> {
  const [binLog, modulesLog] = [logFile(), logFile()];
  const bin = await run([ANNOT_BIN, ...args], binLog, env);
  const modules = await run([FROM_MODULES, ...args], modulesLog, env);
  expect({ code: modules.code, stderr: modules.stderr }).toEqual(bin);
  const [binLoads, modulesLoads] = [readLoads(binLog), readLoads(modulesLog)];
  expect(binLoads.files).toContain(ANNOT_BIN);
  // The bundle requires ES-module packages (require(esm)), whose own imports the hook may not see: a subset, never more.
  expect([...binLoads.packages].filter((name) => !modulesLoads.packages.has(name))).toEqual([]);
  return { ...bin, loads: modulesLoads };
}

function heavy(loads: Loads): string[] {
  return [
    ...[...loads.packages].filter((name) => HEAVY_PACKAGES.some((pattern) => pattern.test(name))),
    ...HEAVY_SOURCES.filter((folder) => loads.sources.has(folder)).map((folder) => `src/${folder}`),
  ];
}

describe('start-up loads only what the command uses', () => {
  const { dir, cleanup } = tempDir();
  const annot = join(dir, 'talk.annot');
  const vtt = join(ROOT, 'fixtures', 'talk.vtt');
  let n = 0;
  const logFile = () => join(dir, `loads-${n++}.log`);
  beforeAll(() => writeSampleAnnot(annot));
  afterAll(cleanup);

  it('annot --version loads no package at all (not even oclif)', async () => {
    const log = logFile();
    const result = await run([ANNOT_BIN, '--version'], log);
    expect(result.code).toBe(0);
    const loads = readLoads(log);
    expect(loads.files).toContain(ANNOT_BIN); // the hook saw the entry point
    expect([...loads.packages]).toEqual([]);
  });

  it('annot query with a window loads better-sqlite3 and nothing heavy, and skips oclif', async () => {
    const { loads, ...result } = await runBoth(['query', annot, '--start', '0', '--end', '10', '--tier', 'words'], logFile);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect([...loads.packages].sort()).toEqual(['better-sqlite3', 'bindings', 'file-uri-to-path']);
    expect(heavy(loads)).toEqual([]);
  });

  it('annot validate loads no server, MCP, queue, PostgreSQL, telemetry or render code, and skips oclif', async () => {
    const { loads, ...result } = await runBoth(['validate', vtt], logFile);
    expect(result.code).toBe(0);
    expect(loads.sources).toContain('adapters'); // the hook saw the reader validate uses
    expect(loads.packages.has('@oclif/core')).toBe(false);
    expect(heavy(loads)).toEqual([]);
  });

  it('annot convert between subtitle files loads no package at all (no oclif, no OpenTelemetry API)', async () => {
    const { loads, ...result } = await runBoth(['convert', vtt, join(dir, 'talk.srt')], logFile);
    expect(result.code).toBe(0);
    expect(loads.sources).toContain('adapters'); // the hook saw the format code convert uses
    expect([...loads.packages]).toEqual([]);
  });

  it('annot render scene skips oclif (here refusing a scene under --strict, before any render)', async () => {
    const lighthouse = join(ROOT, 'fixtures', 'scenes', 'lighthouse.yaml');
    const { loads, ...result } = await runBoth(['render', 'scene', lighthouse, '--strict', '--manifest', join(dir, 'lighthouse.manifest.json')], logFile, { ANNOT_CACHE_DIR: join(dir, 'cache'), FAL_KEY: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[ANNOT_SCENE_FINDINGS]');
    expect(loads.sources).toContain('render'); // the hook saw the scene job
    expect(loads.packages.has('@oclif/core')).toBe(false);
  });

  it('annot render timeline skips oclif (here refusing a missing manifest)', async () => {
    const { loads, ...result } = await runBoth(['render', 'timeline', join(dir, 'scene.vtt'), '--manifest', join(dir, 'missing.manifest.json')], logFile);
    expect(result.code).toBe(1);
    expect(loads.sources).toContain('render'); // the hook saw the timeline writer
    expect(loads.packages.has('@oclif/core')).toBe(false);
  });

  it('annot serve skips oclif (here refusing --no-save for an in-memory store, after loading the server)', async () => {
    const { loads, ...result } = await runBoth(['serve', '--no-save'], logFile, { ANNOT_TOKEN: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[ANNOT_INVALID_INPUT]');
    expect(loads.packages).toContain('fastify'); // the hook saw the server serve loads
    expect(loads.packages.has('@oclif/core')).toBe(false);
  });

  it.each(['query', 'validate'])('the %s command module alone imports nothing heavy', async (command) => {
    const log = logFile();
    const module = join(ROOT, 'dist', 'commands', `${command}.js`);
    const result = await run(['--input-type=module', '-e', `await import(${JSON.stringify(module)})`], log);
    expect(result.code).toBe(0);
    const loads = readLoads(log);
    expect(loads.files).toContain(module); // the hook saw the command module itself
    expect(heavy(loads)).toEqual([]);
  });
});
