import { createRequire } from 'node:module';

let ffmpegPath: string | undefined;

/**
 * The ffmpeg binary of the @ffmpeg-installer/ffmpeg package (no system install needed), looked up
 * on first use so that commands which never decode or encode media do not load the package.
 */
export function ffmpegBinary(): string {
  if (!ffmpegPath) {
    const require = createRequire(import.meta.url);
    ffmpegPath = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  }
  return ffmpegPath;
}
