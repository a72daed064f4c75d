import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { annotConvert, annotReading, annotReads, type ReadCue } from './annot-reading.js';
import { cueDifference, NO_DIFFERENCE, type TimedText } from './cue-matching.js';
import { ffmpegReading, shownText, type FfmpegCue } from './ffmpeg-subtitles.js';
import { loadEveryCodec } from '../support/codecs.js';
import { fixtureInputs } from './fixture-inputs.js';

/**
 * SubRip, WebVTT and SubStation that annot writes, read by the bundled FFmpeg into SubRip: every
 * fixture converted to each of them must read in FFmpeg as annot reads the fixture (the same cues,
 * times to the millisecond or, for SubStation, the centisecond, the same text). A fixture of the
 * target's own format is converted directly and through `.annot`; where FFmpeg cannot read even the
 * original as its content is (this FFmpeg knows no WebVTT REGION or STYLE block), annot's file must
 * read in FFmpeg exactly as the original does.
 */
const TARGETS = [
  // WebVTT keeps ruby, which FFmpeg shows inline; SubRip and SubStation have none, and annot leaves its text out.
  // FFmpeg reads WebVTT by making it SubStation without escaping a backslash: a "\N" in the text becomes a line break.
  { format: 'srt', extension: '.srt', precisionMs: 0.5, rubyShown: false, backslashEscapes: false },
  { format: 'webvtt', extension: '.vtt', precisionMs: 0.5, rubyShown: true, backslashEscapes: true },
  { format: 'ass', extension: '.ass', precisionMs: 5, rubyShown: false, backslashEscapes: false },
] as const;

/**
 * The one file this FFmpeg (2018) reads otherwise than the WebVTT parser however it is written, and
 * why. Chromium reads annot's file of it right (webvtt-in-chromium.test.ts).
 */
const FFMPEG_LIMITS: Readonly<Record<string, string>> = {
  'webvtt/wpt-file-parsing/nulls.vtt as webvtt':
    'its header runs straight into the first cue, which the WebVTT parser ends at the line with "-->" and FFmpeg only at a blank line; the original reads in FFmpeg only because its NUL byte ends the header line early (annot writes U+FFFD, as the parser reads it)',
};

describe.each(TARGETS)('$format written by annot, read by FFmpeg', ({ format, extension, precisionMs, rubyShown, backslashEscapes }) => {
  let work: string;
  let count = 0;
  const output = (ext: string): string => join(work, `out-${count++}${ext}`);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), `annot-ffmpeg-${format}-`));
    await loadEveryCodec();
  });

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.each(fixtureInputs().map((input) => [input.name, input.path, input.format]))(`%s written as ${format} reads in FFmpeg as annot reads it`, async (name, path, from) => {
    if (FFMPEG_LIMITS[`${name} as ${format}`] !== undefined || !(await annotReads(path))) return;
    const content = shownByFfmpeg(await annotReading(path, from), rubyShown, backslashEscapes);
    const outputs = [output(extension)];
    await annotConvert(path, outputs[0], format);
    if (from === format) {
      const annot = output('.annot');
      await annotConvert(path, annot, 'annot');
      outputs.push(output(extension));
      await annotConvert(annot, outputs[1], format);
    }
    const original = from === format ? normalized(await ffmpegReading(path)) : null;
    for (const written of outputs) {
      const shown = normalized(await ffmpegReading(written));
      if (original !== null && sameCues(shown, original)) continue;
      expect(cueDifference(shown ?? [], content, precisionMs)).toEqual(NO_DIFFERENCE);
      // FFmpeg refuses a subtitle file without one subtitle: for it, no cues is what annot wrote.
      if (shown === null) expect(content).toEqual([]);
    }
  });
});

/**
 * What FFmpeg must show of annot's reading: every timed annotation with a text but SubStation
 * comments and those wholly before 0 s (no subtitle time is negative), its text without blank
 * lines, which no subtitle can hold, with WebVTT ruby text inline where it is kept (FFmpeg has no
 * ruby), and one of several identical cues.
 */
function shownByFfmpeg(cues: readonly ReadCue[], rubyShown: boolean, backslashEscapes: boolean): TimedText[] {
  return unique(
    cues
      .filter((cue) => !cue.comment && !(cue.end < 0 || (cue.end === 0 && cue.start < 0)))
      .map((cue) => ({ start: Math.max(0, cue.start) * 1000, end: Math.max(0, cue.start, cue.end) * 1000, text: shownLines(misread(rubyShown ? cue.textWithRuby : cue.text, backslashEscapes)), endBeforeStart: cue.endBeforeStart })),
  );
}

/**
 * FFmpeg's cues in the same terms: no empty cue, one of identical ones, and FFmpeg's own SubStation
 * escapes, which its SubRip output leaks (`\{`, `\}`, `\h`), as the characters they stand for.
 */
function normalized(cues: readonly FfmpegCue[] | null): TimedText[] | null {
  if (cues === null) return null;
  return unique(cues.map((cue) => ({ start: cue.start, end: cue.end, text: shownLines(cue.text.replace(/\\([{}])/g, '$1').replaceAll('\\h', '\u00a0')) })));
}

function unique(cues: readonly TimedText[]): TimedText[] {
  const seen = new Set<string>();
  return cues.filter((cue) => {
    const key = `${Math.round(cue.start)} ${Math.round(cue.end)} ${cue.text}`;
    if (cue.text.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** FFmpeg's known misreading of WebVTT text: `\N` and `\n` as line breaks, `\h` as a no-break space (SubStation's escapes). */
function misread(text: string, backslashEscapes: boolean): string {
  return backslashEscapes ? text.replace(/\\[Nn]/g, '\n').replaceAll('\\h', '\u00a0') : text;
}

/**
 * The lines of a text as a subtitle shows them, the same on both sides: the tags FFmpeg's SubRip
 * writes left out (shownText), no blank line, and no white space at a line's ends (FFmpeg trims it).
 */
function shownLines(text: string): string {
  return shownText(text)
    .split(/\r\n?|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

function sameCues(a: readonly TimedText[] | null, b: readonly TimedText[] | null): boolean {
  if (a === null || b === null) return a === b;
  const difference = cueDifference(a, b, 0);
  return difference.missing.length === 0 && difference.extra.length === 0;
}
