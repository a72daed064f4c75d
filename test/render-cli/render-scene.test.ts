import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegBinary } from '../../src/render/local/ffmpeg.js';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { runCli } from '../support/run-cli.js';
import { eventually } from '../support/serve-cli.js';
import { cliDir, jsonLines, LIGHTHOUSE, render, startCli } from './cli-env.js';

describe('annot render scene', () => {
  const t = cliDir();
  afterAll(t.cleanup);

  it('renders the example scene offline with no key, one JSON line per unit and nothing else on stdout', async () => {
    const manifest = join(t.dir, 'lighthouse.manifest.json');
    const out = join(t.dir, 'media');
    // A cold render with ffmpeg: generous limits for a shared, loaded machine.
    const result = await render(['scene', LIGHTHOUSE, '--manifest', manifest, '--out', out], t.env, 170_000);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.map((l) => `${l.unit} ${l.id}`)).toEqual(['shot s1', 'shot s2', 'shot s3', 'shot s4', 'beat b1', 'beat b2', 'beat b3', 'beat b4', 'beat b5', 'beat b6', 'beat b7']);
    expect(lines.find((l) => l.id === 'b5')).toMatchObject({ skipped: 'empty beat (no line, no action)', cache_hit: false });
    expect(lines.find((l) => l.id === 'b6')).toMatchObject({ skipped: 'no character', speaker: 'Harbourmaster' });
    expect(result.stderr).toContain('offline preview with the local provider');
    expect(result.stderr).toMatch(/The Last Keeper: 11 of 11 units .* 8 rendered, 0 cached, 3 skipped, 0 failed \(local\)/);
    // Before rendering, the scene's findings in the words of `annot validate`: s4 names a character the scene lacks.
    const validated = await runCli(['validate', LIGHTHOUSE], { env: t.env });
    const findings = validated.stdout.split('\n').filter((line) => / (error|warning): /.test(line));
    expect(findings.some((line) => line.includes('shots[3].characters[1]: no character named "Harbourmaster"'))).toBe(true);
    for (const line of findings) expect(result.stderr.indexOf(line)).toBeGreaterThanOrEqual(0);
    expect(result.stderr.indexOf(findings[0])).toBeLessThan(result.stderr.indexOf('The Last Keeper: 11 of 11'));

    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written).toMatchObject({ title: 'The Last Keeper', shot_count: 4, beat_count: 7, cache_hits: 0 });
    // Durable assets: every url has its bytes' hash and a local copy beside it.
    const b1 = written.beats[0];
    expect(b1).toMatchObject({ beat_id: 'b1', audio_sha256: expect.stringMatching(/^[0-9a-f]{64}$/), video_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(existsSync(b1.audio_path) && existsSync(b1.video_path)).toBe(true);
    expect(existsSync(join(out, 'The_Last_Keeper', 'shot-s1.png'))).toBe(true);
    expect(existsSync(join(out, 'The_Last_Keeper', 'beat-b1.mp4'))).toBe(true);
    expect(existsSync(join(out, 'The_Last_Keeper', 'beat-b4.wav'))).toBe(true); // the radio has no face: audio only
    const probe = execFileSync(ffmpegBinary(), ['-hide_banner', '-i', join(out, 'The_Last_Keeper', 'beat-b1.mp4'), '-f', 'null', '-'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(probe).toBeDefined();
  }, 180_000);

  it('serves a re-run from the cache and leaves an unchanged manifest untouched', async () => {
    const manifest = join(t.dir, 'lighthouse.manifest.json');
    const before = statSync(manifest).mtimeMs;
    const result = await render(['scene', LIGHTHOUSE, '--manifest', manifest], t.env);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.filter((l) => l.cache_hit === true)).toHaveLength(9);
    expect(result.stderr).toContain('(unchanged)');
    expect(statSync(manifest).mtimeMs).toBe(before);
  });

  it('writes the manifest again when the scene changes, re-rendering only the changed beat', async () => {
    const scene = join(t.dir, 'edited.yaml');
    writeFileSync(scene, readFileSync(LIGHTHOUSE, 'utf8').replace('It is. She is.', 'It is. She still is.'));
    // Another scene file into the lighthouse's manifest is refused, naming both files.
    const refused = await render(['scene', scene, '--manifest', join(t.dir, 'lighthouse.manifest.json'), '--json'], t.env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(LIGHTHOUSE);
    expect(refused.stderr).toContain(scene);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'ANNOT_MANIFEST_OTHER_SCENE' } });
    const manifest = join(t.dir, 'edited.manifest.json');
    const result = await render(['scene', scene, '--manifest', manifest, '--json'], t.env);
    expect(result.code).toBe(0);
    const fresh = jsonLines(result.stdout).filter((l) => l.cache_hit === false && !('skipped' in l));
    expect(fresh.map((l) => l.id)).toEqual(['b7']);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).beats[6].hash).toBe(fresh[0].hash);
  });

  it('reports an invalid scene file with its file, line and field, and exits 1', async () => {
    const bad = join(t.dir, 'bad.yaml');
    writeFileSync(bad, 'title: Bad\nbeats:\n  - id: b1\n    speaker: 3\n');
    const result = await render(['scene', bad], t.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${bad}:4: beats[0].speaker: expected string`);
  });

  it.each([
    [['scene', LIGHTHOUSE, '--concurrency', '0']],
    [['scene', LIGHTHOUSE, '--provider', 'replicate']],
    [['scene', LIGHTHOUSE, '--tts-quality', 'best']],
    [['scene']],
    [['scene', LIGHTHOUSE, '--no-such-flag']],
  ])('exits 2 on a usage error: %j', async (args) => {
    const result = await render(args, t.env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });

  it('refuses a timeline name no format claims before rendering anything', async () => {
    const result = await render(['scene', LIGHTHOUSE, '--timeline', join(t.dir, 'scene.xyz')], t.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('scene.xyz');
  });

  it('draws a progress display on a terminal instead of JSON lines', async () => {
    if (!existsSync('/usr/bin/script')) {
      console.warn('SKIPPED: util-linux `script` is not installed; the terminal display is not tested');
      return;
    }
    const manifest = join(t.dir, 'tty.manifest.json');
    const command = `${process.execPath} ${join(process.cwd(), 'bin/run.js')} render scene ${LIGHTHOUSE} --manifest ${manifest}`;
    const output = execFileSync('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...t.env }, encoding: 'utf8' });
    expect(output).toMatch(/\d+\/11 units \| \d+ cached \| 0 failed \| .* elapsed \| ETA/);
    expect(output).toContain('The Last Keeper: 11 of 11 units');
    expect(output).not.toContain('"unit":');
  });
});

describe('annot render scene against fal', () => {
  const t = cliDir();
  let fal: FakeFalServer;
  const falEnv = () => ({ ...t.env, FAL_KEY: 'test-key', FAL_QUEUE_URL: fal.url });
  const scene = () => {
    const path = join(t.dir, 'three.yaml');
    writeFileSync(path, 'title: Three Shots\nshots:\n  - id: a\n    description: first\n  - id: b\n    description: second\n  - id: c\n    description: third\n');
    return path;
  };
  beforeAll(async () => {
    fal = await startFakeFalServer();
  });
  afterAll(async () => {
    await fal.close();
    t.cleanup();
  });

  it('picks fal by itself when FAL_KEY is set, and exits 1 with the failures in the manifest when a unit fails', async () => {
    fal.setOutcome((_model, args) => (String(args.prompt).startsWith('second') ? { error: { status: 422, detail: 'prompt rejected by the safety checker' } } : undefined));
    const manifest = join(t.dir, 'three.manifest.json');
    const result = await render(['scene', scene(), '--manifest', manifest], falEnv());
    fal.setOutcome(undefined);
    expect(result.code).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.map((l) => [l.id, l.failed ?? false])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(result.stderr).toContain('annot: render_scene: shot b failed');
    expect(result.stderr).toContain('prompt rejected by the safety checker');
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written.shots.map((s: { shot_id: string }) => s.shot_id)).toEqual(['a']);
    expect(written.failures).toEqual([expect.objectContaining({ unit: 'shot', id: 'b', code: 'ANNOT_FAL_BAD_REQUEST' })]);
    expect(fal.submissions().every((s) => s.authorization === 'Key test-key')).toBe(true);
  });

  it('with --strict, prints the findings and refuses the scene validate rejects: nothing rendered, nothing paid', async () => {
    fal.reset();
    const manifest = join(t.dir, 'strict.manifest.json');
    for (const extra of [[], ['--quiet'], ['--json']]) {
      const result = await render(['scene', LIGHTHOUSE, '--strict', '--manifest', manifest, ...extra], falEnv());
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('lighthouse.yaml:55:23: error: shots[3].characters[1]: no character named "Harbourmaster"');
      expect(result.stderr).toContain('warning: beats[5].speaker: no character named "Harbourmaster"');
      expect(result.stderr).toMatch(/--strict: the scene has 1 error and 1 warning \(listed above\), so nothing was rendered.* \[ANNOT_SCENE_FINDINGS\]/);
      if (extra[0] === '--json') expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ANNOT_SCENE_FINDINGS', exit_code: 1 } });
      else expect(result.stdout).toBe('');
    }
    expect(fal.requests).toEqual([]);
    expect(existsSync(manifest)).toBe(false);
    // A scene with nothing to find renders under --strict as without it.
    const cleanScene = join(t.dir, 'clean.yaml');
    writeFileSync(cleanScene, 'title: Clean\nshots:\n  - id: only\n    description: nothing to find here\n');
    const clean = await render(['scene', cleanScene, '--strict', '--manifest', join(t.dir, 'clean.json')], falEnv());
    expect(clean.code).toBe(0);
    expect(clean.stderr).not.toMatch(/error:|warning:/);
  });

  it('refuses two outputs on one path, or an output over the scene file, before calling anything', async () => {
    fal.reset();
    const three = scene();
    const before = readFileSync(three, 'utf8');
    const clashes: Array<[string[], string]> = [
      [['--timeline', join(t.dir, 'x.html'), '--storyboard', join(t.dir, 'x.html')], 'as --timeline and as --storyboard'],
      [['--animatic', join(t.dir, 'x.mp4'), '--timeline', join(t.dir, 'x.mp4.vtt')], 'as the subtitles beside --animatic and as --timeline'],
      [['--manifest', three], 'as the scene file and as --manifest'],
    ];
    for (const [flags, says] of clashes) {
      const result = await render(['scene', three, ...flags], falEnv());
      expect([flags, result.code]).toEqual([flags, 1]);
      expect(result.stderr).toContain(says);
      expect(result.stderr).toContain('[ANNOT_OUTPUT_CLASH]');
    }
    expect(readFileSync(three, 'utf8')).toBe(before);
    expect(existsSync(join(t.dir, 'x.html')) || existsSync(join(t.dir, 'x.mp4'))).toBe(false);
    expect(fal.requests).toEqual([]);
  });

  it('renders every other unit with --keep-going', async () => {
    fal.setOutcome((_model, args) => (String(args.prompt).startsWith('second') ? { error: { status: 422, detail: 'no' } } : undefined));
    const result = await render(['scene', scene(), '--keep-going', '--manifest', join(t.dir, 'kg.json')], falEnv());
    fal.setOutcome(undefined);
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout).map((l) => l.id)).toEqual(['a', 'c', 'b']);
  });

  it('stops cleanly on Ctrl-C: in-flight calls are cancelled, finished units stay cached', async () => {
    const path = join(t.dir, 'slow.yaml');
    writeFileSync(path, 'title: Slow\nshots:\n' + ['one', 'two', 'three', 'four'].map((d, i) => `  - id: s${i}\n    description: slow ${d}\n`).join(''));
    // The first unit finishes at once; the others would take an hour, so they are surely in flight
    // when the signal comes, however slowly this machine runs.
    fal.reset();
    fal.setLatency((_model, args) => (JSON.stringify(args).includes('slow one') ? 0 : 3_600_000));
    const child = startCli(['render', 'scene', path, '--manifest', join(t.dir, 'slow.json')], falEnv());
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('\n')) resolve();
      }),
    );
    // The first unit finished; wait until the CLI is polling fal for another (it holds its request id).
    const waitingOnFal = () => {
      const slow = new Set(fal.submissions().filter((s) => /slow (two|three|four)/.test(JSON.stringify(s.args))).map((s) => s.request_id));
      return fal.requests.some((r) => r.phase === 'status' && [...slow].some((id) => r.path.includes(id)));
    };
    await eventually(waitingOnFal, 'the CLI polling fal for a second unit', 20_000);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(jsonLines(stdout).map((l) => l.id)).toEqual(['s0']);
    expect(stderr).toContain('interrupted');
    expect(fal.cancelled().length).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(t.dir, 'slow.json'))).toBe(false);

    fal.setLatency(0);
    const again = await render(['scene', path, '--manifest', join(t.dir, 'slow.json')], falEnv());
    expect(again.code).toBe(0);
    expect(jsonLines(again.stdout).map((l) => [l.id, l.cache_hit])).toEqual([
      ['s0', true],
      ['s1', false],
      ['s2', false],
      ['s3', false],
    ]);
  });
});
