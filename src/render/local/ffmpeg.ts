import { spawn } from 'node:child_process';
import { ffmpegBinary } from '../../io/bundled-ffmpeg.js';
import { RenderAbortedError } from '../errors.js';
import { LocalMediaError } from './errors.js';

/** The ffmpeg binary of the @ffmpeg-installer/ffmpeg package: no system install needed (src/io/bundled-ffmpeg.ts). */
export { ffmpegBinary };

/** Flags that keep encoder versions, dates and random ids out of the output, so bytes repeat. */
export const BITEXACT_FLAGS = ['-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact', '-map_metadata', '-1', '-threads', '1'];

/** Runs ffmpeg with the arguments; rejects with its last stderr lines when it fails. */
export function runFfmpeg(args: string[], options: { signal?: AbortSignal } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new RenderAbortedError('the local render'));
    const child = spawn(ffmpegBinary(), ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    const err: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => reject(new LocalMediaError(`could not run ffmpeg (${error.message})`)));
    child.on('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      const stderr = Buffer.concat(err).toString('utf8');
      if (options.signal?.aborted) return reject(new RenderAbortedError('the local render'));
      // `ffmpeg -i file` with no output exits 1 by design: callers that probe read stderr.
      if (code === 0 || args[args.length - 1] === '-') return resolve(stderr);
      reject(new LocalMediaError(`ffmpeg failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`));
    });
  });
}

/** A media file's duration in seconds as ffmpeg reports it (centisecond precision), or undefined. */
export async function probeDuration(path: string): Promise<number | undefined> {
  const stderr = await runFfmpeg(['-i', path, '-f', 'null', '-']).catch((error: Error) => error.message);
  const m = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}
