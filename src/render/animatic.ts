import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canonicalJson } from '../json/canonical-json.js';
import { writeAtomically } from '../io/atomic-file.js';
import { makeScratchFolder, removeScratchFolder } from '../io/temporary-files.js';
import { runFfmpeg } from './local/ffmpeg.js';
import type { SceneManifest } from './manifest.js';
import { probeMedia } from './media-probe.js';
import { animaticSubtitlesPath } from './output-paths.js';
import { sceneEdit, type EditOptions, type SceneEdit } from './scene-edit.js';
import { spokenBeats, timestamp, vttDocument } from './timeline-vtt.js';

/**
 * The animatic: the scene edit (see sceneEdit) assembled by the bundled ffmpeg into one H.264 /
 * AAC mp4 — each beat's talking video, or its shot's still (or clip) with the beat's speech
 * over it; a shot without beats held (`hold`, 2 s); the lines as a soft mov_text subtitle track,
 * and beside the mp4 the same lines as a .vtt with voice spans (`NAME.mp4.vtt`, see animaticSubtitlesPath).
 *
 * Timing is exact where it can be: audio is cut to the sample (44.1 kHz) and video to the frame
 * (25 fps), each part ending where the running total rounds to, so the file's duration is the
 * sum of the parts within one frame however many parts there are.
 *
 * It is a derived file: a digest of everything it is made from (media files, cuts, lines,
 * settings) is stored in the mp4's `comment` tag, and a file that carries the same digest is
 * left alone (its mtime too, for make). A new file is written through a temporary sibling and
 * renamed into place.
 */

export const ANIMATIC_FPS = 25;
export const ANIMATIC_WIDTH = 1024;
export const ANIMATIC_HEIGHT = 576;
export const ANIMATIC_SAMPLE_RATE = 44100;
/** Bumped when the assembly changes, so existing animatics are rebuilt. */
const ASSEMBLY_VERSION = 1;
const DIGEST_PREFIX = 'annot-animatic:';

export interface AnimaticOptions extends EditOptions {
  signal?: AbortSignal;
  /** Where the sidecar subtitles go (default: the mp4's path with .vtt added). */
  subtitles?: string;
}

export interface AnimaticResult {
  written: boolean;
  path: string;
  subtitles: string;
  /** Seconds: the sum of the parts. */
  duration: number;
  parts: number;
}

/** One part of the animatic: a picture and a sound for a span of the edit. */
interface Part {
  picture: { kind: 'still' | 'video'; path: string } | { kind: 'black' };
  sound: { kind: 'speech'; path: string } | { kind: 'silence' };
  /** Where the part starts and ends in the edit, in seconds (exact rational as v/r). */
  start: { v: number; r: number };
  end: { v: number; r: number };
}

/** The parts of the edit, in order. Zero-length beats (skipped, not rendered) have none. */
export function animaticParts(edit: SceneEdit): Part[] {
  const parts: Part[] = [];
  const span = (start: { v: number; r: number }, duration: { v: number; r: number }) => ({ start: { v: start.v, r: start.r }, end: { v: start.v + duration.v, r: start.r } });
  for (const shot of edit.shots) {
    const shotPicture: Part['picture'] = shot.clip ? { kind: 'video', path: shot.clip.path } : shot.still ? { kind: 'still', path: shot.still.path } : { kind: 'black' };
    if (shot.held) {
      parts.push({ picture: shotPicture, sound: { kind: 'silence' }, ...span(shot.start, shot.duration) });
      continue;
    }
    for (const beat of shot.beats) {
      if (beat.duration.v === 0) continue;
      const picture: Part['picture'] = beat.video ? { kind: 'video', path: beat.video.path } : shotPicture;
      parts.push({ picture, sound: beat.audio ? { kind: 'speech', path: beat.audio.path } : { kind: 'silence' }, ...span(beat.start, beat.duration) });
    }
  }
  for (const beat of edit.beats) {
    if (beat.duration.v === 0) continue;
    const picture: Part['picture'] = beat.video ? { kind: 'video', path: beat.video.path } : { kind: 'black' };
    parts.push({ picture, sound: beat.audio ? { kind: 'speech', path: beat.audio.path } : { kind: 'silence' }, ...span(beat.start, beat.duration) });
  }
  return parts;
}

/** Ticks at `rate` where an edit time (v/r seconds) rounds to. */
function ticks(t: { v: number; r: number }, rate: number): number {
  return Number((BigInt(t.v) * BigInt(rate) * 2n + BigInt(t.r)) / (2n * BigInt(t.r)));
}

/** Writes (or leaves alone, when its inputs are unchanged) the animatic of a manifest. */
export async function writeAnimatic(manifest: SceneManifest, path: string, options: AnimaticOptions = {}): Promise<AnimaticResult> {
  const { writeIfChanged } = await import('./output-files.js');
  const edit = await sceneEdit(manifest, manifest.layout, options);
  const parts = animaticParts(edit);
  const subtitlesPath = options.subtitles ?? animaticSubtitlesPath(path);
  const lines = spokenBeats(edit);
  const srt = lines.map((b, i) => `${i + 1}\n${timestamp(b.start.v / b.start.r).replace('.', ',')} --> ${timestamp((b.start.v + b.duration.v) / b.start.r).replace('.', ',')}\n${b.line}\n`).join('\n');
  const duration = edit.duration.v / edit.duration.r;
  const digest = createHash('sha256')
    .update(
      canonicalJson({
        version: ASSEMBLY_VERSION,
        fps: ANIMATIC_FPS,
        size: [ANIMATIC_WIDTH, ANIMATIC_HEIGHT],
        sample_rate: ANIMATIC_SAMPLE_RATE,
        parts: parts.map((p) => ({ ...p, files: fileStamps(p) })),
        srt,
      }),
    )
    .digest('hex');

  await writeIfChanged(subtitlesPath, vttDocument(edit, subtitlesPath, path));
  if (existsSync(path)) {
    const tags = (await probeMedia(path))?.tags ?? {};
    if (tags.comment === `${DIGEST_PREFIX}${digest}`) return { written: false, path, subtitles: subtitlesPath, duration, parts: parts.length };
  }
  const temp = makeScratchFolder('annot-animatic-');
  try {
    const srtPath = join(temp, 'lines.srt');
    writeFileSync(srtPath, srt);
    const args = assemblyArguments(parts, srtPath, lines.length > 0, digest);
    mkdirSync(dirname(path), { recursive: true });
    await writeAtomically(path, (atomicTemp) => runFfmpeg([...args, atomicTemp], { signal: options.signal }));
  } finally {
    removeScratchFolder(temp);
  }
  return { written: true, path, subtitles: subtitlesPath, duration, parts: parts.length };
}

