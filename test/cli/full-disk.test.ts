import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANNOT_BIN } from '../support/run-cli.js';
import { annotationIds, companionsOf, integrityOf, oneLine, runToEnd, srtOfCues, startCli, waitFor } from '../support/file-safety.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

// A full device and a file size limit, for every command that writes, read like SQLite's own
// I/O-error tests: each case either ends with the file whole (its old content, or all the writes
// that were acknowledged) or is refused in one typed line, exit 1, with nothing half-written.
//   - standard output on /dev/full (every write fails with ENOSPC);
//   - RLIMIT_FSIZE through `prlimit --fsize` on the child (writes past it fail with EFBIG);
//   - a real full file system: a tiny tmpfs in a private mount namespace, where the machine allows it.

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));
const INTERVIEW = fileURLToPath(new URL('../../fixtures/tour/interview.eaf', import.meta.url));
const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));
const FORMATS = ['srt', 'vtt', 'textgrid', 'eaf', 'jams', 'otio', 'labelstudio.json', 'jsonld', 'annot'];
const SQLITE_MODULE = fileURLToPath(new URL('../../node_modules/better-sqlite3', import.meta.url));
const NO_SPACE_ON_STDOUT = 'annot: no space left on the device writing standard output [ANNOT_NO_SPACE]\n';

/** Runs `annot ARGS` with its standard output on /dev/full. */
function toDevFull(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [ANNOT_BIN, ...args], { env: { ...process.env, ANNOT_TOKEN: '', ...env }, stdio: ['pipe', full, 'pipe'] });
  closeSync(full);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.end(args.includes('-') ? readFileSync(TALK) : '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('standard output on /dev/full: one typed line, exit 1', () => {
  const { dir, cleanup } = tempDir('annot-dev-full-');
  afterAll(cleanup);
  const annot = join(dir, 'x.annot');
  beforeAll(() => writeSampleAnnot(annot));

  const CASES = [
    ['--version'],
    ['--help'],
    ['list-formats'],
    ['convert', TALK, '-', '--to', 'srt'],
    ['convert', '-', '-', '--from', 'vtt', '--to', 'eaf'],
    ['query', '<annot>'],
    ['query', '-', '--from', 'vtt'],
    ['validate', TALK],
    ['validate', TALK, '--format', 'json'],
    ['diff', TALK, INTERVIEW],
    ['agree', TALK, TALK],
    ['render', 'plan', LIGHTHOUSE, '--provider', 'local'],
  ];

  it.each(CASES.map((args) => [args.join(' '), args]))('annot %s', async (_label, args) => {
    const result = await toDevFull((args as string[]).map((arg) => (arg === '<annot>' ? annot : arg)));
    expect(result).toEqual({ code: 1, stderr: NO_SPACE_ON_STDOUT });
  });

  it('annot serve: its URL line fails, and that failure is its last word', async () => {
    const result = await toDevFull(['serve', annot]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^annot serve: serving ${annot}; Ctrl-C stops\n${NO_SPACE_ON_STDOUT.replace(/[[\]]/g, '\\$&')}$`));
    expect(integrityOf(annot)).toBe('ok');
  });
});

describe('the file size limit (prlimit --fsize): one typed line, exit 1, the old file kept', () => {
  const { dir, cleanup } = tempDir('annot-fsize-');
  afterAll(cleanup);
  const big = join(dir, 'big.srt');
  const LIMIT = 64 * 1024;
  const limited = ['prlimit', `--fsize=${LIMIT}`];
  beforeAll(() => writeFileSync(big, srtOfCues(5000)));

  it.each(FORMATS)('convert into .%s past the limit', async (extension) => {
    const out = join(dir, `out-${extension}`);
    mkdirSync(out);
    const target = join(out, `big.${extension}`);
    writeFileSync(target, 'the previous output');
    const result = await runToEnd(['convert', big, target], { prefix: limited });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(`annot: file size limit exceeded writing ${target} (the limit is ${LIMIT} bytes: ulimit -f, RLIMIT_FSIZE) [ANNOT_FILE_TOO_LARGE]`);
    expect(readdirSync(out)).toEqual([`big.${extension}`]);
    expect(readFileSync(target, 'utf8')).toBe('the previous output');
  });

  it('standard output past the limit', async () => {
    const annot = join(dir, 'big.annot');
    expect((await runToEnd(['convert', big, annot])).code).toBe(0);
    const out = join(dir, 'stdout.jsonl');
    const file = openSync(out, 'w');
    const child = spawnSync(limited[0], [...limited.slice(1), process.execPath, ANNOT_BIN, 'query', annot], { stdio: ['ignore', file, 'pipe'] });
    closeSync(file);
    expect(child.status).toBe(1);
    expect(oneLine(child.stderr.toString())).toBe(`annot: file size limit exceeded writing standard output (the limit is ${LIMIT} bytes: ulimit -f, RLIMIT_FSIZE) [ANNOT_FILE_TOO_LARGE]`);
  });

  it('annot serve of an .annot past the limit: 507 with a typed code, the server goes on, every acknowledged write is in the file', async () => {
    const annot = join(dir, 'served.annot');
    await writeSampleAnnot(annot);
    const serve = startCli(['serve', annot], { prefix: ['prlimit', '--fsize=262144'] });
    serve.child.stdin.end();
    await waitFor(() => /listening on (\S+)\n/.test(serve.stdout()), 'annot serve listening');
    const url = /listening on (\S+)\n/.exec(serve.stdout())![1];
    const { acknowledged, refusal } = await writeUntilRefused(url);
    expect(refusal).toEqual({ status: 507, code: 'ANNOT_FILE_TOO_LARGE' });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
    expect(companionsOf(annot)).toEqual([]);
    expect(integrityOf(annot)).toBe('ok');
    const ids = annotationIds(annot);
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);
  });
});

/** POSTs 2 KB annotations until the server refuses one; the ids it acknowledged and how it refused. */
async function writeUntilRefused(url: string): Promise<{ acknowledged: string[]; refusal: { status: number; code: string } }> {
  const acknowledged: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    const response = await fetch(`${url}/annotations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tier: 'words',
        reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: { v: 20_000 + i, r: 1000 }, end: { v: 20_001 + i, r: 1000 } } },
        body: { text: 'x'.repeat(2000) },
        body_schema_uri: 'annot://schema/word/v1',
      }),
    });
    const body = (await response.json()) as { id?: string; error?: { code: string } };
    if (response.status !== 201) return { acknowledged, refusal: { status: response.status, code: body.error!.code } };
    acknowledged.push(body.id!);
  }
  throw new Error('the server never refused a write');
}

