// annot sync SUBS --reference OTHER: real subtitles (Elephants Dream, from video.js's examples; see
// fixtures/sync/LICENSE-video.js.txt) moved by a known offset and frame-rate ratio, and the Swedish
// subtitles of the same film aligned to the English ones.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';

const ENGLISH = 'fixtures/sync/elephantsdream-captions.en.vtt';
const SWEDISH = 'fixtures/sync/elephantsdream-captions.sv.vtt';
const dir = mkdtempSync(join(tmpdir(), 'annot-sync-reference-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TIME = /(\d\d):(\d\d):(\d\d)\.(\d{3})/g;
const seconds = (h: string, m: string, s: string, ms: string) => Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
const vttTime = (value: number) => {
  const ms = Math.round(value * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};
/** The WebVTT file with every time t written as t × scale + shift. */
const moved = (path: string, scale: number, shift: number) => readFileSync(path, 'utf8').replace(TIME, (_m, h, m, s, ms) => vttTime(seconds(h, m, s, ms) * scale + shift));
const times = (text: string) => [...text.matchAll(TIME)].map((m) => seconds(m[1], m[2], m[3], m[4]));

interface Estimate {
  offset: string;
  ratio: string;
  confidence: number;
  against: string;
  written: { annotations: number } | null;
}

async function sync(args: string[]): Promise<Estimate> {
  const result = await runCli(['sync', ...args, '--json'], { timeoutMs: 60_000 });
  expect(result.stderr).not.toMatch(/ANNOT_/);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Estimate;
}

describe('annot sync SUBS --reference OTHER [OUT]', () => {
  it.each([
    { name: 'late by 3.2 s and made for 24 fps', scale: 25 / 24, shift: 3.2, ratio: '24/25', offset: -3.072 },
    { name: 'early by 11.75 s', scale: 1, shift: -11.75, ratio: '1', offset: 11.75 },
    { name: 'made for 23.976 fps', scale: 1001 / 960, shift: 0.5, ratio: '960/1001', offset: -0.5 * (960 / 1001) },
  ])('English subtitles $name are put back on the English reference', async ({ scale, shift, ratio, offset }) => {
    const subs = join(dir, `en-${ratio.replace('/', '_')}-${shift}.vtt`);
    const out = join(dir, `en-${ratio.replace('/', '_')}-${shift}.synced.vtt`);
    writeFileSync(subs, moved(ENGLISH, scale, shift));
    const estimate = await sync([subs, '--reference', ENGLISH, out]);
    expect(estimate.against).toBe('reference');
    expect(estimate.ratio).toBe(ratio);
    expect(Math.abs(Number(estimate.offset) - offset)).toBeLessThanOrEqual(0.05);
    expect(estimate.confidence).toBeGreaterThanOrEqual(0.5);
    expect(estimate.written?.annotations).toBe(78);
    // Every cue back where the reference has it, to within the rounding of the moved file.
    const original = times(readFileSync(ENGLISH, 'utf8'));
    const synced = times(readFileSync(out, 'utf8'));
    expect(synced).toHaveLength(original.length);
    synced.forEach((time, i) => expect(Math.abs(time - original[i])).toBeLessThanOrEqual(0.05));
  });

  it('the Swedish subtitles of the film align to the English ones, moved or not', async () => {
    const asIs = await sync([SWEDISH, '--reference', ENGLISH]);
    // The two translations differ in their cues but are timed to the same speech: a small offset, clearly found.
    expect(asIs.ratio).toBe('1');
    expect(Math.abs(Number(asIs.offset))).toBeLessThan(0.5);
    expect(asIs.confidence).toBeGreaterThanOrEqual(0.5);
    expect(asIs.written).toBeNull();
    const subs = join(dir, 'sv-early.vtt');
    writeFileSync(subs, moved(SWEDISH, 1, -4.5));
    const early = await sync([subs, '--reference', ENGLISH]);
    expect(early.ratio).toBe('1');
    expect(Math.abs(Number(early.offset) - (Number(asIs.offset) + 4.5))).toBeLessThanOrEqual(0.01);
  });

  it('OUT may be SUBS itself, and any format: an .annot written whole, then synced in place', async () => {
    const subs = join(dir, 'in-place.vtt');
    writeFileSync(subs, moved(ENGLISH, 1, 6.5));
    const inPlace = await sync([subs, '--reference', ENGLISH, subs]);
    expect(inPlace.offset).toBe('-6.5');
    expect(times(readFileSync(subs, 'utf8'))).toEqual(times(readFileSync(ENGLISH, 'utf8')));
    const store = join(dir, 'synced.annot');
    writeFileSync(subs, moved(ENGLISH, 1, -2.25));
    const annot = await sync([subs, '--reference', ENGLISH, store, '--no-fix-framerate']);
    expect(annot).toMatchObject({ offset: '2.25', ratio: '1', written: { annotations: 78 } });
    // The .annot synced against its own reference again: nothing to move, and the file replaced whole.
    const again = await sync([store, '--reference', ENGLISH, store]);
    expect(again).toMatchObject({ offset: '0', ratio: '1', written: { annotations: 78 } });
  });
});
