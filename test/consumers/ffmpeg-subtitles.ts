import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * A subtitle file as the bundled FFmpeg reads it: converted by FFmpeg to SubRip on its standard
 * output, and that SubRip's cues. Their text is what FFmpeg's SubRip says, tags and all: SubRip
 * cannot tell a tag FFmpeg wrote from text that looks like one, so a comparison puts both sides
 * through shownText.
 */
export interface FfmpegCue {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const FFMPEG = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;

/** FFmpeg's reading of the file, or null when FFmpeg refuses it (its demuxer or decoder fails). */
export function ffmpegReading(path: string): Promise<FfmpegCue[] | null> {
  return new Promise((resolve) => {
    execFile(FFMPEG, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', path, '-f', 'srt', 'pipe:1'], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
      resolve(error ? null : parseFfmpegSrt(stdout));
    });
  });
}

const TIMING = /^(\d+):(\d{2}):(\d{2}),(\d{3}) --> (\d+):(\d{2}):(\d{2}),(\d{3})$/;

/** The SubRip FFmpeg writes: number, timing, text lines, a blank line. */
function parseFfmpegSrt(text: string): FfmpegCue[] {
  const cues: FfmpegCue[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    const lines = block.split('\n');
    const timing = lines.length >= 2 ? TIMING.exec(lines[1]) : null;
    if (timing === null) continue;
    const ms = (h: string, m: string, s: string, f: string): number => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);
    cues.push({ start: ms(timing[1], timing[2], timing[3], timing[4]), end: ms(timing[5], timing[6], timing[7], timing[8]), text: lines.slice(2).join('\n') });
  }
  return cues;
}

/**
 * A SubRip text as a person sees it, for comparing FFmpeg's SubRip with the text it must show: the
 * styling tags FFmpeg writes (`<i>`, `<b>`, `<u>`, `<s>`, `<font …>`, `{\an8}`) left out, and word
 * joiners too (they are invisible; annot writes one where FFmpeg would otherwise take text for a tag).
 */
export function shownText(text: string): string {
  return text
    .replaceAll('\u2060', '')
    .replace(/<\/?(?:i|b|u|s)>/g, '')
    .replace(/<\/?font[^>]*>/g, '')
    .replace(/\{\\an\d\}/g, '');
}
