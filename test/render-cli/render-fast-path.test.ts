import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fastCommandLine } from '../../src/cli/fast-path.js';
import { runBothPaths } from '../support/fast-path-parity.js';
import { cliDir, LIGHTHOUSE, render } from './cli-env.js';

/**
 * `annot render scene SCENE [flags]` and `annot render timeline PATH --manifest M` start without
 * oclif (src/cli/fast-path.ts), as Makefiles run them. Each case runs the same command through
 * the fast path and through oclif, on a warm cache: the same exit code, stdout and stderr
 * (elapsed seconds and each path's own output path aside).
 */
describe('annot render scene and render timeline: the start-up fast path and oclif print the same', () => {
  const t = cliDir();
  afterAll(t.cleanup);
  const scene = join(t.dir, 'tiny.yaml');
  const warmManifest = join(t.dir, 'warm.manifest.json');
  beforeAll(async () => {
    writeFileSync(
      scene,
      'title: Tiny\ncharacters:\n  - name: Ann\n    voice:\n      voice_id: Dorothy\nshots:\n  - id: s1\n    description: a quay at dawn\n    characters: [Ann]\nbeats:\n  - id: b1\n    shot_id: s1\n    speaker: Ann\n    line: Morning.\n  - id: b2\n    speaker: Bob\n    line: Who?\n',
    );
    // Renders the units once, so the cases below compare runs served from the cache.
    const warm = await render(['scene', scene, '--manifest', warmManifest], t.env, 120_000);
    expect(warm.code).toBe(0);
  }, 150_000);

  // [name, scene, flags, exit code]
  const cases: Array<[string, () => string, string[], number]> = [
    ['a render from the cache, JSON lines, a finding on stderr', () => scene, ['--json', '--concurrency', '2', '--hold', '1.5'], 0],
    ['-q: only the summary', () => scene, ['-q', '--provider', 'local', '--lipsync-quality', 'high'], 0],
    ['--strict refusing the findings (exit 1), with the JSON error document', () => LIGHTHOUSE, ['--strict', '--json'], 1],
    ['a --hold out of range, refused by the command body', () => scene, ['--hold', '0'], 1],
    ['--provider fal without a key', () => scene, ['--provider', 'fal', '--quiet'], 1],
    ['a shared cache in read mode, from the cache', () => scene, ['--remote-cache', 's3://team-renders/annot', '--remote-cache-mode', 'read', '--provider', 'local', '-q'], 0],
    ['a --remote-cache that is not an s3:// URL', () => scene, ['--remote-cache', 'https://team-renders/annot'], 2],
    ['--queue with a Redis that does not answer', () => scene, ['--queue', '--redis', 'redis://127.0.0.1:1', '--queue-name', 'annot-parity', '-q'], 1],
    ['a missing scene file', () => join(t.dir, 'missing.yaml'), [], 1],
  ];
  let n = 0;
  it.each(cases)('%s', async (_name, sceneFile, flags, code) => {
    const k = n++;
    const fastManifest = join(t.dir, `fast-${k}.manifest.json`);
    const oclifManifest = join(t.dir, `oclif-${k}.manifest.json`);
    const manifest = { fast: fastManifest, oclif: oclifManifest };
    const { fast, oclif } = await runBothPaths(['render', 'scene'], [sceneFile()], (path) => [...flags, '--manifest', manifest[path]], { env: t.env });
    const normalize = (text: string, manifest: string): string => text.replaceAll(manifest, 'MANIFEST').replace(/ in \d+\.\d s/g, ' in N s');
    expect(fast.code).toBe(code);
    expect(oclif.code).toBe(code);
    expect(normalize(fast.stderr, fastManifest)).toBe(normalize(oclif.stderr, oclifManifest));
    expect(normalize(fast.stdout, fastManifest)).toBe(normalize(oclif.stdout, oclifManifest));
  });

  // [name, extension, flags, exit code]
  const timelines: Array<[string, string, () => string[], number]> = [
    ['a WebVTT timeline', 'vtt', () => ['--manifest', warmManifest], 0],
    ['an EAF timeline with --hold', 'eaf', () => ['--hold', '3', '--manifest', warmManifest], 0],
    ['a name of no timeline format', 'txt', () => ['--manifest', warmManifest], 1],
    ['a missing manifest', 'vtt', () => ['--manifest', join(t.dir, 'missing.manifest.json')], 1],
  ];
  it.each(timelines)('render timeline: %s', async (_name, extension, flags, code) => {
    const k = n++;
    const output = { fast: join(t.dir, `fast-${k}.${extension}`), oclif: join(t.dir, `oclif-${k}.${extension}`) };
    const { fast, oclif } = await runBothPaths(['render', 'timeline'], (path) => [output[path]], flags(), { env: t.env });
    const normalize = (text: string, path: string): string => text.replaceAll(path, 'OUT');
    expect(fast.code).toBe(code);
    expect(oclif.code).toBe(code);
    expect(normalize(fast.stderr, output.fast)).toBe(normalize(oclif.stderr, output.oclif));
    expect(normalize(fast.stdout, output.fast)).toBe(normalize(oclif.stdout, output.oclif));
  });

  it('leaves to oclif what it owns: help, a value oclif refuses, a second scene, the colon form', () => {
    for (const extra of [['--help'], ['-h'], ['--concurrency', '0'], ['--provider', 'nope'], ['-qq'], ['--quiet=yes'], ['other.yaml']]) {
      expect(fastCommandLine(['render', 'scene', scene, ...extra])).toBeNull();
    }
    expect(fastCommandLine(['render', 'scene'])).toBeNull();
    expect(fastCommandLine(['render:scene', scene])).toBeNull();
    expect(fastCommandLine(['render', 'beat', scene, 'b1'])).toBeNull();
    expect(fastCommandLine(['render', 'timeline', 'out.vtt'])).toBeNull(); // --manifest is required
    expect(fastCommandLine(['render', 'timeline', 'out.vtt', '--manifest', 'm.json', '--help'])).toBeNull();
  });
});
