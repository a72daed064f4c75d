import { execFile, spawn } from 'node:child_process';
import { basename } from 'node:path';
import { ffmpegBinary } from '../io/bundled-ffmpeg.js';
import { ffprobeBinary } from '../io/bundled-ffprobe.js';
import { MediaUnreadableError, NoAudioError } from './errors.js';
import { PeakBuilder, type PeakLevels } from './peak-levels.js';

/**
 * Decodes the first audio track of a media file with the bundled FFmpeg, its channels mixed to
 * one, at its own sample rate, and builds its peaks as the samples stream in (nothing of the
 * audio is held but the peaks). A file without audio is NoAudioError; one FFmpeg cannot read,
 * MediaUnreadableError. `signal` stops FFmpeg (a server closing mid-decode).
 */
export async function decodePeaks(path: string, signal?: AbortSignal): Promise<PeakLevels> {
  const builder = new PeakBuilder(await sampleRateOf(path));
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-i', path, '-map', '0:a:0', '-ac', '1', '-f', 's16le', '-acodec', 'pcm_s16le', '-'];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(ffmpegBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'], signal });
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => builder.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.on('error', (error) => reject(error.name === 'AbortError' ? error : new MediaUnreadableError(`could not run the bundled ffmpeg on ${basename(path)}: ${error.message}`)));
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const said = Buffer.concat(errors).toString('utf8').trim().split('\n').slice(-2).join(' / ');
      reject(new MediaUnreadableError(`the audio of ${basename(path)} could not be decoded (ffmpeg exit ${code}${said ? `: ${said}` : ''})`));
    });
  });
  return builder.finish();
}

/** The sample rate of the file's first audio track; NoAudioError when it has none. */
function sampleRateOf(path: string): Promise<number> {
  const args = ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=sample_rate', '-of', 'json', path];
  return new Promise((resolve, reject) => {
    execFile(ffprobeBinary(), args, { maxBuffer: 1 << 16, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) return reject(new MediaUnreadableError(`${basename(path)} could not be read as media (ffprobe: ${String(stderr).trim().split('\n').pop() || error.message})`));
      let stream: { sample_rate?: string } | undefined;
      try {
        stream = (JSON.parse(stdout) as { streams?: Array<{ sample_rate?: string }> }).streams?.[0];
      } catch {
        return reject(new MediaUnreadableError(`${basename(path)} could not be read as media (ffprobe answered no JSON)`));
      }
      const sampleRate = Number(stream?.sample_rate);
      if (!stream) return reject(new NoAudioError(`the media ${basename(path)} has no audio track, so it has no waveform`));
      if (!Number.isSafeInteger(sampleRate) || sampleRate <= 0) return reject(new MediaUnreadableError(`the audio of ${basename(path)} has no sample rate ffprobe can read`));
      resolve(sampleRate);
    });
  });
}
