import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { oneLine, runToEnd, startCli, unprivilegedRunner, waitFor, writableFolder } from '../support/file-safety.js';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';

// Every command that writes, pointed at a folder the user may not write: one typed line naming the
// file and the reason, exit 1, and the folder exactly as it was. Root writes any folder whatever its
// mode, so when the tests run as root the child runs as an unprivileged user (setpriv).

const TALK = fileURLToPath(new URL('../../fixtures/talk.vtt', import.meta.url));
const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));
const runner = unprivilegedRunner();

describe('a folder the user cannot write', () => {
  if ('reason' in runner) {
    it('needs a way to run the commands as a user who cannot write the folder', () => {
      throw new Error(`cannot test read-only folders here: ${runner.reason}`);
    });
    return;
  }
  const { dir, cleanup } = tempDir('annot-read-only-');
  afterAll(() => {
    chmodSync(ro, 0o755);
    cleanup();
  });
  const ro = join(dir, 'ro');
  const home = join(dir, 'home');
  const cache = join(dir, 'cache');
  const build = join(dir, 'build');
  const manifest = join(build, 'scene.manifest.json');
  const env = { HOME: home, ANNOT_CACHE_DIR: cache, FAL_KEY: '', ANNOT_LOCAL_SPEECH: 'placeholder' };
  const asUser = (args: string[]) => runToEnd(args, { env, prefix: runner.prefix });
  let before: string[];

  beforeAll(async () => {
    mkdirSync(ro);
    await writeSampleAnnot(join(ro, 'x.annot'));
    copyFileSync(TALK, join(ro, 'talk.vtt'));
    // Rendered once as the test's own user; the unprivileged one reads the manifest and the cache.
    const rendered = await runToEnd(['render', 'scene', LIGHTHOUSE, '--provider', 'local', '--manifest', manifest, '--quiet'], { env, killAfterMs: 120_000 });
    expect(rendered.code).toBe(0);
    for (const folder of [dir, build]) chmodSync(folder, 0o755);
    writableFolder(home);
    makeWritableForAll(cache);
    chmodSync(ro, 0o555);
    before = readdirSync(ro).sort();
  }, 130_000);

  afterEach(() => expect(readdirSync(ro).sort()).toEqual(before));

  const deniedLine = (file: string) => `annot: permission denied: cannot write ${file} (the folder ${ro} is not writable) [ANNOT_PERMISSION_DENIED]`;

  it.each(['srt', 'vtt', 'textgrid', 'eaf', 'jams', 'otio', 'labelstudio.json', 'jsonld', 'annot'])('convert into .%s', async (extension) => {
    const target = join(ro, `out.${extension}`);
    const result = await asUser(['convert', TALK, target]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(deniedLine(target));
  });

  it.each([
    ['serve', ['serve'], ['x.annot', 'new.annot']],
    ['mcp', ['mcp'], ['x.annot', 'new.annot']],
    // A worker's store must exist.
    ['worker', ['worker', '--store'], ['x.annot']],
  ])('%s of an .annot in the folder, existing or new', async (_name, command, files) => {
    for (const file of files) {
      const result = await asUser([...command, join(ro, file)]);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toBe(deniedLine(join(ro, file)));
    }
  });

  it('query, validate and convert of an .annot in the folder say why SQLite cannot read it', async () => {
    for (const args of [['query'], ['validate'], ['convert', '<in>', join(home, 'out.vtt')]]) {
      const result = await asUser(args.length === 1 ? [args[0], join(ro, 'x.annot')] : args.map((arg) => (arg === '<in>' ? join(ro, 'x.annot') : arg)));
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toMatch(/^annot: permission denied: cannot read .*x\.annot: it is an SQLite file in WAL mode, .*not writable for this user; .* \[ANNOT_PERMISSION_DENIED\]$/);
    }
  });

  it('serve of a WebVTT file in the folder: edits are kept in memory, each failed save says why in one line, and the shutdown fails in one line', async () => {
    const vtt = join(ro, 'talk.vtt');
    const original = readFileSync(vtt, 'utf8');
    const serve = startCli(['serve', vtt, '--save-delay', '0'], { env, prefix: runner.prefix });
    serve.child.stdin.end();
    await waitFor(() => /listening on (\S+)\n/.test(serve.stdout()), 'annot serve listening');
    const url = /listening on (\S+)\n/.exec(serve.stdout())![1];
    const added = await fetch(`${url}/annotations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'cues', reference: { kind: 'media', asset_id: 'webvtt:unspecified', interval: { start: { v: 90, r: 1 }, end: { v: 91, r: 1 } } }, body: { text: 'kept in memory' }, body_schema_uri: 'annot://schema/label/v1' }),
    });
    expect(added.status).toBe(201);
    await waitFor(() => serve.stderr().includes('[ANNOT_SAVE_FAILED]'), 'the failed save reported');
    expect(serve.stderr()).toContain(`permission denied: cannot write ${vtt} (the folder ${ro} is not writable); the edits stay in memory`);
    const listed = (await (await fetch(`${url}/annotations?start=90&end=91`)).json()) as unknown[];
    expect(JSON.stringify(listed)).toContain('kept in memory');
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(1);
    const lines = serve.stderr().trimEnd().split('\n');
    expect(lines[lines.length - 1]).toMatch(new RegExp(`^annot: ${vtt}: could not save the edits up to clock \\d+ as webvtt: permission denied: cannot write .* \\[ANNOT_SAVE_FAILED\\]$`));
    expect(readFileSync(vtt, 'utf8')).toBe(original);
  });

  it.each([
    ['render timeline (.otio)', () => ['render', 'timeline', '--manifest', manifest, join(ro, 't.otio')], 't.otio'],
    ['render scene --timeline (.annot)', () => ['render', 'scene', LIGHTHOUSE, '--provider', 'local', '--quiet', '--manifest', join(home, 'm.json'), '--timeline', join(ro, 't.annot')], 't.annot'],
    ['render storyboard', () => ['render', 'storyboard', '--manifest', manifest, join(ro, 's.html')], 's.html'],
    ['render animatic', () => ['render', 'animatic', '--manifest', manifest, '--out', join(ro, 'a.mp4')], 'a.mp4.vtt'],
    ['render scene --manifest', () => ['render', 'scene', LIGHTHOUSE, '--provider', 'local', '--quiet', '--manifest', join(ro, 'm.json')], 'm.json'],
    ['render scene --out', () => ['render', 'scene', LIGHTHOUSE, '--provider', 'local', '--quiet', '--manifest', join(home, 'm.json'), '--out', ro], 'The_Last_Keeper/shot-s1.png'],
  ])('%s', async (_name, args, written) => {
    const result = await asUser(args());
    expect(result.code).toBe(1);
    const file = join(ro, written);
    expect(oneLine(result.stderr)).toBe(written.includes('/') ? `annot: permission denied: cannot write ${file} (the folder ${ro} is not writable) [ANNOT_PERMISSION_DENIED]` : deniedLine(file));
  }, 60_000);
});

/** Every folder and file under `path` readable and writable by anyone (the render cache the unprivileged user reuses). */
function makeWritableForAll(path: string): void {
  chmodSync(path, 0o777);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) makeWritableForAll(child);
    else chmodSync(child, 0o666);
  }
}