/** Whether this machine lets a child mount a tmpfs in a private mount namespace (root with CAP_SYS_ADMIN). */
function privateTmpfs(): string | null {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt']);
  return probe.status === 0 ? null : `unshare -m with a tmpfs mount is not allowed here (${probe.error?.message ?? probe.stderr.toString().trim()})`;
}

const tmpfsRefused = privateTmpfs();

(tmpfsRefused === null ? describe : describe.skip)('a full file system (a 256 KiB tmpfs): one typed line, exit 1, nothing left on it', () => {
  const { dir, cleanup } = tempDir('annot-enospc-');
  afterAll(cleanup);
  const big = join(dir, 'big.srt');
  beforeAll(() => writeFileSync(big, srtOfCues(20_000)));

  /** Runs the shell script `script` in a private mount namespace with a 256 KiB tmpfs at $FULL. */
  function onFullDevice(script: string): { status: number | null; stdout: string; stderr: string } {
    const mountPoint = join(dir, `full-${Math.random().toString(36).slice(2)}`);
    mkdirSync(mountPoint);
    const run = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=256k tmpfs "$FULL" && ${script}`], {
      env: { ...process.env, FULL: mountPoint, NODE: process.execPath, ANNOT: ANNOT_BIN, BIG: big },
    });
    return { status: run.status, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
  }

  it('annot serve of an .annot on it: 507 with a typed code, the server goes on, and afterwards the file is whole with every acknowledged write', async () => {
    const sample = join(dir, 'sample.annot');
    await writeSampleAnnot(sample);
    const mountPoint = join(dir, 'full-serve');
    mkdirSync(mountPoint);
    // The shell outlives the server in the namespace, so the file is checked before the tmpfs goes away.
    const check = `const D = require(${JSON.stringify(SQLITE_MODULE)}); const d = new D(process.argv[1], { readonly: true }); ` +
      `console.log(JSON.stringify({ integrity: d.pragma('integrity_check', { simple: true }), ids: d.prepare('SELECT lower(hex(id)) FROM annotations').pluck().all() }));`;
    const shell = spawn('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=256k tmpfs "$FULL" && cp "$SAMPLE" "$FULL/x.annot" && "$NODE" "$ANNOT" serve "$FULL/x.annot"; echo "serve exit $?"; "$NODE" -e "$CHECK" "$FULL/x.annot"`], {
      env: { ...process.env, ANNOT_TOKEN: '', FULL: mountPoint, NODE: process.execPath, ANNOT: ANNOT_BIN, SAMPLE: sample, CHECK: check },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    shell.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const ended = new Promise((resolve) => shell.on('close', resolve));
    await waitFor(() => /listening on (\S+)\n/.test(out), 'annot serve listening on the full device');
    const url = /listening on (\S+)\n/.exec(out)![1];
    const { acknowledged, refusal } = await writeUntilRefused(url);
    expect(refusal).toEqual({ status: 507, code: 'ANNOT_NO_SPACE' });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const server = Number(readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
    process.kill(server, 'SIGTERM');
    await ended;
    const [, status, checked] = /serve exit (\d+)\n(.*)\n$/.exec(out)!;
    const { integrity, ids } = JSON.parse(checked) as { integrity: string; ids: string[] };
    expect(integrity).toBe('ok');
    for (const id of acknowledged) expect(ids).toContain(id.replace(/-/g, ''));
    // Closing checkpoints the WAL into the file, which may itself not fit: then that is the typed line it ends with.
    if (status !== '0') expect(err.trimEnd().split('\n').pop()).toMatch(/^annot: no space left on the device writing .*x\.annot \[ANNOT_NO_SPACE\]$/);
    expect(['0', '1']).toContain(status);
  });

  it.each(FORMATS)('convert into .%s', (extension) => {
    const run = onFullDevice(`"$NODE" "$ANNOT" convert "$BIG" "$FULL/big.${extension}"; echo "exit $?"; ls -A "$FULL"`);
    expect(run.stdout).toBe('exit 1\n');
    expect(oneLine(run.stderr)).toMatch(new RegExp(`^annot: no space left on the device writing .*/big\\.${extension.replace('.', '\\.')} \\[ANNOT_NO_SPACE\\]$`));
  });
});

if (tmpfsRefused !== null) console.warn(`\n!!! ${tmpfsRefused}: the full-file-system cases are SKIPPED; /dev/full and prlimit still cover ENOSPC and EFBIG. !!!\n`);
