import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { animaticParts, ANIMATIC_FPS, writeAnimatic } from '../../src/render/animatic.js';
import { closeRenderCaches } from '../../src/render/cache.js';
import type { SceneManifest } from '../../src/render/manifest.js';
import { ffprobeBinary } from '../../src/render/media-probe.js';
import { LocalProvider } from '../../src/render/providers/local.js';
import { renderScene } from '../../src/render/render-scene.js';
import { sceneEdit } from '../../src/render/scene-edit.js';
import { sceneLayout } from '../../src/render/scene-layout.js';
import { loadSceneFile, toScene } from '../../src/render/scene.js';

const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));

interface Probe {
  streams: Array<{ codec_type: string; codec_name: string }>;
  format: { duration: string };
}

function probe(path: string): Probe {
  return JSON.parse(execFileSync(ffprobeBinary(), ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name:format=duration', '-of', 'json', path], { encoding: 'utf8' })) as Probe;
}

describe('the animatic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-animatic-'));
  let manifest: SceneManifest;
  let provider: LocalProvider;
  beforeAll(async () => {
    const scene = await loadSceneFile(LIGHTHOUSE);
    provider = new LocalProvider({ dir: join(dir, 'local'), speech: 'placeholder' });
    manifest = { ...(await renderScene(scene, { provider, cacheDir: join(dir, 'cache'), durableAssets: true })), layout: sceneLayout(scene) };
  }, 120000);
  afterAll(() => {
    closeRenderCaches();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one H.264/AAC mp4 with one video, one audio and one mov_text stream, as long as the sum of its parts within one frame', async () => {
    const path = join(dir, 'build', 'scene.mp4');
    const result = await writeAnimatic(manifest, path);
    expect(result.written).toBe(true);
    const edit = await sceneEdit(manifest);
    const parts = animaticParts(edit);
    // b1, b2 (talking videos), b3 (action: s2's still, silence), b4 (s3's still with Radio's speech), b7.
    expect(parts.map((p) => [p.picture.kind, p.sound.kind])).toEqual([
      ['video', 'speech'],
      ['video', 'speech'],
      ['still', 'silence'],
      ['still', 'speech'],
      ['video', 'speech'],
    ]);
    const sum = parts.reduce((total, p) => total + (p.end.v - p.start.v) / p.start.r, 0);
    expect(sum).toBeCloseTo(13.4, 9);
    const probed = probe(path);
    expect(probed.streams.map((s) => [s.codec_type, s.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
      ['subtitle', 'mov_text'],
    ]);
    expect(Math.abs(Number(probed.format.duration) - sum)).toBeLessThanOrEqual(1 / ANIMATIC_FPS);
    // The sidecar subtitles: the lines with voice spans, linking the animatic.
    const vtt = readFileSync(join(dir, 'build', 'scene.mp4.vtt'), 'utf8');
    expect(vtt).toContain('media: scene.mp4');
    expect(vtt).toContain('<v Maren>Forty years I have kept this light. It does not keep itself.</v>');
    // Written atomically: nothing but the two files in the folder.
    expect(readdirSync(join(dir, 'build')).sort()).toEqual(['scene.mp4', 'scene.mp4.vtt']);
  }, 120000);

  it('is rewritten only when the media change', async () => {
    const path = join(dir, 'build', 'scene.mp4');
    const before = statSync(path).mtimeMs;
    expect((await writeAnimatic(manifest, path)).written).toBe(false);
    expect(statSync(path).mtimeMs).toBe(before);
    // Another speech file for b7 (b1's): the animatic is rebuilt.
    const b7 = manifest.beats.find((b) => 'beat_id' in b && b.beat_id === 'b7') as unknown as Record<string, unknown>;
    const b1 = manifest.beats.find((b) => 'beat_id' in b && b.beat_id === 'b1') as unknown as Record<string, unknown>;
    const changed = {
      ...manifest,
      beats: manifest.beats.map((b) => ('beat_id' in b && b.beat_id === 'b7' ? ({ ...b7, audio_path: b1.audio_path, audio_url: b1.audio_url, audio_duration: b1.audio_duration, duration: b1.duration } as typeof b) : b)),
    };
    const again = await writeAnimatic(changed, path);
    expect(again.written).toBe(true);
    expect(again.duration).toBeCloseTo(13.4 - 1.6 + 3.6, 9);
    expect(Math.abs(Number(probe(path).format.duration) - again.duration)).toBeLessThanOrEqual(1 / ANIMATIC_FPS);
  }, 120000);

  it('holds a shot without beats for --hold seconds, and a scene of held shots has silence under them', async () => {
    const scene = toScene({
      title: 'Held',
      shots: [
        { id: 'a', description: 'first' },
        { id: 'b', description: 'second' },
      ],
      characters: [{ name: 'Ann' }],
      beats: [{ id: 'x', shot_id: 'b', speaker: 'Ann', line: 'One two three.' }],
    });
    const rendered = await renderScene(scene, { provider, cacheDir: join(dir, 'cache'), durableAssets: true });
    const held = { ...rendered, layout: sceneLayout(scene) };
    const path = join(dir, 'held.mp4');
    const result = await writeAnimatic(held, path, { hold: 1.5 });
    // 1.5 s of shot a, then three words of placeholder speech (0.4 s each) over shot b's still.
    expect(result.duration).toBeCloseTo(1.5 + 1.2, 9);
    const probed = probe(path);
    expect(probed.streams.map((s) => s.codec_type)).toEqual(['video', 'audio', 'subtitle']);
    expect(Math.abs(Number(probed.format.duration) - result.duration)).toBeLessThanOrEqual(1 / ANIMATIC_FPS);
    expect(existsSync(join(dir, 'held.mp4.vtt'))).toBe(true);
  }, 120000);
});
