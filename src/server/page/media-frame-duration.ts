import { execFile } from 'node:child_process';
import { ffprobeBinary } from '../../io/bundled-ffprobe.js';
import type { RationalTimeWire } from '../../time/rational-time.js';

/**
 * How long one frame of a video file lasts, as a wire time (`{v: 1001, r: 30000}` at 29.97 fps),
 * read by the bundled ffprobe from the first video stream's average frame rate (its nominal rate
 * when the average is unknown). Undefined for audio, a still, or anything ffprobe cannot read:
 * the page then nudges by 10 ms instead of a frame.
 */
export function mediaFrameDuration(path: string): Promise<RationalTimeWire | undefined> {
  const args = ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=avg_frame_rate,r_frame_rate', '-of', 'json', path];
  return new Promise((resolve) => {
    execFile(ffprobeBinary(), args, { maxBuffer: 1 << 16, timeout: 10_000 }, (error, stdout) => {
      if (error) return resolve(undefined);
      try {
        const stream = (JSON.parse(stdout) as { streams?: Array<{ avg_frame_rate?: string; r_frame_rate?: string }> }).streams?.[0];
        resolve(frameDurationOf(stream?.avg_frame_rate) ?? frameDurationOf(stream?.r_frame_rate));
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** `"30000/1001"` frames per second as one frame's duration `{v: 1001, r: 30000}`; undefined for `0/0` and the like. */
export function frameDurationOf(rate: string | undefined): RationalTimeWire | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(rate ?? '');
  if (!match) return undefined;
  const frames = Number(match[1]);
  const seconds = Number(match[2]);
  // Below 1 fps or above 1000 fps it is a still or a timestamp rate, not frames a person steps through.
  if (!Number.isSafeInteger(frames) || !Number.isSafeInteger(seconds) || seconds === 0 || frames < seconds || frames > 1000 * seconds) return undefined;
  return { v: seconds, r: frames };
}
