// annot sync when there is nothing to align to (noise, silence), and on bad input: a warning and
// nothing written, --strict a failure, and every error naming the file it is about.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { wavBytes } from '../support/wav.js';
import { seeded } from './speech-track.js';

const ENGLISH = 'fixtures/sync/elephantsdream-captions.en.vtt';
const RATE = 16_000;
const dir = mkdtempSync(join(tmpdir(), 'annot-sync-refusals-'));
const noise = join(dir, 'noise.wav');
const silence = join(dir, 'silence.wav');

beforeAll(() => {
  const random = seeded(7);
  const samples = new Int16Array(RATE * 300);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round((random() - 0.5) * 8000);
  writeFileSync(noise, wavBytes(samples, RATE));
  writeFileSync(silence, wavBytes(new Int16Array(RATE * 300), RATE));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('annot sync without a clear alignment', () => {
  it.each([['steady noise', noise], ['silence', silence]])('against %s: a warning, exit 0, nothing written; --strict exit 1', async (_name, media) => {
    const out = join(dir, 'never.vtt');
    const warned = await runCli(['sync', ENGLISH, media, out], { timeoutMs: 60_000 });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/^offset [+-]\d+\.\d{3} s, ratio .*, confidence 0\.\d\d$/m);
    expect(warned.stderr).toContain(`warning: no clear alignment (confidence 0.00, under 0.5): ${ENGLISH} is left as it was, ${out} not written`);
    expect(existsSync(out)).toBe(false);
    const refused = await runCli(['sync', ENGLISH, media, out, '--strict'], { timeoutMs: 60_000 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`^annot: ${ENGLISH.replaceAll('.', '\\.')}: no clear alignment to .*nothing was written \\[ANNOT_SYNC_UNCERTAIN\\]$`, 'm'));
    expect(existsSync(out)).toBe(false);
  });

  it('--strict with --json also gives the error as JSON, and OUT as it was', async () => {
    const out = join(dir, 'kept.vtt');
    writeFileSync(out, 'WEBVTT\n');
    const refused = await runCli(['sync', ENGLISH, silence, out, '--strict', '--json'], { timeoutMs: 60_000 });
    expect(refused.code).toBe(1);
    expect((JSON.parse(refused.stdout) as { error: { code: string } }).error.code).toBe('ANNOT_SYNC_UNCERTAIN');
    expect(readFileSync(out, 'utf8')).toBe('WEBVTT\n');
  });
});

describe('annot sync on bad input names the file', () => {
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

  it('a media file that does not exist', async () => {
    const missing = join(dir, 'missing.mkv');
    const result = await runCli(['sync', ENGLISH, missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`annot: ${missing}: no such file [ANNOT_INVALID_INPUT]`);
  });

  it('a media file FFmpeg cannot read', async () => {
    const notMedia = join(dir, 'notes.mp4');
    writeFileSync(notMedia, 'these are notes, not a film\n');
    const result = await runCli(['sync', ENGLISH, notMedia]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^annot: ${notMedia.replaceAll('.', '\\.')}: the audio could not be decoded \\(ffmpeg exit \\d+.*\\[ANNOT_MEDIA_UNREADABLE\\]$`, 'm'));
  });

  it('a video without an audio track', async () => {
    const video = join(dir, 'silent-film.mkv');
    const made = spawnSync(ffmpeg, ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5', '-t', '1', '-c:v', 'mpeg4', video]);
    expect(made.status).toBe(0);
    const result = await runCli(['sync', ENGLISH, video]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`annot: ${video}: the media has no audio track to sync to [ANNOT_NO_AUDIO]`);
  });

  it('subtitles without a single timed cue', async () => {
    const empty = join(dir, 'empty.srt');
    writeFileSync(empty, '');
    const result = await runCli(['sync', empty, noise]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`annot: ${empty}: no cues with a duration to sync`);
    expect(result.stderr).toContain('[ANNOT_SYNC_NO_CUES]');
  });

  it('subtitles that do not parse', async () => {
    const broken = join(dir, 'broken.eaf');
    writeFileSync(broken, '<?xml version="1.0"?>\n<ANNOTATION_DOCUMENT><TIME_ORDER>\n');
    const result = await runCli(['sync', broken, noise]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^annot: ${broken.replaceAll('.', '\\.')}.*\\[ANNOT_FORMAT_PARSE\\]$`, 'm'));
  });

  it('a reference that does not exist, and a missing MEDIA', async () => {
    const missing = join(dir, 'missing.srt');
    const noReference = await runCli(['sync', ENGLISH, '--reference', missing]);
    expect(noReference.code).toBe(1);
    expect(noReference.stderr).toContain(`annot: ${missing}: no such file [ANNOT_INVALID_INPUT]`);
    const noMedia = await runCli(['sync', ENGLISH]);
    expect(noMedia.code).toBe(2);
    expect(noMedia.stderr).toContain('sync takes annot sync SUBS MEDIA [OUT] (1 argument given); give the media, or --reference OTHER [ANNOT_USAGE]');
  });

  it('--max-offset that is not a positive number', async () => {
    const result = await runCli(['sync', ENGLISH, noise, '--max-offset', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-offset: expected a positive number of seconds, got "soon" [ANNOT_USAGE]');
  });
});
