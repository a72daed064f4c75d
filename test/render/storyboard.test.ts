import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeRenderCaches } from '../../src/render/cache.js';
import { findOnPath } from '../../src/render/local/speech.js';
import { LocalProvider } from '../../src/render/providers/local.js';
import { renderScene } from '../../src/render/render-scene.js';
import { loadSceneFile } from '../../src/render/scene.js';
import { storyboardHtml, writeStoryboard } from '../../src/render/storyboard.js';

const LIGHTHOUSE = fileURLToPath(new URL('../../fixtures/scenes/lighthouse.yaml', import.meta.url));
const chromium = findOnPath('chromium') ?? findOnPath('chromium-browser');

describe('the storyboard page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-storyboard-'));
  const page = join(dir, 'storyboard.html');
  beforeAll(async () => {
    const scene = await loadSceneFile(LIGHTHOUSE);
    const provider = new LocalProvider({ dir: join(dir, 'local'), speech: 'placeholder' });
    const manifest = await renderScene(scene, { provider, cacheDir: join(dir, 'cache'), durableAssets: true });
    await writeStoryboard(scene, manifest, page);
  });
  afterAll(() => {
    closeRenderCaches();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is one self-contained file: every image and player embedded as a data: URI', () => {
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('<h1>The Last Keeper</h1>');
    expect(html.match(/<img [^>]*src="data:image\/png;base64,/g)).toHaveLength(4);
    expect(html.match(/<video [^>]*src="data:video\/mp4;base64,/g)).toHaveLength(3);
    expect(html.match(/<audio [^>]*src="data:audio\/wav;base64,/g)).toHaveLength(1);
    expect(html).not.toMatch(/src="(file|https?):/);
    expect(html).toContain('close on Maren polishing the lens | framing: close-up | location: glass lantern room');
    expect(html).toContain('skipped: no character');
  });

  it('escapes scene text', () => {
    const html = storyboardHtml({ title: '<b>x</b>', style: '', notes: '', characters: [], environments: [], shots: [], beats: [] }, { title: '', style: '', shot_count: 0, beat_count: 0, cache_hits: 0, shots: [], beats: [] });
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  const inBrowser = chromium ? it : it.skip;
  if (!chromium) {
    if (process.env.CI === 'true') {
      it('needs chromium on CI', () => {
        throw new Error('chromium is not installed: install Debian\'s chromium package (apt-get install -y chromium) so the storyboard is checked in a real browser');
      });
    } else {
      console.warn('SKIPPED: the storyboard browser check needs chromium (apt-get install -y chromium); it is not installed');
    }
  }

  inBrowser('shows every still and every player in headless Chromium', () => {
    const profile = mkdtempSync(join(tmpdir(), 'annot-chromium-'));
    try {
      const dom = execFileSync(
        chromium!,
        [
          '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
          '--disable-sync', '--no-first-run', '--mute-audio', `--user-data-dir=${profile}`, '--virtual-time-budget=10000',
          '--dump-dom', pathToFileURL(page).href,
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60000, maxBuffer: 64 * 1024 * 1024 },
      );
      const check = /<output id="storyboard-check"[^>]*>/.exec(dom)![0];
      const attr = (name: string) => Number(new RegExp(`${name}="(\\d+)"`).exec(check)![1]);
      expect(attr('data-images')).toBe(4);
      expect(attr('data-images-decoded')).toBe(4);
      expect(attr('data-players')).toBe(4);
      // Debian's chromium decodes H.264/AAC: the three talking videos and the WAV all load.
      expect(attr('data-players-with-duration')).toBe(4);
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
