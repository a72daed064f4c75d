import { createRequire } from 'node:module';

let ffprobePath: string | undefined;

/**
 * The ffprobe that @ffprobe-installer/ffprobe ships for this platform (no system install needed),
 * looked up on first use so that commands which never probe media do not load the package.
 */
export function ffprobeBinary(): string {
  if (!ffprobePath) {
    const require = createRequire(import.meta.url);
    ffprobePath = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
  }
  return ffprobePath;
}
