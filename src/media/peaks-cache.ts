import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, type Stats } from 'node:fs';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import { writeAtomically } from '../io/atomic-file.js';
import { levelsFrom, type PeakLevels } from './peak-levels.js';

/** Bumped when what is kept changes: older files are then simply not found. */
const FORMAT = 'v1';
const MAGIC = 'ANNOTPK1';
const HEADER_BYTES = 32;
/** The values are kept little-endian; on such a machine they are copied as they are. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** What the cache remembers of a media file it hashed: the file as it was then, and its digest. */
interface DigestNote {
  readonly path: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly ino: number;
  readonly digest: string;
}

/**
 * Peaks kept in the cache folder (`<cache>/peaks/v1/`), under the SHA-256 of the media file's
 * bytes: a file moved or copied finds its peaks again, a file changed does not find stale ones.
 * Only the finest level is kept (the coarser ones are rebuilt in a few milliseconds). So that a
 * cached answer need not read the whole file again, the digest of a path is noted beside them
 * with the size, modification time and inode it had, and used while those are unchanged.
 */
export class PeaksCache {
  readonly dir: string;

  constructor(cacheDir: string) {
    this.dir = join(cacheDir, 'peaks', FORMAT);
  }

  /** The digest noted for the file as it is now (stat matched), or null. */
  notedDigest(path: string, stat: Stats): string | null {
    try {
      const note = JSON.parse(readFileSync(this.notePath(path), 'utf8')) as DigestNote;
      const same = note.path === resolve(path) && note.size === stat.size && note.mtime_ms === stat.mtimeMs && note.ino === stat.ino;
      return same && /^[0-9a-f]{64}$/.test(note.digest) ? note.digest : null;
    } catch {
      return null;
    }
  }

  /** The peaks kept under a digest, or null (none, or a file this build does not read). */
  read(digest: string): PeakLevels | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.peaksPath(digest));
    } catch {
      return null;
    }
    if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, 8) !== MAGIC) return null;
    const sampleRate = bytes.readUInt32LE(8);
    const samplesPerPixel = bytes.readUInt32LE(12);
    const sampleCount = bytes.readDoubleLE(16);
    const values = bytes.readUInt32LE(24);
    if (bytes.length !== HEADER_BYTES + values * 2 || sampleRate === 0 || samplesPerPixel === 0) return null;
    const pairs = new Int16Array(values);
    if (LITTLE_ENDIAN) new Uint8Array(pairs.buffer).set(bytes.subarray(HEADER_BYTES));
    else for (let i = 0; i < values; i++) pairs[i] = bytes.readInt16LE(HEADER_BYTES + i * 2);
    return levelsFrom(sampleRate, sampleCount, { samplesPerPixel, pairs });
  }

  /** Keeps the peaks under the digest and notes the file's digest; each file written whole or not at all. */
  async write(path: string, stat: Stats, digest: string, peaks: PeakLevels): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const finest = peaks.levels[0];
    const bytes = Buffer.alloc(HEADER_BYTES + finest.pairs.length * 2);
    bytes.write(MAGIC, 0, 'latin1');
    bytes.writeUInt32LE(peaks.sampleRate, 8);
    bytes.writeUInt32LE(finest.samplesPerPixel, 12);
    bytes.writeDoubleLE(peaks.sampleCount, 16);
    bytes.writeUInt32LE(finest.pairs.length, 24);
    if (LITTLE_ENDIAN) bytes.set(new Uint8Array(finest.pairs.buffer, finest.pairs.byteOffset, finest.pairs.byteLength), HEADER_BYTES);
    else for (let i = 0; i < finest.pairs.length; i++) bytes.writeInt16LE(finest.pairs[i], HEADER_BYTES + i * 2);
    await writeAtomically(this.peaksPath(digest), async (temporary) => writeFileSync(temporary, bytes));
    await this.note(path, stat, digest);
  }

  /** Notes the digest of the file as it is now, so that it is not read again to find its peaks. */
  async note(path: string, stat: Stats, digest: string): Promise<void> {
    mkdirSync(join(this.dir, 'paths'), { recursive: true });
    const note: DigestNote = { path: resolve(path), size: stat.size, mtime_ms: stat.mtimeMs, ino: stat.ino, digest };
    await writeAtomically(this.notePath(path), async (temporary) => writeFileSync(temporary, JSON.stringify(note)));
  }

  private peaksPath(digest: string): string {
    return join(this.dir, `${digest}.peaks`);
  }

  private notePath(path: string): string {
    return join(this.dir, 'paths', `${createHash('sha256').update(resolve(path)).digest('hex')}.json`);
  }
}
