import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fencedBlocks } from '../readme/readme-commands.js';

/**
 * The package as a user installs it, not as the repository's tests import it: one `npm pack` of
 * the built repository, publint and Are The Types Wrong on that tarball, then one `npm install` of
 * it into an empty project (`--prefer-offline`: npm's cache serves what the repository's own
 * install fetched). Two consumer projects compile there under `strict` with `skipLibCheck: false`,
 * one with `moduleResolution: nodenext` (the README's three library programs, as written, and
 * annot/postgres's store) and one with `bundler` (the same tasks in one program, with every
 * subpath's types), and both run. A file missing from `files`, a declaration that names a
 * devDependency's types, or an `exports` condition one resolution cannot follow fails here.
 *
 * Nothing waits on the clock: each step is a child process with a generous deadline.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const LIBRARY = fencedBlocks(README, '## Tour', 'ts').filter((block) => block.section === 'The library');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const BIN = join(ROOT, 'node_modules', '.bin');
const STEP_DEADLINE_MS = 15 * 60_000;
const INSTALL_DEADLINE_MS = 25 * 60_000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end. The environment loses npm's own `npm_*` variables (set when this
 * runs under `npm test`): a nested npm would take the repository for its project.
 */
function run(command: string, args: string[], cwd: string, deadlineMs = STEP_DEADLINE_MS): Promise<Ran> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: { ...env, NO_COLOR: '1' }, timeout: deadlineMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`));
      else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

function shown(ran: Ran): string {
  return `exit ${ran.code}\n--- stdout\n${ran.stdout.slice(-6000)}\n--- stderr\n${ran.stderr.slice(-6000)}`;
}

async function expectSuccess(command: string, args: string[], cwd: string, deadlineMs?: number): Promise<Ran> {
  const ran = await run(command, args, cwd, deadlineMs);
  if (ran.code !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${shown(ran)}`);
  return ran;
}

/** The resolutions attw's esm-only profile leaves out (its JSON lists their problems all the same). */
const ESM_ONLY_IGNORES = ['node10', 'node16-cjs'];

const STRICT = { strict: true, skipLibCheck: false, target: 'ES2022', noEmitOnError: true, forceConsistentCasingInFileNames: true };

/** One consumer program of the bundler project: the tasks of the README's programs, written another way. */
const BUNDLER_PROGRAM = `
import {
  ALLEN_RELATIONS,
  LocalProvider,
  SqliteStore,
  TimeInterval,
  convertFile,
  iterRenderScene,
  parseAllenRelation,
  relate,
  type AllenRelation,
  type SceneUnitResult,
} from 'annot';
import type { PostgresStore, PostgresStoreOptions } from 'annot/postgres';
import type { ServeOptions } from 'annot/server';
import type { McpServerOptions } from 'annot/mcp';
import type { JobStatus } from 'annot/queue';
import type { ProcessorWorkerOptions } from 'annot/worker';
import type { RenderFarmOptions } from 'annot/render-farm';

// annot/postgres's store, by type: the same contract as the SQLite store.
async function countIn(store: PostgresStore | SqliteStore): Promise<number> {
  return store.count();
}
const pgOptions: PostgresStoreOptions = {};
const subpathTypes: [ServeOptions?, McpServerOptions?, JobStatus?, ProcessorWorkerOptions?, RenderFarmOptions?] = [];

const store = await SqliteStore.open('talk.annot', { readonly: true });
const second = TimeInterval.fromSeconds('1', '2', 1000);
const relations: AllenRelation[] = ALLEN_RELATIONS.filter((name) => name !== 'before' && name !== 'after');
const around = await store.relate(second, relations);
const inside = await store.relate(second, [parseAllenRelation('during')]);
const word = inside[0];
const placed = word && word.reference.kind === 'media' ? relate(word.reference.interval, second) : 'none';
console.log(\`count \${await countIn(store)}, around \${around.length}, inside \${inside.length}, relation \${placed}\`);
await store.close();

const report = await convertFile({ input: 'talk.annot', output: 'talk.srt', to: 'srt', warn: () => {}, report: () => {} });
console.log(\`converted \${report.from} -> \${report.to}: \${report.annotations}\`);

const units: SceneUnitResult[] = [];
const provider = new LocalProvider({ dir: '.annot-cache/local' });
const scene = { title: 'Harbour', shots: [{ id: 's1', description: 'the harbour at dawn' }] };
for await (const unit of iterRenderScene(scene, { provider, cacheDir: '.annot-cache' })) units.push(unit);
console.log(\`rendered \${units.map((unit) => \`\${unit.kind} \${unit.id} #\${unit.index}\`).join(', ')}\`);
console.log(\`types \${Object.keys(pgOptions).length} \${subpathTypes.length}\`);
`;

