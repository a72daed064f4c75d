import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from '../live/browser.js';
import { annotConvert, annotReading, annotReads, type ReadCue } from './annot-reading.js';
import { ChromiumTracks, type BrowserCue } from './chromium-tracks.js';
import { loadEveryCodec } from '../support/codecs.js';
import { fixtureInputs, inputsOf } from './fixture-inputs.js';

/**
 * WebVTT that annot writes, read by the program people open it in: Chromium's `<track>`. A WebVTT
 * input must read in Chromium exactly as annot's output of it does (ids, times, text, voices,
 * settings), whether converted directly or through `.annot`; any other input must read in Chromium
 * as annot reads it (times to the millisecond, plain text, speakers).
 */
const executablePath = chromiumPath();
const describeWithChromium = executablePath === null ? describe.skip : describe;

describeWithChromium('WebVTT written by annot, read by Chromium', () => {
  let tracks: ChromiumTracks;
  let work: string;

  beforeAll(async () => {
    await loadEveryCodec();
    tracks = await ChromiumTracks.start(executablePath as string);
    work = mkdtempSync(join(tmpdir(), 'annot-chromium-'));
  }, 60_000);

  afterAll(async () => {
    await tracks?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  let count = 0;
  const output = (extension: string): string => join(work, `out-${count++}${extension}`);

  it.each(inputsOf('webvtt').map((input) => [input.name, input.path]))('%s reads in Chromium as annot writes it, directly and through .annot', async (_name, path) => {
    if (!(await annotReads(path))) return;
    const original = await tracks.read(path);
    const direct = output('.vtt');
    await annotConvert(path, direct, 'webvtt');
    expect(await tracks.read(direct)).toEqual(original);
    const annot = output('.annot');
    await annotConvert(path, annot, 'annot');
    const throughAnnot = output('.vtt');
    await annotConvert(annot, throughAnnot, 'webvtt');
    expect(await tracks.read(throughAnnot)).toEqual(original);
  });

  it.each(fixtureInputs().filter((input) => input.format !== 'webvtt').map((input) => [input.name, input.path, input.format]))(
    '%s written as WebVTT reads in Chromium as annot reads it',
    async (_name, path, format) => {
      if (!(await annotReads(path))) return;
      const vtt = output('.vtt');
      await annotConvert(path, vtt, 'webvtt');
      const shown = inTrackOrder(comparable(await tracks.read(vtt)));
      expect(shown).toEqual(matching(shown, inTrackOrder(expected(await annotReading(path, format)))));
    },
  );
});

/** A cue in the terms both readings are compared in: times in milliseconds (exact, or as Chromium has them), text, voice. */
interface ComparedCue {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly voice: string | null;
}

/** Chromium's cues; a cue written with its end before its start (kept as the source had it) ends at its start, as annot reads it. */
function comparable(cues: readonly BrowserCue[]): ComparedCue[] {
  return cues.map((cue) => ({ start: cue.start * 1000, end: Math.max(cue.start, cue.end) * 1000, text: cue.text, voice: cue.voice }));
}

/**
 * What Chromium must show of annot's reading: every timed annotation but SubStation comments
 * (which players never show) and those wholly before 0 s (no subtitle time is negative: one that
 * starts before 0 s starts at 0), its text without the blank lines a cue cannot hold, and its
 * speaker as a voice span names it.
 */
export function expected(cues: readonly ReadCue[]): ComparedCue[] {
  return cues
    .filter((cue) => !cue.comment && !(cue.end < 0 || (cue.end === 0 && cue.start < 0)))
    .map((cue) => {
      const voice = cue.speaker === null ? null : cue.speaker.replace(/[\t\n\f\r ]+/g, ' ').trim();
      return {
        start: Math.max(0, cue.start) * 1000,
        end: Math.max(0, cue.start, cue.end) * 1000,
        text: cue.text
          .replace(/\r\n?/g, '\n')
          .replaceAll('\0', '\ufffd')
          .split('\n')
          .filter((line) => line.length > 0)
          .join('\n'),
        voice: voice === null || voice.length === 0 ? null : voice,
      };
    });
}

/** Cues in one order on both sides: by start to the millisecond, then text, then end (cues that start together are in no order that matters). */
function inTrackOrder(cues: ComparedCue[]): ComparedCue[] {
  return [...cues].sort((a, b) => Math.round(a.start) - Math.round(b.start) || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0) || Math.round(a.end) - Math.round(b.end));
}

/**
 * The expected cues, with each time replaced by the one Chromium shows where the two are within
 * half a millisecond (WebVTT writes milliseconds: a finer time is rounded), so that a diff shows
 * only what differs.
 */
function matching(shown: readonly ComparedCue[], wanted: readonly ComparedCue[]): ComparedCue[] {
  const close = (a: number, b: number | undefined): boolean => b !== undefined && Math.abs(a - b) <= 0.5 + 1e-6;
  return wanted.map((cue, i) => ({
    start: close(cue.start, shown[i]?.start) ? shown[i].start : cue.start,
    end: close(cue.end, shown[i]?.end) ? shown[i].end : cue.end,
    text: cue.text,
    voice: cue.voice,
  }));
}
