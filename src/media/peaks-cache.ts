import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, type Stats } from 'node:fs';
import { endianness } from 'node:os';
import { join, resolve } from 'node:path';
import { writeAtomically } from '../io/atomic-file.js';
import type { PeakLevel, PeakLevels } from './peak-levels.js';

/** Bumped when what is kept changes: older files are then simply not found. */
const FORMAT = 'v2';
const MAGIC = 'ANNOTPK2';
/** Magic, sample rate, samples, level count; then per level its samples per pixel and value count; then the values. */
const HEADER_BYTES = 32;
const LEVEL_ENTRY_BYTES = 8;
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
 * Peaks kept in the cache folder (`<cache>/peaks/v2/`), under the SHA-256 of the media file's
 * bytes: a file moved or copied finds its peaks again, a file changed does not find stale ones.
 * Every level is kept (twice the finest's size, 22 MB for an hour at 48 kHz), so a new server
 * answers from the file as it is read, with nothing to rebuild. So that a cached answer need not
 * read the whole media file again, the digest of a path is noted beside them with the size,
 * modification time and inode it had, and used while those are unchanged.
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
    const sampleCount = bytes.readDoubleLE(16);
    const count = bytes.readUInt32LE(24);
    let at = HEADER_BYTES + count * LEVEL_ENTRY_BYTES;
    if (sampleRate === 0 || count === 0 || bytes.length < at) return null;
    const levels: PeakLevel[] = [];
    for (let index = 0; index < count; index++) {
      const samplesPerPixel = bytes.readUInt32LE(HEADER_BYTES + index * LEVEL_ENTRY_BYTES);
      const values = bytes.readUInt32LE(HEADER_BYTES + index * LEVEL_ENTRY_BYTES + 4);
      if (samplesPerPixel === 0 || at + values * 2 > bytes.length) return null;
      levels.push({ samplesPerPixel, pairs: int16At(bytes, at, values) });
      at += values * 2;
    }
    return at === bytes.length ? { sampleRate, sampleCount, levels } : null;
  }

  /** Keeps the peaks under the digest and notes the file's digest; each file written whole or not at all. */
  async write(path: string, stat: Stats, digest: string, peaks: PeakLevels): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const tableEnd = HEADER_BYTES + peaks.levels.length * LEVEL_ENTRY_BYTES;
    const bytes = Buffer.alloc(tableEnd + peaks.levels.reduce((sum, level) => sum + level.pairs.byteLength, 0));
    bytes.write(MAGIC, 0, 'latin1');
    bytes.writeUInt32LE(peaks.sampleRate, 8);
    bytes.writeDoubleLE(peaks.sampleCount, 16);
    bytes.writeUInt32LE(peaks.levels.length, 24);
    let at = tableEnd;
    peaks.levels.forEach((level, index) => {
      bytes.writeUInt32LE(level.samplesPerPixel, HEADER_BYTES + index * LEVEL_ENTRY_BYTES);
      bytes.writeUInt32LE(level.pairs.length, HEADER_BYTES + index * LEVEL_ENTRY_BYTES + 4);
      if (LITTLE_ENDIAN) bytes.set(new Uint8Array(level.pairs.buffer, level.pairs.byteOffset, level.pairs.byteLength), at);
      else for (let i = 0; i < level.pairs.length; i++) bytes.writeInt16LE(level.pairs[i], at + i * 2);
      at += level.pairs.byteLength;
    });
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

/** `values` little-endian 16-bit values at `at`: a view of the bytes read when it can be (no copy), else a copy. */
function int16At(bytes: Buffer, at: number, values: number): Int16Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + at) % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset + at, values);
  const out = new Int16Array(values);
  for (let i = 0; i < values; i++) out[i] = bytes.readInt16LE(at + i * 2);
  return out;
}
