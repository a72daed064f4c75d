import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAdapter, listAdapters, registerAdapter } from '../../src/adapters/registry.js';
import { eafFormat } from '../../src/adapters/eaf/format.js';
import { otioFormat } from '../../src/adapters/otio/format.js';
import { srtFormat } from '../../src/adapters/srt/format.js';
import { webvttFormat } from '../../src/adapters/webvtt/format.js';
import { closeRenderCaches } from '../../src/render/cache.js';
import { LocalProvider } from '../../src/render/providers/local.js';
import { renderScene } from '../../src/render/render-scene.js';
import { loadSceneFile, type Scene } from '../../src/render/scene.js';
import { layOutBeats, sceneTimeline, writeTimeline } from '../../src/render/timeline.js';
import type { SceneManifest } from '../../src/render/manifest.js';
import { RationalTime } from '../../src/time/rational-time.js';

const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));

describe('the scene as a timeline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-timeline-'));
  let scene: Scene;
  let manifest: SceneManifest;
  beforeAll(async () => {
    scene = await loadSceneFile(LIGHTHOUSE);
    const provider = new LocalProvider({ dir: join(dir, 'local'), speech: 'placeholder' });
    manifest = await renderScene(scene, { provider, cacheDir: join(dir, 'cache'), durableAssets: true });
    // The subtitle and ELAN formats, whether or not the build registers them yet.
    for (const format of [webvttFormat, srtFormat, eafFormat, otioFormat]) if (!listAdapters().includes(format)) registerAdapter(format);
  });
  afterAll(() => {
    closeRenderCaches();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lays the rendered beats end to end, each as long as its real audio (0.4 s a word here)', async () => {
    const timed = await layOutBeats(scene, manifest);
    // b5 (empty) and b6 (no character) take no time; b3 (an action, no line) holds 1 s.
    expect(timed.map((t) => [t.beat_id, t.shot_id, t.end_ms - t.start_ms])).toEqual([
      ['b1', 's1', 3600],
      ['b2', 's2', 4800],
      ['b3', 's2', 1000],
      ['b4', 's3', 2400],
      ['b7', 's4', 1600],
    ]);
    for (let i = 1; i < timed.length; i++) expect(timed[i].start_ms).toBe(timed[i - 1].end_ms);
  });

  it('holds lines, speakers and shot spans on their own tiers', async () => {
    const store = await sceneTimeline(scene, manifest);
    expect((await store.listTiers()).map((t) => t.name)).toEqual(['lines', 'speakers', 'shots']);
    expect((await store.byTier('speakers')).map((a) => a.body.text)).toEqual(['Ivo', 'Maren', 'Radio', 'Ivo']);
    const shots = await store.byTier('shots');
    expect(shots.map((a) => [a.body.source_id, a.reference.kind === 'media' && a.reference.interval.end.v])).toEqual([
      ['s1', 3600],
      ['s2', 9400],
      ['s3', 11800],
      ['s4', 13400],
    ]);
  });

  it('writes an .annot timeline that loads back with the same annotations, and leaves it untouched when nothing changed', async () => {
    const path = join(dir, 'scene.annot');
    expect((await writeTimeline(scene, manifest, path)).written).toBe(true);
    const codec = await getAdapter('annot').codec();
    const doc = await codec.load(path, { sourceName: path, now: RationalTime.now(1000), report: () => {} });
    const loaded = [];
    for await (const a of doc.annotations) loaded.push(a);
    expect(loaded).toHaveLength(4 + 4 + 4);
    expect(loaded.find((a) => a.body.source_id === 'b2' && a.tier === 'lines')?.body.text).toBe('Forty years I have kept this light. It does not keep itself.');
    expect((await writeTimeline(scene, manifest, path)).written).toBe(false);
  });

  it.each(['scene.vtt', 'scene.srt', 'scene.eaf', 'scene.otio'])('writes %s through the adapters, and it loads back', async (name) => {
    const path = join(dir, name);
    const adapter = listAdapters().find((a) => a.extensions.some((e) => name.endsWith(e)))!;
    await writeTimeline(scene, manifest, path);
    const codec = await adapter.codec();
    const doc = await codec.load(path, { sourceName: path, now: RationalTime.now(1000), report: () => {} });
    const texts: unknown[] = [];
    // OTIO keeps the text as a marker name; the VTT cue text carries a voice span (<v Radio>…</v>).
    for await (const a of doc.annotations) texts.push(String(a.body.text ?? a.body.name).replace(/<[^>]+>/g, ''));
    expect(texts).toContain('Gale warning. All vessels seek shelter.');
    if (name.endsWith('.vtt') || name.endsWith('.srt')) {
      expect(texts).toHaveLength(4); // subtitles carry the lines tier only
      expect(readFileSync(path, 'utf8')).toMatch(/00:00:09[.,]400 --> 00:00:11[.,]800/);
    }
  });
});
