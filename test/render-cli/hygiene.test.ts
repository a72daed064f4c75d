import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cliDir, jsonLines, LIGHTHOUSE, render } from './cli-env.js';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
// Whole CLI renders with ffmpeg, on a shared machine.
const SLOW = 120_000;

describe('annot render: outputs a Makefile can rely on', () => {
  const t = cliDir();
  afterAll(t.cleanup);
  const out = () => join(t.dir, 'out');
  const manifestPath = () => join(out(), 'The_Last_Keeper.manifest.json');

  it('puts the manifest in the --out directory, recording the scene file and its hash', async () => {
    const result = await render(['scene', LIGHTHOUSE, '--out', out(), '--provider', 'local'], t.env, SLOW - 10_000);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8'));
    expect(resolve(out(), manifest.scene_file)).toBe(LIGHTHOUSE);
    expect(manifest.scene_sha256).toBe(sha256(LIGHTHOUSE));
    expect(existsSync(join(t.cacheDir, 'scenes'))).toBe(false);
  }, SLOW);

  it('reports an action-only beat as skipped with its reason', async () => {
    const result = await render(['scene', LIGHTHOUSE, '--out', out(), '--provider', 'local', '--json'], t.env);
    expect(jsonLines(result.stdout).find((l) => l.id === 'b3')).toMatchObject({ skipped: 'action only (no line): nothing to speak' });
    expect(result.stderr).toMatch(/0 rendered, 8 cached, 3 skipped/);
    const beat = await render(['beat', LIGHTHOUSE, 'b3', '--provider', 'local', '--json'], t.env);
    expect(JSON.parse(beat.stdout)).toMatchObject({ beat_id: 'b3', skipped: 'action only (no line): nothing to speak' });
    const plan = await render(['plan', LIGHTHOUSE, '--provider', 'local', '--json'], t.env);
    expect(JSON.parse(plan.stdout).units.find((u: { id: string }) => u.id === 'b3')).toMatchObject({ status: 'skipped', skipped: 'action only (no line): nothing to speak' });
  }, SLOW);

  it('copies the media to --out: editing a copy leaves the cache alone, and an edited cache copy is never served', async () => {
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8'));
    const placed = join(out(), 'The_Last_Keeper', 'shot-s1.png');
    const cached = manifest.shots[0].path as string;
    expect(statSync(placed).ino).not.toBe(statSync(cached).ino);
    expect(statSync(placed).nlink).toBe(1);
    writeFileSync(placed, 'edited by hand');
    expect(sha256(cached)).toBe(manifest.shots[0].sha256);

    // Damage the cache's own copy: the next render notices, fetches the bytes again and places them.
    writeFileSync(cached, 'damaged');
    const again = await render(['scene', LIGHTHOUSE, '--out', out(), '--provider', 'local', '--json'], t.env);
    expect(again.code).toBe(0);
    expect(sha256(cached)).toBe(manifest.shots[0].sha256);
    expect(sha256(placed)).toBe(manifest.shots[0].sha256);
  }, SLOW);

  it('prints only the summary with --quiet', async () => {
    const result = await render(['scene', LIGHTHOUSE, '--out', out(), '--provider', 'local', '--quiet'], t.env);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toMatch(/^The Last Keeper: 11 of 11 units/);
    expect(result.stderr).toBe('');
  }, SLOW);

  it('refuses to write a second scene over the manifest of the first, naming both', async () => {
    const other = join(t.dir, 'other.yaml');
    writeFileSync(other, readFileSync(LIGHTHOUSE, 'utf8'));
    const before = readFileSync(manifestPath(), 'utf8');
    const result = await render(['scene', other, '--out', out(), '--provider', 'local'], t.env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(LIGHTHOUSE);
    expect(result.stderr).toContain(other);
    expect(readFileSync(manifestPath(), 'utf8')).toBe(before);
  }, SLOW);

  it('gives render beat and render shot an --out', async () => {
    const beat = await render(['beat', LIGHTHOUSE, 'b1', '--provider', 'local', '--out', join(t.dir, 'one')], t.env);
    expect(beat.code).toBe(0);
    expect(existsSync(join(t.dir, 'one', 'The_Last_Keeper', 'beat-b1.mp4'))).toBe(true);
    const shot = await render(['shot', LIGHTHOUSE, 's2', '--provider', 'local', '--out', join(t.dir, 'one')], t.env);
    expect(shot.code).toBe(0);
    expect(existsSync(join(t.dir, 'one', 'The_Last_Keeper', 'shot-s2.png'))).toBe(true);
  }, SLOW);
});

describe('annot render: mistakes caught before anything renders', () => {
  const t = cliDir();
  afterAll(t.cleanup);

  it('fails --provider fal without a key, saying how to set FAL_KEY and naming no library function', async () => {
    const result = await render(['scene', LIGHTHOUSE, '--provider', 'fal', '--manifest', join(t.dir, 'm.json')], { ...t.env, FAL_QUEUE_URL: 'http://127.0.0.1:9' });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('export FAL_KEY=');
    expect(result.stderr).not.toMatch(/withCredentials|currentFalKey|\w+\(\{/);
    expect(existsSync(join(t.dir, 'm.json'))).toBe(false);
  });

  it('rejects an unknown model with a did-you-mean, and accepts an owner/model outside the catalog with a price warning', async () => {
    const typo = await render(['beat', LIGHTHOUSE, 'b1', '--provider', 'local', '--tts-model', 'minimax-ts'], t.env);
    expect(typo.code).not.toBe(0);
    expect(typo.stderr).toContain('did you mean "minimax-tts"');
    const outside = await render(['shot', LIGHTHOUSE, 's1', '--provider', 'local', '--image-model', 'someone/new-image-model'], t.env);
    expect(outside.code).toBe(0);
    expect(outside.stderr).toContain('someone/new-image-model is not in the catalog: price unknown');
  }, SLOW);
});