describe('the packed package, installed as a user installs it', () => {
  let work = '';
  let tarball = '';
  let project = '';

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'annot-packed-'));
    // --ignore-scripts: the test runs after the build; `prepare` would rebuild dist under the other tests.
    const packed = await expectSuccess('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT);
    tarball = join(work, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0].filename);
    project = join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'annot-consumer', private: true, type: 'module' }, null, 2));
    // --ignore-scripts, then the repository's own better-sqlite3 binary: a user's install downloads a prebuilt
    // binary, which this machine cannot, and compiling it again took 15 minutes of a loaded CI machine. The binary
    // is the one the same better-sqlite3 version built here, so the consumer loads what a user's install would.
    await expectSuccess('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], project, INSTALL_DEADLINE_MS);
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build'), join(project, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });
    // The bundled FFmpeg and ffprobe packages' own install scripts only mark their binaries executable.
    await expectSuccess('npm', ['rebuild', '--no-audit', '--no-fund', '--loglevel=error', '@ffmpeg-installer/linux-x64', '@ffprobe-installer/linux-x64'], project);
  }, INSTALL_DEADLINE_MS + STEP_DEADLINE_MS);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('publint finds nothing to say about the tarball', async () => {
    const ran = await expectSuccess(join(BIN, 'publint'), ['run', tarball, '--strict', '--level', 'suggestion'], work);
    expect(ran.stdout).toContain('All good!');
  }, STEP_DEADLINE_MS);

  it('Are The Types Wrong finds every entry point resolved, typed and ESM for node16 and bundlers', async () => {
    // esm-only: annot is ES modules only, so node10 and a CommonJS require are outside what it offers.
    const ran = await run(join(BIN, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], work);
    type Problem = { kind: string; entrypoint?: string; resolutionKind?: string };
    const result = JSON.parse(ran.stdout) as { analysis: { entrypoints: Record<string, unknown> }; problems?: Problem[] | Record<string, Problem[]> };
    // attw lists the problems, grouped by kind, of every resolution, the profile's ignored ones included.
    const listed = Array.isArray(result.problems) ? result.problems : Object.values(result.problems ?? {}).flat();
    const problems = listed.filter((problem) => !ESM_ONLY_IGNORES.includes(problem.resolutionKind ?? ''));
    expect({ code: ran.code, problems }).toEqual({ code: 0, problems: [] });
    expect(Object.keys(result.analysis.entrypoints).sort()).toEqual(['.', './mcp', './package.json', './postgres', './queue', './render-farm', './server', './worker']);
  }, STEP_DEADLINE_MS);

  it("the README's library programs compile under strict nodenext against the package and run", async () => {
    expect(LIBRARY.length).toBe(3);
    const files = LIBRARY.map((block, index) => {
      writeFileSync(join(project, `readme-${index + 1}.ts`), `${block.body.join('\n')}\n`);
      return `readme-${index + 1}.ts`;
    });
    writeFileSync(join(project, 'postgres-store.ts'), "import { PostgresStore } from 'annot/postgres';\nconst open: typeof PostgresStore.open = PostgresStore.open;\nconsole.log(typeof open);\n");
    writeTsconfig('tsconfig.nodenext.json', { module: 'nodenext', moduleResolution: 'nodenext', outDir: 'out-nodenext' }, [...files, 'postgres-store.ts']);
    await expectSuccess(process.execPath, [TSC, '-p', 'tsconfig.nodenext.json'], project);

    const query = await expectSuccess(process.execPath, ['out-nodenext/readme-1.js'], project);
    expect(query.stdout).toMatch(/^[0-9a-f-]{36} words {"text":"hello"}\n$/);
    const convert = await expectSuccess(process.execPath, ['out-nodenext/readme-2.js'], project);
    expect(convert.stdout).toBe('annot -> webvtt: 1 annotations, 1 tiers\n');
    expect(readFileSync(join(project, 'talk.vtt'), 'utf8')).toMatch(/^WEBVTT[\s\S]*00:00:01\.250 --> 00:00:01\.500\nhello\n/);
    const render = await expectSuccess(process.execPath, ['out-nodenext/readme-3.js'], project);
    expect(render.stdout).toMatch(/^Harbour: 1 shots, 1 beats, 0 from the cache\ns1 file:\/\/\S+\.png\nb1 file:\/\/\S+\.wav\n$/);
    const postgres = await expectSuccess(process.execPath, ['out-nodenext/postgres-store.js'], project);
    expect(postgres.stdout).toBe('function\n');
  }, STEP_DEADLINE_MS);

  it('a program under strict bundler resolution compiles against every entry point and runs', async () => {
    writeFileSync(join(project, 'bundler.ts'), BUNDLER_PROGRAM);
    writeTsconfig('tsconfig.bundler.json', { module: 'preserve', moduleResolution: 'bundler', outDir: 'out-bundler' }, ['bundler.ts']);
    await expectSuccess(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], project);
    // It reads the talk.annot the README's first program wrote, when that ran first; else one of its own.
    await ensureTalkAnnot();
    const ran = await expectSuccess(process.execPath, ['out-bundler/bundler.js'], project);
    expect(ran.stdout).toMatch(/^count \d+, around \d+, inside \d+, relation during\nconverted annot -> srt: \d+\nrendered shot s1 #0\ntypes 0 0\n$/);
  }, STEP_DEADLINE_MS);

  function writeTsconfig(name: string, options: Record<string, unknown>, files: string[]): void {
    writeFileSync(join(project, name), JSON.stringify({ compilerOptions: { ...STRICT, ...options }, files }, null, 2));
  }

  async function ensureTalkAnnot(): Promise<void> {
    const make = `import { RationalTime, SqliteStore, TimeInterval, makeAnnotation, makeTier, mediaRef } from 'annot';
const store = await SqliteStore.open('talk.annot', { create: true });
if (!(await store.getTier('words'))) await store.addTier(makeTier({ name: 'words' }));
if ((await store.count()) === 0) {
  await store.add(makeAnnotation({ tier: 'words', reference: mediaRef('talk.wav', TimeInterval.fromSeconds('1.25', '1.5', 1000)), body: { text: 'hello' },
    body_schema_uri: 'annot://schema/word/v1', provenance: { was_generated_by: 'user:me', generated_at_time: RationalTime.now(1000) } }));
}
await store.close();
`;
    writeFileSync(join(project, 'make-talk.mjs'), make);
    await expectSuccess(process.execPath, ['make-talk.mjs'], project);
  }
});
