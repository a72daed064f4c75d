import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * annot's cache folder: ANNOT_CACHE_DIR, else $XDG_CACHE_HOME/annot, else ~/.cache/annot. The
 * render cache and the media peaks the server computes both live under it.
 */
export function defaultCacheDir(): string {
  if (process.env.ANNOT_CACHE_DIR) return resolve(process.env.ANNOT_CACHE_DIR);
  if (process.env.XDG_CACHE_HOME) return resolve(process.env.XDG_CACHE_HOME, 'annot');
  return join(homedir(), '.cache', 'annot');
}
