import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ANNOT_BIN } from '../support/run-cli.js';
import { cliDir, LIGHTHOUSE, LIGHTHOUSE_MAKEFILE } from './cli-env.js';

const hasMake = (() => {
  try {
    execFileSync('make', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Moves the mtimes of everything built into the past and the scene's to a moment after them, so
 * the scene is newer than its targets whatever the file system's timestamp granularity, and
 * whatever make then writes or touches is newer than the scene, however fast the machine.
 */
function sceneNewerThanBuild(scene: string, build: string): void {
  const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
  const age = (path: string): void => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) age(join(path, name));
    utimesSync(path, ago(20), ago(20));
  };
  age(build);
  utimesSync(scene, ago(10), ago(10));
}

describe('the example Makefile', () => {
  const t = cliDir();
  afterAll(t.cleanup);
  const make = () =>
    execFileSync('make', ['-f', LIGHTHOUSE_MAKEFILE, `ANNOT=${process.execPath} ${ANNOT_BIN}`], { cwd: t.dir, env: { ...process.env, ...t.env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  (hasMake ? it : it.skip)('renders the scene once, then rebuilds only what changed', () => {
    if (!hasMake) console.warn('SKIPPED: make is not installed');
    mkdirSync(join(t.dir, 'fixtures/scenes'), { recursive: true });
    const scene = join(t.dir, 'fixtures/scenes/lighthouse.yaml');
    copyFileSync(LIGHTHOUSE, scene);
    make();
    const mp4 = join(t.dir, 'build/lighthouse.mp4');
    const otio = join(t.dir, 'build/lighthouse.otio');
    const eaf = join(t.dir, 'build/lighthouse.eaf');
    const html = join(t.dir, 'build/lighthouse.html');
    const manifest = join(t.dir, 'build/lighthouse.manifest.json');
    for (const built of [mp4, otio, eaf, html, join(t.dir, 'build/media/The_Last_Keeper/shot-s1.png')]) expect(existsSync(built)).toBe(true);
    expect(make()).toContain('Nothing to be done');

    // Touched but unchanged: the render runs once (all cached), the manifest keeps its content
    // and only its mtime moves past the scene's; the derived files, rebuilt from it, keep theirs
    // and only move their mtimes: the next `make` has nothing to do.
    sceneNewerThanBuild(scene, join(t.dir, 'build'));
    const contents = () => [manifest, otio, html].map((p) => readFileSync(p, 'utf8'));
    const before = contents();
    const touched = make();
    expect(touched).toContain('--out build/media');
    expect(contents()).toEqual(before);
    expect(statSync(manifest).mtimeMs).toBeGreaterThanOrEqual(statSync(scene).mtimeMs);
    expect(make()).toContain('Nothing to be done');

    // A changed line: one beat re-rendered, the manifest rewritten, the timelines rebuilt.
    writeFileSync(scene, readFileSync(scene, 'utf8').replace('It is. She is.', 'It is. She still is.'));
    sceneNewerThanBuild(scene, join(t.dir, 'build'));
    const changed = make();
    expect(changed).toContain('render timeline');
    expect(readFileSync(eaf, 'utf8')).toContain('It is. She still is.');
  });
});
