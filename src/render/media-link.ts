import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * How a derived file (timeline, subtitles) names a medium: the path relative to the derived
 * file's folder when the medium lies below that folder (the pair can be moved together), else
 * an absolute file:// URL.
 */
export function mediaLink(mediaPath: string, fromFile: string): string {
  const media = resolve(mediaPath);
  const rel = relative(dirname(resolve(fromFile)), media);
  if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  return pathToFileURL(media).href;
}
