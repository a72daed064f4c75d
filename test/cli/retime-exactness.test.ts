import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * A frame-rate change and back is exact over a feature film's length (issue 35): three hours of
 * cues on 23.976 fps frames, as a real film subtitle's times are (frame n at n × 1001/24000 s,
 * written to the nearest millisecond, ties to even), go to 25 fps and back to the very bytes.
 *
 * Compared with pysubs2's arithmetic, `SSAFile.transform_framerate(in_fps, out_fps)`:
 * `ratio = in_fps / out_fps; start = int(round(start * ratio))` in floating point (pysubs2's
 * ssafile.py; its test_transform_framerate has (0, 10), (1000, 1010) at 10 → 20 fps become
 * (0, 5), (500, 505), see convert-retime.test.ts). With 24000/1001 given as the float it is,
 * pysubs2 agrees with annot at every cue here; with `23.976` as its CLI documentation writes it
 * (`pysubs2 --transform-framerate 25 23.976`), the ratio is 23.976 itself, and its times drift
 * from the film's by hour 3 by more than 10 ms. annot reads 23.976 as 24000/1001, exactly.
 */

const HOURS = 3;
const FRAME_STEP = 97; // every residue of a frame number mod 24 comes up, the ties at n ≡ 12 among them

/** Python 3's round() of a float: to the nearest integer, ties to even (exact on the double's value). */
function pythonRound(x: number): number {
  const floor = Math.floor(x);
  const fraction = x - floor; // exact for doubles below 2^52
  if (fraction > 0.5) return floor + 1;
  if (fraction < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** pysubs2's transform_framerate on one time in milliseconds. */
const pysubs2Transform = (ms: number, inFps: number, outFps: number): number => pythonRound(ms * (inFps / outFps));

/** num/den to the nearest integer, ties to even. */
function nearest(num: bigint, den: bigint): bigint {
  const q = num / den;
  const twice = 2n * (num % den);
  return twice > den || (twice === den && q % 2n === 1n) ? q + 1n : q;
}

const filmFrameMs = (frame: number): number => Number(nearest(BigInt(frame) * 1001n, 24n));

function timestamp(ms: number): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
}

function msOf(stamp: string): number {
  const [h, m, rest] = stamp.split(':');
  const [s, ms] = rest.split(',');
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
}

/** Every time of an SRT file, in order, in milliseconds. */
function timesOf(text: string): number[] {
  return [...text.matchAll(/^(\d\d:\d\d:\d\d,\d\d\d) --> (\d\d:\d\d:\d\d,\d\d\d)$/gm)].flatMap((match) => [msOf(match[1]), msOf(match[2])]);
}

describe('a frame-rate change over three hours of a film', () => {
  const { dir, cleanup } = tempDir('annot-retime-exact-');
  afterAll(cleanup);
  const film = join(dir, 'film-23.976.srt');
  const pal = join(dir, 'film-25.srt');
  const back = join(dir, 'film-back.srt');
  const frames: number[] = [];

  beforeAll(() => {
    const lastFrame = Math.floor((HOURS * 3600 * 24000) / 1001);
    const cues: string[] = [];
    for (let n = 24, i = 1; n + 60 <= lastFrame; n += FRAME_STEP, i++) {
      frames.push(n, n + 60);
      cues.push(`${i}\n${timestamp(filmFrameMs(n))} --> ${timestamp(filmFrameMs(n + 60))}\nline ${i}\n`);
    }
    writeFileSync(film, cues.join('\n'));
  });

  it('--fps-from 24000/1001 --fps-to 25 puts every cue on its 25 fps frame, and back gives the input byte for byte', async () => {
    const there = await runCli(['convert', film, pal, '--fps-from', '24000/1001', '--fps-to', '25']);
    expect(there.code).toBe(0);
    // The film's times are rounded milliseconds, so the exact images fall between ticks: rounded, and counted.
    expect(there.stderr).toMatch(/warning: retime: [\d,]+ times fell between ticks after the retime and were rounded/);
    const palTimes = timesOf(readFileSync(pal, 'utf8'));
    expect(palTimes).toEqual(frames.map((frame) => frame * 40));
    expect(palTimes.at(-1)).toBeGreaterThan((HOURS * 3600 - 60) * 1000 * (24000 / 25025));

    const again = await runCli(['convert', pal, back, '--fps-from', '25', '--fps-to', '24000/1001']);
    expect(again.code).toBe(0);
    expect(readFileSync(back).equals(readFileSync(film))).toBe(true);
    // 23.976 is read as 24000/1001: the same bytes again.
    const spelt = join(dir, 'film-back-23.976.srt');
    expect((await runCli(['convert', pal, spelt, '--fps-from', '25', '--fps-to', '23.976'])).code).toBe(0);
    expect(readFileSync(spelt).equals(readFileSync(film))).toBe(true);
  });

  it('agrees with pysubs2\'s arithmetic where its float ratio is 24000/1001, and stays exact where pysubs2\'s documented 23.976 drifts', () => {
    const filmTimes = timesOf(readFileSync(film, 'utf8'));
    const palTimes = timesOf(readFileSync(pal, 'utf8'));
    const backTimes = timesOf(readFileSync(back, 'utf8'));
    const ntsc = 24000 / 1001;
    expect(palTimes).toEqual(filmTimes.map((ms) => pysubs2Transform(ms, ntsc, 25)));
    expect(backTimes).toEqual(palTimes.map((ms) => pysubs2Transform(ms, 25, ntsc)));
    // `pysubs2 --transform-framerate 25 23.976`: the ratio 25/23.976 is not 25/(24000/1001).
    const pysubs2Back = palTimes.map((ms) => pysubs2Transform(ms, 25, 23.976));
    const drift = pysubs2Back.map((ms, i) => Math.abs(ms - filmTimes[i]));
    expect(Math.max(...drift)).toBeGreaterThanOrEqual(10);
    expect(drift.at(-1)).toBeGreaterThanOrEqual(10); // at hour 3
    expect(backTimes).toEqual(filmTimes); // annot: no drift anywhere
  });
});
