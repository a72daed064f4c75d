import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffprobeBinary } from '../../src/render/media-probe.js';
import { cliDir, LIGHTHOUSE, render } from './cli-env.js';

/** Every target_url of an OTIO document. */
function otioLinks(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/"target_url": "([^"]+)"/g)].map((m) => m[1]);
}

describe('derived files from a manifest: render animatic, render timeline, render storyboard', () => {
  const t = cliDir();
  afterAll(t.cleanup);
  const build = join(t.dir, 'build');
  const manifest = join(build, 'scene.manifest.json');
  // The derived commands get a cache of their own, empty: they must not look at the units again.
  const emptyCacheEnv = { ...t.env, ANNOT_CACHE_DIR: join(t.dir, 'no-cache') };

  beforeAll(async () => {
    const r = await render(['scene', LIGHTHOUSE, '--provider', 'local', '--manifest', manifest, '--animatic', join(build, 'from-scene.mp4'), '--timeline', join(build, 'from-scene.otio')], t.env, 120000);
    expect(r.stderr).toContain('animatic');
    expect(r.code).toBe(0);
  }, 130000);

  it('render scene --animatic and --timeline write them, and the manifest records durations and the layout', () => {
    expect(existsSync(join(build, 'from-scene.mp4')) && existsSync(join(build, 'from-scene.mp4.vtt'))).toBe(true);
    for (const link of otioLinks(join(build, 'from-scene.otio'))) expect(existsSync(link.startsWith('file:') ? fileURLToPath(link) : resolve(build, link))).toBe(true);
    const m = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(m.layout.beats.map((b: { beat_id: string }) => b.beat_id)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7']);
    // b1: nine words of the placeholder voice, 0.4 s each, as samples at its 16 kHz.
    expect(m.beats[0].duration).toEqual({ v: 57600, r: 16000 });
  }, 300000);

  it('render animatic assembles the mp4 from the manifest, then leaves it alone', async () => {
    const out = join(build, 'scene.mp4');
    const first = await render(['animatic', '--manifest', manifest, '--out', out], emptyCacheEnv, 120000);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^animatic .*scene\.mp4: 13\.400 s in 5 parts, subtitles .*scene\.mp4\.vtt\n$/);
    const streams = execFileSync(ffprobeBinary(), ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', out], { encoding: 'utf8' });
    expect(streams.trim().split('\n')).toEqual(['video', 'audio', 'subtitle']);
    const mtime = statSync(out).mtimeMs;
    const second = await render(['animatic', '--manifest', manifest, '--out', out], emptyCacheEnv, 120000);
    expect(second.stdout).toContain('(unchanged)');
    expect(statSync(out).mtimeMs).toBe(mtime);
    expect(existsSync(join(t.dir, 'no-cache'))).toBe(false);
  }, 130000);

  it.each(['scene.otio', 'scene.eaf', 'scene.vtt'])('render timeline writes %s from the manifest, every reference on disk', async (name) => {
    const out = join(build, name);
    const r = await render(['timeline', '--manifest', manifest, out], emptyCacheEnv, 120000);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^timeline .*${name.replace('.', '\\.')} \\((otio|eaf|webvtt)\\)\\n$`));
    const text = readFileSync(out, 'utf8');
    const links = name.endsWith('.otio')
      ? otioLinks(out)
      : name.endsWith('.eaf')
        ? [...text.matchAll(/MEDIA_URL="([^"]+)"/g)].map((m) => m[1])
        : [...text.matchAll(/^media: (.+)$/gm)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(existsSync(link.startsWith('file:') ? fileURLToPath(link) : resolve(dirname(out), link))).toBe(true);
    expect((await render(['timeline', '--manifest', manifest, out], emptyCacheEnv, 120000)).stdout).toContain('(unchanged)');
  }, 300000);

  it('render timeline --animatic links the animatic from EAF', async () => {
    const out = join(build, 'with-animatic.eaf');
    const r = await render(['timeline', '--manifest', manifest, '--animatic', join(build, 'scene.mp4'), out], emptyCacheEnv, 120000);
    expect(r.code).toBe(0);
    expect([...readFileSync(out, 'utf8').matchAll(/RELATIVE_MEDIA_URL="([^"]+)"/g)].map((m) => m[1])).toEqual(['./scene.mp4']);
  }, 300000);

  it('render animatic never replaces the timeline render scene wrote: its subtitles are NAME.mp4.vtt', async () => {
    const timeline = join(build, 'own.vtt');
    expect((await render(['scene', LIGHTHOUSE, '--provider', 'local', '--manifest', manifest, '--timeline', timeline], t.env, 120000)).code).toBe(0);
    const written = readFileSync(timeline, 'utf8');
    // The scene's own timeline links each beat's media; the animatic's subtitles link the animatic.
    expect(written).not.toContain('own.mp4');
    const a = await render(['animatic', '--manifest', manifest, '--out', join(build, 'own.mp4')], emptyCacheEnv, 120000);
    expect(a.code).toBe(0);
    expect(a.stdout).toContain(`subtitles ${join(build, 'own.mp4.vtt')}`);
    expect(readFileSync(timeline, 'utf8')).toBe(written);
    expect(readFileSync(join(build, 'own.mp4.vtt'), 'utf8')).toContain('media: own.mp4');
  }, 300000);

  it('render storyboard writes the page from the manifest', async () => {
    const out = join(build, 'scene.html');
    const r = await render(['storyboard', '--manifest', manifest, out], emptyCacheEnv, 120000);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('data:image/png;base64,');
    expect(html).toContain('Gale warning. All vessels seek shelter.');
    expect(html).toContain('skipped: no character');
  }, 300000);

  it('refuses a timeline format it cannot link, and a missing or foreign manifest, naming the file', async () => {
    const srt = await render(['timeline', '--manifest', manifest, join(build, 'x.srt')], emptyCacheEnv, 120000);
    expect(srt.code).toBe(1);
    expect(srt.stderr).toContain('expected a timeline name ending in .otio, .eaf or .vtt');
    const missing = await render(['animatic', '--manifest', join(build, 'nope.json'), '--out', join(build, 'x.mp4')], emptyCacheEnv, 120000);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no manifest at');
    const foreign = await render(['storyboard', '--manifest', LIGHTHOUSE, join(build, 'x.html')], emptyCacheEnv, 120000);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('not a scene manifest');
    expect(existsSync(join(build, 'x.html')) || existsSync(join(build, 'x.mp4'))).toBe(false);
  }, 300000);
});
