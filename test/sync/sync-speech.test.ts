// annot sync against speech made by espeak-ng: one utterance per cue, silence between, the
// subtitle file then moved by a known offset and frame-rate ratio. The built CLI must find the
// ratio exactly and the offset within 50 ms, and write cues back where the speech is.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { wavBytes } from '../support/wav.js';
import { espeakOrSkip, SPEECH_RATE, speechTrack, srtCues, srtOf, type SpokenCue, type TrackPlan } from './speech-track.js';

const PLANS: Record<string, TrackPlan> = {
  // few short cues, long silences
  sparse: { cues: 18, words: [3, 6], gap: [4, 12], lead: 12, seed: 1 },
  // many short cues, short pauses
  dense: { cues: 50, words: [2, 5], gap: [0.2, 1], lead: 12, seed: 2 },
  // long sentences
  long: { cues: 14, words: [12, 20], gap: [1, 3], lead: 12, seed: 3 },
};

/** How the subtitle file is moved: each time t written as t × scale + shift; sync must find ratio 1/scale, offset -shift/scale. */
const DISTORTIONS = [
  { name: 'late by 2.5 s', scale: [1, 1], shift: 2.5, ratio: '1' },
  { name: 'early by 7.32 s', scale: [1, 1], shift: -7.32, ratio: '1' },
  { name: 'made for 24 fps, shown at 25 fps, and late', scale: [25, 24], shift: 3.1, ratio: '24/25' },
  { name: 'made for 23.976 fps (24000/1001), shown at 25 fps, and early', scale: [1001, 960], shift: -4.2, ratio: '960/1001' },
  { name: 'made for 25 fps, shown at 23.976 fps', scale: [960, 1001], shift: 1.234, ratio: '1001/960' },
] as const;

const run = espeakOrSkip('annot sync on generated speech');
const dir = mkdtempSync(join(tmpdir(), 'annot-sync-speech-'));
const tracks = new Map<string, { media: string; cues: SpokenCue[] }>();