/** What identifies each file a part reads, cheaply: path and size (assets are content-addressed). */
function fileStamps(part: Part): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const x of [part.picture, part.sound]) if ('path' in x) out.push([x.path, existsSync(x.path) ? statSync(x.path).size : -1]);
  return out;
}

/**
 * The ffmpeg arguments (all but the output path): one input per picture and per sound, each cut
 * to its frames or samples, the pictures and the sounds concatenated separately (so neither
 * waits for the other at a cut), the subtitles mapped as mov_text.
 */
function assemblyArguments(parts: Part[], srtPath: string, withSubtitles: boolean, digest: string): string[] {
  const inputs: string[] = [];
  const filters: string[] = [];
  let inputCount = 0;
  const input = (...args: string[]) => {
    inputs.push(...args);
    return inputCount++;
  };
  const size = `${ANIMATIC_WIDTH}x${ANIMATIC_HEIGHT}`;
  const fit = `scale=${ANIMATIC_WIDTH}:${ANIMATIC_HEIGHT}:force_original_aspect_ratio=decrease,pad=${ANIMATIC_WIDTH}:${ANIMATIC_HEIGHT}:(ow-iw)/2:(oh-ih)/2,setsar=1`;
  parts.forEach((part, i) => {
    const frames = ticks(part.end, ANIMATIC_FPS) - ticks(part.start, ANIMATIC_FPS);
    const samples = ticks(part.end, ANIMATIC_SAMPLE_RATE) - ticks(part.start, ANIMATIC_SAMPLE_RATE);
    const seconds = (frames + 2) / ANIMATIC_FPS;
    let v: number;
    // A still is read (and scaled) once, as one frame; tpad below clones it for the part's length.
    if (part.picture.kind === 'still') v = input('-framerate', String(ANIMATIC_FPS), '-i', part.picture.path);
    else if (part.picture.kind === 'video') v = input('-i', part.picture.path);
    else v = input('-f', 'lavfi', '-t', seconds.toFixed(3), '-i', `color=c=black:s=${size}:r=${ANIMATIC_FPS}`);
    // Clone the last frame past the end (a clip shorter than its beat holds), then cut to the frame.
    filters.push(`[${v}:v]${fit},fps=${ANIMATIC_FPS},format=yuv420p,tpad=stop_mode=clone:stop_duration=${seconds.toFixed(3)},trim=end_frame=${frames},setpts=PTS-STARTPTS[v${i}]`);
    const a = part.sound.kind === 'speech' ? input('-i', part.sound.path) : input('-f', 'lavfi', '-i', `anullsrc=r=${ANIMATIC_SAMPLE_RATE}:cl=mono`);
    filters.push(`[${a}:a]aresample=${ANIMATIC_SAMPLE_RATE},aformat=sample_fmts=fltp:channel_layouts=mono,apad,atrim=end_sample=${samples},asetpts=PTS-STARTPTS[a${i}]`);
  });
  const n = parts.length;
  if (n === 0) {
    // An edit with nothing to show: one black frame and silence of the same length.
    const v = input('-f', 'lavfi', '-t', '0.040', '-i', `color=c=black:s=${size}:r=${ANIMATIC_FPS}`);
    const a = input('-f', 'lavfi', '-t', '0.040', '-i', `anullsrc=r=${ANIMATIC_SAMPLE_RATE}:cl=mono`);
    filters.push(`[${v}:v]format=yuv420p,trim=end_frame=1[vout]`, `[${a}:a]aformat=sample_fmts=fltp:channel_layouts=mono[aout]`);
  } else {
    filters.push(`${parts.map((_, i) => `[v${i}]`).join('')}concat=n=${n}:v=1:a=0,setpts=N/${ANIMATIC_FPS}/TB[vout]`);
    filters.push(`${parts.map((_, i) => `[a${i}]`).join('')}concat=n=${n}:v=0:a=1[aout]`);
  }
  const subtitleInput = withSubtitles ? input('-i', srtPath) : -1;
  const maps = ['-map', '[vout]', '-map', '[aout]'];
  if (subtitleInput >= 0) maps.push('-map', `${subtitleInput}:s`);
  return [
    ...inputs,
    '-filter_complex', filters.join(';'),
    ...maps,
    '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'stillimage', '-pix_fmt', 'yuv420p', '-r', String(ANIMATIC_FPS),
    '-c:a', 'aac', '-b:a', '96k',
    ...(subtitleInput >= 0 ? ['-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng'] : []),
    '-map_metadata', '-1', '-metadata', `comment=${DIGEST_PREFIX}${digest}`,
    '-movflags', '+faststart', '-f', 'mp4', '-y',
  ];
}
