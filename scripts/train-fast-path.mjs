// Runs the fast path's bundle on small files in this process, then writes the code V8 compiled
// as the bundle's code cache (scripts/build-fast-bundle.mjs): what a small conversion, validation
// or query compiles is then read from the cache rather than compiled again at every start.
// Its own process, so nothing but the bundle's work is in the cache; its output is not shown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST_BUNDLE_CACHE, loadFastPath } from '../bin/load-fast-path.js';

const { api, script } = await loadFastPath({ cache: false });
if (script === null) throw new Error('train-fast-path: no bundle to train (build it first), or ANNOT_DEBUG is set');
const dir = mkdtempSync(join(tmpdir(), 'annot-train-fast-path-'));
try {
  const vtt = join(dir, 'small.vtt');
  writeFileSync(vtt, 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n<v Mara>Hello there.\n\n00:00:01.500 --> 00:00:03.000\nGeneral <i>Kenobi</i>.\n');
  const packageJson = new URL('../package.json', import.meta.url);
  const runs = [
    ['--version'],
    ['convert', vtt, join(dir, 'small.srt')],
    ['convert', join(dir, 'small.srt'), join(dir, 'again.vtt')],
    ['validate', vtt],
    ['query', vtt],
  ];
  for (const argv of runs) {
    if (!api.takesFastPath(argv)) throw new Error(`train-fast-path: ${argv.join(' ')} does not take the fast path`);
    await api.runFastPath(argv, packageJson);
  }
  if (process.exitCode) throw new Error(`train-fast-path: a training run failed (exit code ${process.exitCode})`);
  writeFileSync(FAST_BUNDLE_CACHE, script.createCachedData());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