beforeAll(() => {
  if (!run) return;
  for (const [name, plan] of Object.entries(PLANS)) {
    const { samples, cues } = speechTrack(plan);
    const media = join(dir, `${name}.wav`);
    writeFileSync(media, wavBytes(samples, SPEECH_RATE));
    tracks.set(name, { media, cues });
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

(run ? describe : describe.skip)('annot sync SUBS MEDIA OUT on generated speech', () => {
  for (const density of Object.keys(PLANS)) {
    for (const distortion of DISTORTIONS) {
      it(`${density} cues ${distortion.name}: the ratio exactly, the offset within 50 ms`, async () => {
        const { media, cues } = tracks.get(density)!;
        const scale = distortion.scale[0] / distortion.scale[1];
        const subs = join(dir, `${density}-${distortion.ratio.replace('/', '_')}-${distortion.shift}.srt`);
        const out = subs.replace(/\.srt$/, '.synced.srt');
        writeFileSync(subs, srtOf(cues, { scale, shift: distortion.shift }));
        const result = await runCli(['sync', subs, media, out, '--json'], { timeoutMs: 120_000 });
        expect(result.stderr).toMatch(/^offset [+-]\d+\.\d{3} s, ratio .*, confidence \d\.\d\d$/m);
        expect(result.code).toBe(0);
        const estimate = JSON.parse(result.stdout) as { offset: string; ratio: string; confidence: number; low_confidence: boolean };
        expect(estimate.ratio).toBe(distortion.ratio);
        expect(Math.abs(Number(estimate.offset) - -distortion.shift / scale)).toBeLessThanOrEqual(0.05);
        expect(estimate.low_confidence).toBe(false);
        // The cues written are back on the speech (SRT keeps milliseconds: 50 ms and a rounding).
        const synced = srtCues(readFileSync(out, 'utf8'));
        expect(synced).toHaveLength(cues.length);
        synced.forEach((cue, i) => {
          expect(Math.abs(cue.start - cues[i].start)).toBeLessThanOrEqual(0.052);
          expect(Math.abs(cue.end - cues[i].end)).toBeLessThanOrEqual(0.052);
        });
      });
    }
  }

  it('without OUT prints the estimate and writes nothing', async () => {
    const { media, cues } = tracks.get('sparse')!;
    const subs = join(dir, 'estimate-only.srt');
    writeFileSync(subs, srtOf(cues, { shift: 2.5 }));
    const before = readFileSync(subs);
    const result = await runCli(['sync', subs, media], { timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^offset -2\.5\d\d s|^offset -2\.4\d\d s/m);
    expect(result.stderr).toContain('nothing written: give OUT to write the retimed file');
    expect(result.stdout).toBe('');
    expect(readFileSync(subs)).toEqual(before);
  });

  it('--no-fix-framerate tries ratio 1 only', async () => {
    const { media, cues } = tracks.get('dense')!;
    const subs = join(dir, 'offset-only.srt');
    writeFileSync(subs, srtOf(cues, { shift: -1.5 }));
    const result = await runCli(['sync', subs, media, '--no-fix-framerate', '--json'], { timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    const estimate = JSON.parse(result.stdout) as { offset: string; ratio: string };
    expect(estimate.ratio).toBe('1');
    expect(Math.abs(Number(estimate.offset) - 1.5)).toBeLessThanOrEqual(0.05);
  });

  it('an offset past --max-offset is not found: no clear alignment, nothing written', async () => {
    const { media, cues } = tracks.get('sparse')!;
    const subs = join(dir, 'far.srt');
    const out = join(dir, 'far.synced.srt');
    writeFileSync(subs, srtOf(cues, { shift: 30 }));
    const result = await runCli(['sync', subs, media, out, '--max-offset', '10'], { timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: no clear alignment \(confidence 0\.\d\d, under 0\.5\)/);
    expect(existsSync(out)).toBe(false);
  });

  it('annot convert --sync-to MEDIA converts with the same retime, into another format', async () => {
    const { media, cues } = tracks.get('dense')!;
    const subs = join(dir, 'convert-sync-to.srt');
    const out = join(dir, 'convert-sync-to.vtt');
    writeFileSync(subs, srtOf(cues, { scale: 25 / 24, shift: 3.1 }));
    const result = await runCli(['convert', subs, out, '--sync-to', media], { timeoutMs: 120_000 });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/synced to .*: offset -2\.9\d\d s, ratio 24\/25.*confidence 0\.\d\d$/m);
    const synced = srtCues(readFileSync(out, 'utf8').replace(/(\d\d:\d\d:\d\d)\.(\d{3})/g, '$1,$2'));
    expect(synced).toHaveLength(cues.length);
    synced.forEach((cue, i) => expect(Math.abs(cue.start - cues[i].start)).toBeLessThanOrEqual(0.052));
  });

  it('annot convert --sync-to with no clear alignment writes nothing, and --strict fails; other retime flags are refused', async () => {
    const { media, cues } = tracks.get('sparse')!;
    const subs = join(dir, 'convert-far.srt');
    const out = join(dir, 'convert-far.vtt');
    writeFileSync(subs, srtOf(cues, { shift: 90 }));
    const unclear = await runCli(['convert', subs, out, '--sync-to', media], { timeoutMs: 120_000 });
    expect(unclear.code).toBe(0);
    expect(unclear.stderr).toMatch(/warning: no clear alignment .*nothing written/);
    expect(existsSync(out)).toBe(false);
    const strict = await runCli(['convert', subs, out, '--sync-to', media, '--strict'], { timeoutMs: 120_000 });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('ANNOT_SYNC_UNCERTAIN');
    expect(existsSync(out)).toBe(false);
    const mixed = await runCli(['convert', subs, out, '--sync-to', media, '--shift', '2'], { timeoutMs: 120_000 });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/--sync-to: it finds the offset and frame-rate ratio itself/);
  });
});
