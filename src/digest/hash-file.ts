import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * Asset ids are `sha256:<64 lower-case hex>`: the algorithm is named in the id, so ids made
 * with another algorithm later (or by other tools: `blake3:...`) can never be mistaken for ours,
 * and an asset id is recognisable as content-derived at a glance.
 */
export const ASSET_ID_PREFIX = 'sha256:';

/** SHA-256 of bytes (a string is hashed as its UTF-8 bytes), as plain 64 lower-case hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The asset id of some bytes: `sha256:<hex>`. */
export function hashBytes(bytes: Uint8Array | string): string {
  return ASSET_ID_PREFIX + sha256Hex(bytes);
}

/** The asset id of a file's bytes, read as a stream (constant memory for any file size). */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return ASSET_ID_PREFIX + hash.digest('hex');
}
