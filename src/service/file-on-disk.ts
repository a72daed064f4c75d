import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** What a served file was on disk when annot serve last read or wrote it. */
export interface FileOnDisk {
  readonly size: number;
  readonly mtimeMs: number;
  /** SHA-256 of the bytes, hex. */
  readonly sha256: string;
}

/**
 * The file as it is on disk now: its size, modification time and content hash; `missing` when
 * there is no file, `other` when the path is not a regular file (a directory: the save fails on
 * its own). The hash decides whether it changed: a tool may keep the mtime (cp -p, rsync -t), and
 * a touch changes the mtime alone.
 */
export async function fileOnDisk(path: string): Promise<FileOnDisk | 'missing' | 'other'> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (!info.isFile()) return 'other';
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { size: info.size, mtimeMs: info.mtimeMs, sha256: hash.digest('hex') };
}
