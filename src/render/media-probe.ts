import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ffprobeBinary } from '../io/bundled-ffprobe.js';
import type { RationalTimeWire } from '../time/rational-time.js';

/**
 * Real durations of rendered media, read by the bundled ffprobe (@ffprobe-installer/ffprobe: no
 * system install needed). A duration is exact: the stream's `duration_ts` ticks of its
 * `time_base`, kept as `{v, r}` seconds (the project's wire time), so a WAV of 52,920 samples at
 * 22,050 Hz is `{v: 52920, r: 22050}` and not a rounded decimal.
 */

export { ffprobeBinary };

export interface ProbedStream {
  codec_type: string;
  codec_name: string;
  duration?: RationalTimeWire;
}

export interface ProbedMedia {
  streams: ProbedStream[];
  /** The container's duration (ffprobe's decimal, microseconds), when it reports one. */
  duration?: RationalTimeWire;
  tags: Record<string, string>;
}

/** ffprobe's reading of a file, or undefined when it is missing or unreadable. */
export function probeMedia(path: string): Promise<ProbedMedia | undefined> {
  if (!existsSync(path)) return Promise.resolve(undefined);
  const args = ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,duration_ts,time_base:format=duration:format_tags', '-of', 'json', path];
  return new Promise((resolve) => {
    execFile(ffprobeBinary(), args, { maxBuffer: 1 << 20 }, (error, stdout) => {
      if (error) return resolve(undefined);
      try {
        resolve(parseProbe(JSON.parse(stdout) as RawProbe));
      } catch {
        resolve(undefined);
      }
    });
  });
}

interface RawProbe {
  streams?: Array<{ codec_type?: string; codec_name?: string; duration_ts?: number; time_base?: string }>;
  format?: { duration?: string; tags?: Record<string, string> };
}

function parseProbe(raw: RawProbe): ProbedMedia {
  const streams = (raw.streams ?? []).map((s) => {
    const stream: ProbedStream = { codec_type: s.codec_type ?? '', codec_name: s.codec_name ?? '' };
    const base = /^(\d+)\/(\d+)$/.exec(s.time_base ?? '');
    // Kept at the stream's own rate (a WAV's sample rate), not reduced: editors read it as such.
    if (base && Number.isSafeInteger(s.duration_ts) && Number(base[2]) > 0) stream.duration = { v: s.duration_ts! * Number(base[1]), r: Number(base[2]) };
    return stream;
  });
  const media: ProbedMedia = { streams, tags: raw.format?.tags ?? {} };
  const decimal = /^(\d+)(?:\.(\d{1,6}))?$/.exec(raw.format?.duration ?? '');
  if (decimal) {
    const fraction = (decimal[2] ?? '').padEnd(6, '0');
    media.duration = reduce(Number(decimal[1]) * 1_000_000 + Number(fraction), 1_000_000);
  }
  return media;
}

/**
 * The duration of a file's audio (kind `audio`) or video (kind `video`) stream, else of the
 * file; undefined when the file is missing or ffprobe cannot read it. A still has none.
 */
export async function probeDuration(path: string, kind: 'audio' | 'video'): Promise<RationalTimeWire | undefined> {
  const media = await probeMedia(path);
  if (!media) return undefined;
  const stream = media.streams.find((s) => s.codec_type === kind && s.duration);
  return stream?.duration ?? media.duration;
}

/** `{v, r}` in lowest terms. */
export function reduce(v: number, r: number): RationalTimeWire {
  let a = Math.abs(v);
  let b = r;
  while (b !== 0) [a, b] = [b, a % b];
  return a > 1 ? { v: v / a, r: r / a } : { v, r };
}

/** The local file behind a result's path field, else behind a file: URL; undefined otherwise. */
export function localFile(path: unknown, url: unknown): string | undefined {
  if (typeof path === 'string' && path !== '' && existsSync(path)) return path;
  if (typeof url === 'string' && url.startsWith('file:')) {
    const file = fileURLToPath(url);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** Duration fields a unit result records: `duration` (the unit's time) and its media's. */
export interface DurationFields {
  /** A beat: its speech; a clip shot: its clip. A still has none; null when ffprobe could not read the file. */
  duration?: RationalTimeWire | null;
  /** The speech's duration, for a beat. */
  audio_duration?: RationalTimeWire | null;
  /** The video's duration, for a beat with a talking video or a clip shot. */
  video_duration?: RationalTimeWire | null;
}

/**
 * Probes a beat or shot result's local media and returns the duration fields: a beat's speech
 * (`audio_duration`, which is also its `duration`) and talking video (`video_duration`); a clip
 * shot's clip (`video_duration` and `duration`). Media that are not local are left out.
 */
export async function unitDurations(result: Record<string, unknown>): Promise<DurationFields> {
  const out: DurationFields = {};
  const audio = localFile(result.audio_path, result.audio_url);
  const video = result.video_url ? localFile(result.video_path, result.video_url) : undefined;
  const [audioDuration, videoDuration] = await Promise.all([audio ? probeDuration(audio, 'audio') : undefined, video ? probeDuration(video, 'video') : undefined]);
  // Key order as durableFields copies them on a cache hit, so a hit and a fresh render compare equal.
  // A local file ffprobe cannot read is recorded as null (unknown), so a cached unit is not probed again.
  const main = 'beat_id' in result ? (audio ? audioDuration ?? null : undefined) : video ? videoDuration ?? null : undefined;
  if (main !== undefined) out.duration = main;
  if (audio) out.audio_duration = audioDuration ?? null;
  if (video) out.video_duration = videoDuration ?? null;
  return out;
}

/** Whether a result already records what unitDurations would add (so a cached unit needs no probe). */
export function hasDurations(result: Record<string, unknown>): boolean {
  // Media that are not local (no durable copy) cannot be probed: nothing to wait for either.
  if ('beat_id' in result) return !localFile(result.audio_path, result.audio_url) || result.audio_duration !== undefined;
  return !result.video_url || !localFile(result.video_path, result.video_url) || result.video_duration !== undefined;
}
