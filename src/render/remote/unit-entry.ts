import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ASSET_FIELDS } from '../asset-fields.js';
import { digestOf } from '../hashing.js';

/**
 * A unit result as the shared cache keeps it (`PREFIX/v1/ac/<key>`): what produced it (its
 * address), the result without anything local to the machine that rendered it (no paths, no
 * `file:` URLs, no cache_hit), and for each media field the bytes' sha256, size, media type and
 * file extension, whose bytes are at `PREFIX/v1/cas/<sha256>`. Reads check it against the schema
 * below and against the address asked for, so a torn, corrupt or foreign entry is a miss.
 */

export const ENTRY_FORMAT = 'annot-render-unit';
export const ENTRY_VERSION = 1;

/** What produced a unit: its cache namespace and key, and the provider with its origin (a fake or staging fal server is another origin). */
export interface UnitAddress {
  /** The render cache's namespace of the unit's kind (`render_shot`, `render_beat`), so a shot and a beat never share a key. */
  readonly namespace: string;
  /** The unit's key in that namespace, made from its content hash (shotHash, beatHash; a shot's with its quality tier): everything its media depend on. */
  readonly unitKey: string;
  /** The provider's name (`fal`, `local`): the same unit from another provider is other media. */
  readonly provider: string;
  /** Where the provider's models run (its server's origin, or its name when it has none), so a fake or staging server never serves production. */
  readonly origin: string;
}

/** A unit's address: its namespace and key, and the provider with its origin (its name when it has none). */
export function unitAddress(provider: { name: string; origin?: string }, namespace: string, unitKey: string): UnitAddress {
  return { namespace, unitKey, provider: provider.name, origin: provider.origin ?? provider.name };
}

/** The hex digest a unit's entry is stored under: the address and the entry format's version. */
export function entryKey(address: UnitAddress): string {
  return digestOf({ format: ENTRY_FORMAT, version: ENTRY_VERSION, namespace: address.namespace, unit_key: address.unitKey, provider: address.provider, origin: address.origin });
}

const SHA256 = /^[0-9a-f]{64}$/;
const URL_FIELDS = ASSET_FIELDS.map((field) => field.url) as [string, ...string[]];
const LOCAL_FIELDS = new Set<string>([...ASSET_FIELDS.flatMap((field) => [field.sha256, field.path]), 'cache_hit']);

/** One media file of a shared unit, named by its content: its bytes are at `PREFIX/v1/cas/<sha256>`. */
export interface MediaBlob {
  /** The bytes' sha256 in lowercase hex: the object's name, and what a reader checks them against. */
  sha256: string;
  /** Their length in bytes, checked as well (and all a HEAD can confirm). */
  size: number;
  /** Their media type (`image/png`, `video/mp4`…), sent as the object's Content-Type. */
  media_type: string;
  /** The file extension a local copy takes (`.png`), which players and ffmpeg go by. */
  extension: string;
}

const mediaBlobSchema = z.strictObject({
  sha256: z.string().regex(SHA256),
  size: z.number().int().nonnegative(),
  media_type: z.string().min(1).max(200),
  extension: z.string().regex(/^\.[a-z0-9]{1,5}$/),
}) satisfies z.ZodType<MediaBlob>;

const entrySchema = z.strictObject({
  format: z.literal(ENTRY_FORMAT),
  version: z.literal(ENTRY_VERSION),
  key: z.string().regex(SHA256),
  namespace: z.string().min(1),
  unit_key: z.string().min(1),
  provider: z.string().min(1),
  origin: z.string().min(1),
  result: z.record(z.string(), z.unknown()),
  media: z.partialRecord(z.enum(URL_FIELDS), mediaBlobSchema),
});

export type UnitEntry = z.infer<typeof entrySchema>;

/** The shared form of a local unit result, its media described from their local copies. */
export function sharedEntry(address: UnitAddress, local: Record<string, unknown>): UnitEntry {
  const { result, media } = sharedForm(local);
  return { format: ENTRY_FORMAT, version: ENTRY_VERSION, key: entryKey(address), namespace: address.namespace, unit_key: address.unitKey, provider: address.provider, origin: address.origin, result, media };
}

