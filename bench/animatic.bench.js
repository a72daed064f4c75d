// The animatic's figure (issue 12): the example scene's animatic is assembled in under
// 3 × its summed media duration ÷ 10 (i.e. at better than 10/3 × real time).
// Figure: seconds to assemble it from scratch (median of 3; the scene is rendered and cached
// first, with the local provider and the placeholder voice, so only the assembly is timed).
// Reference: the summed duration of its parts ÷ 10, measured from the same manifest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { report } from './lib/harness.js';
import { writeAnimatic } from '../dist/src/render/animatic.js';
import { closeRenderCaches } from '../dist/src/render/cache.js';
import { LocalProvider } from '../dist/src/render/providers/local.js';
import { renderScene } from '../dist/src/render/render-scene.js';
import { sceneLayout } from '../dist/src/render/scene-layout.js';
import { loadSceneFile } from '../dist/src/render/scene.js';

const LIGHTHOUSE = fileURLToPath(new URL('../fixtures/scenes/lighthouse.yaml', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'annot-bench-animatic-'));
try {
  const scene = await loadSceneFile(LIGHTHOUSE);
  const provider = new LocalProvider({ dir: join(dir, 'local'), speech: 'placeholder' });
  const manifest = { ...(await renderScene(scene, { provider, cacheDir: join(dir, 'cache'), durableAssets: true })), layout: sceneLayout(scene) };
  const times = [];
  let duration = 0;
  let parts = 0;
  for (let run = 0; run < 3; run++) {
    const out = join(dir, `run${run}`, 'scene.mp4');
    const t0 = performance.now();
    const result = await writeAnimatic(manifest, out);
    times.push((performance.now() - t0) / 1000);
    duration = result.duration;
    parts = result.parts;
  }
  times.sort((a, b) => a - b);
  const median = times[1];
  report({
    name: 'animatic of the example scene (assembly)',
    figure: median,
    unit: 's',
    reference: 'summed media duration ÷ 10',
    referenceFigure: duration / 10,
    target: 3,
    targetText: '<= 3 (3 × duration ÷ 10)',
    extra: { media_seconds: duration.toFixed(3), parts, runs_s: times.map((t) => t.toFixed(2)).join('/') },
  });
} finally {
  closeRenderCaches();
  rmSync(dir, { recursive: true, force: true });
}
