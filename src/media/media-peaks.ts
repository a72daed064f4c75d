import { statSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { hashFile } from '../digest/hash-file.js';
import { decodePeaks } from './decode-peaks.js';
import type { PeakLevels } from './peak-levels.js';
import { PeaksCache } from './peaks-cache.js';

/**
 * The peaks of media files, each decoded once: from memory while the file is unchanged (its size,
 * modification time and inode), else from the cache folder under the file's digest, else decoded
 * with the bundled FFmpeg (the file hashed meanwhile) and kept there. Requests that come while a
 * file is decoded wait for that one decode. `close` stops decodes under way.
 */
export class MediaPeaks {
  private readonly known = new Map<string, { readonly stamp: string; readonly peaks: Promise<PeakLevels> }>();
  private readonly stop = new AbortController();
  private readonly cache: PeaksCache;

  constructor(
    cacheDir: string,
    /** Told when the peaks could not be kept in the cache (they are answered all the same). */
    private readonly warn: (line: string) => void = () => {},
  ) {
    this.cache = new PeaksCache(cacheDir);
  }

  /** The file's peaks. A file that is not there throws as statSync does (ENOENT), before any decode. */
  peaks(path: string): Promise<PeakLevels> {
    const stat = statSync(path);
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    const known = this.known.get(path);
    if (known && known.stamp === stamp) return known.peaks;
    const peaks = this.load(path, stat);
    this.known.set(path, { stamp, peaks });
    // A stopped decode is not remembered; a file without audio or one FFmpeg cannot read is, until it changes.
    peaks.catch(() => {
      if (this.stop.signal.aborted && this.known.get(path)?.peaks === peaks) this.known.delete(path);
    });
    return peaks;
  }

  close(): void {
    this.stop.abort();
  }

  /**
   * From the cache when the file's digest is noted; else the decode and the hash start together,
   * and when the hash finds peaks kept under it (a copy of a file seen before), the decode stops.
   */
  private async load(path: string, stat: Stats): Promise<PeakLevels> {
    const noted = this.cache.notedDigest(path, stat);
    const kept = noted === null ? null : this.cache.read(noted);
    if (kept) return kept;
    const decode = new AbortController();
    const stopDecode = () => decode.abort();
    this.stop.signal.addEventListener('abort', stopDecode, { once: true });
    const decoding = decodePeaks(path, decode.signal);
    try {
      let hex = noted;
      if (hex === null) {
        try {
          hex = (await hashFile(path)).replace(/^sha256:/, '');
        } catch (error) {
          abandon(decode, decoding);
          throw error;
        }
        const found = this.cache.read(hex);
        if (found) {
          abandon(decode, decoding);
          const digest = hex;
          await this.keep(() => this.cache.note(path, stat, digest), path);
          return found;
        }
      }
      const digest = hex;
      const peaks = await decoding;
      await this.keep(() => this.cache.write(path, stat, digest, peaks), path);
      return peaks;
    } finally {
      this.stop.signal.removeEventListener('abort', stopDecode);
    }
  }

  /** A write to the cache: when it fails, the peaks are answered all the same, and the log says why. */
  private async keep(write: () => Promise<void>, path: string): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.warn(`annot serve: the peaks of ${basename(path)} could not be kept in ${this.cache.dir} (${(error as Error).message}); they are computed again next time`);
    }
  }
}

/** Stops a decode no longer wanted; its end (an AbortError) is nobody's to hear. */
function abandon(decode: AbortController, decoding: Promise<unknown>): void {
  decode.abort();
  decoding.catch(() => undefined);
}