/** A local result without what is local to this machine, and its media by url field (sha256, size, type, extension). */
export function sharedForm(local: Record<string, unknown>): Pick<UnitEntry, 'result' | 'media'> {
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(local)) if (!LOCAL_FIELDS.has(name)) result[name] = value;
  const media: UnitEntry['media'] = {};
  for (const field of ASSET_FIELDS) {
    const url = local[field.url];
    if (typeof url !== 'string' || url === '') continue;
    const sha256 = local[field.sha256];
    const path = local[field.path];
    if (typeof sha256 !== 'string' || typeof path !== 'string' || sha256 === '' || path === '') throw new Error(`the result has no local copy of its ${field.url}`);
    const extension = extname(path).toLowerCase() || '.bin';
    media[field.url as keyof UnitEntry['media']] = { sha256, size: statSync(path).size, media_type: mediaTypeOf(extension), extension };
    // Only a URL anyone could fetch is shared; a file: URL names a place on the machine that rendered it.
    if (!/^https?:\/\//i.test(url)) result[field.url] = null;
  }
  return { result, media };
}

/** The entry's bytes as stored: canonical enough that two writers of the same result write the same bytes. */
export function entryBytes(entry: UnitEntry): Uint8Array {
  return Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
}

/** An entry read back, checked; a reason when it is torn, corrupt or another unit's. */
export function readEntry(bytes: Uint8Array, address: UnitAddress): { entry: UnitEntry } | { invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return { invalid: `not JSON (${bytes.byteLength} bytes; torn or corrupt)` };
  }
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { invalid: `not a unit entry (${parsed.error.issues[0]?.path.join('.') || 'entry'}: ${parsed.error.issues[0]?.message ?? 'invalid'})` };
  const entry = parsed.data;
  const key = entryKey(address);
  if (entry.key !== key || entry.namespace !== address.namespace || entry.unit_key !== address.unitKey || entry.provider !== address.provider || entry.origin !== address.origin) {
    return { invalid: 'it describes another unit, provider or origin' };
  }
  for (const name of Object.keys(entry.result)) if (LOCAL_FIELDS.has(name)) return { invalid: `its result holds the local field ${name}` };
  for (const field of ASSET_FIELDS) {
    const url = entry.result[field.url];
    const blob = entry.media[field.url as keyof UnitEntry['media']];
    if (blob === undefined ? url !== undefined && url !== '' : url !== null && !(typeof url === 'string' && /^https?:\/\//i.test(url))) {
      return { invalid: `its ${field.url} does not match its media` };
    }
  }
  return { entry };
}

/** The media of an entry, each blob once. */
export function entryBlobs(entry: Pick<UnitEntry, 'media'>): MediaBlob[] {
  const bySha = new Map<string, MediaBlob>();
  for (const blob of Object.values(entry.media)) if (blob) bySha.set(blob.sha256, blob);
  return [...bySha.values()];
}

/** The local result of an entry whose media are at `paths` (sha256 → local file). */
export function localResult(entry: Pick<UnitEntry, 'result' | 'media'>, paths: ReadonlyMap<string, string>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...entry.result };
  for (const field of ASSET_FIELDS) {
    const blob = entry.media[field.url as keyof UnitEntry['media']];
    if (blob) {
      const path = paths.get(blob.sha256)!;
      if (result[field.url] === null) result[field.url] = pathToFileURL(path).href;
      result[field.sha256] = blob.sha256;
      result[field.path] = path;
    } else if (result[field.url] === '') {
      result[field.sha256] = '';
      result[field.path] = '';
    }
  }
  return result;
}

/** The local file of a blob in a local result: the path recorded beside the sha256 field that names it. */
export function localPathOf(local: Record<string, unknown>, sha256: string): string {
  for (const field of ASSET_FIELDS) {
    const path = local[field.path];
    if (local[field.sha256] === sha256 && typeof path === 'string' && path !== '') return path;
  }
  throw new Error(`the result has no local copy of ${sha256}`);
}

const MEDIA_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

export function mediaTypeOf(extension: string): string {
  return MEDIA_TYPES[extension] ?? 'application/octet-stream';
}
