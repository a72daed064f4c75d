import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { RenderCache } from './cache.js';
import type { RenderEvent } from './events.js';
import { sha256Hex } from './hashing.js';
import { ASSET_FIELDS } from './asset-fields.js';
import type { Provider } from './providers/provider.js';
import type { RemoteCache } from './remote/remote-cache.js';
import { unitAddress } from './remote/unit-entry.js';

/**
 * Durable assets. fal's media URLs expire, so every asset a unit produces is downloaded once
 * into a content-addressed store in the cache directory (`assets/<aa>/<sha256><ext>`), and the
 * result records, beside each url field, the bytes' hash and the local path. A cached unit
 * whose URL has expired is then served from the local copy.
 */

/** The fields durable assets add to a beat or shot result. */
export interface DurableAssetFields {
  /** The SHA-256 of the local copy of `url`. */
  sha256?: string;
  /** The path of the local copy of `url`, in the cache directory's content-addressed store. */
  path?: string;
  /** The SHA-256 of the local copy of `audio_url`. */
  audio_sha256?: string;
  /** The path of the local copy of `audio_url`. */
  audio_path?: string;
  /** The SHA-256 of the local copy of `video_url`. */
  video_sha256?: string;
  /** The path of the local copy of `video_url`. */
  video_path?: string;
  /** The SHA-256 of the local copy of `still_url`. */
  still_sha256?: string;
  /** The path of the local copy of `still_url`. */
  still_path?: string;
}

export { ASSET_FIELDS };

export const ASSETS_DIR_NAME = 'assets';

/**
 * What keeping and restoring assets needs from a unit's context (model-call.ts's UnitContext
 * satisfies it): the cache's unit and digest tables, the provider's downloads, the store.
 */
export interface AssetContext {
  cache: Pick<RenderCache, 'getUnit' | 'putUnit' | 'assetDigest' | 'recordAssetDigest'>;
  provider: Pick<Provider, 'fetchAsset' | 'name' | 'origin'>;
  force: boolean;
  signal?: AbortSignal;
  emit: (event: RenderEvent) => void;
  assets?: AssetStore;
  /** The shared tier, looked up after a local miss. */
  remote?: RemoteCache;
}

export class AssetStore {
  constructor(readonly dir: string) {}

  /** Where bytes with this digest live; the extension keeps players and ffmpeg happy. */
  pathFor(sha256: string, extension: string): string {
    return join(this.dir, sha256.slice(0, 2), `${sha256}${extension}`);
  }

  /** Stores bytes (once: an existing copy is kept) and returns their digest and path. */
  put(bytes: Uint8Array, extension: string): { sha256: string; path: string } {
    const sha256 = sha256Hex(bytes);
    const path = this.pathFor(sha256, extension);
    if (!existsSync(path)) {
      mkdirSync(join(this.dir, sha256.slice(0, 2)), { recursive: true });
      const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(temp, bytes);
      renameSync(temp, path);
    }
    return { sha256, path };
  }
}

const stores = new Map<string, AssetStore>();

/** The asset store of a cache directory. */
export function assetStoreFor(cacheDir: string): AssetStore {
  let store = stores.get(cacheDir);
  if (!store) {
    store = new AssetStore(join(cacheDir, ASSETS_DIR_NAME));
    stores.set(cacheDir, store);
  }
  return store;
}

/** The file extension of an asset URL (`.png`, `.mp4`, ...), `.bin` when it has none. */
export function extensionOf(url: string): string {
  let pathname = url;
  try {
    pathname = new URL(url).pathname;
  } catch {
    // a plain path
  }
  const ext = extname(pathname).toLowerCase();
  return /^\.[a-z0-9]{1,5}$/.test(ext) ? ext : '.bin';
}

/**
 * Keeps a local copy of one asset: downloads it unless the cache already knows its digest and
 * the copy is in the store. Returns its digest and path.
 */
export async function keepAsset(ctx: AssetContext, url: string): Promise<{ sha256: string; path: string }> {
  const store = ctx.assets!;
  const extension = extensionOf(url);
  const known = ctx.cache.assetDigest(url);
  if (known) {
    const path = store.pathFor(known, extension);
    if (existsSync(path)) return { sha256: known, path };
  }
  const kept = store.put(await ctx.provider.fetchAsset(url, { signal: ctx.signal }), extension);
  ctx.cache.recordAssetDigest(url, kept.sha256);
  return kept;
}

/** Adds `sha256`/`path` (and the audio_, video_, still_ pairs) beside every url field of a fresh result. */
export async function keepAssets(ctx: AssetContext, result: Record<string, unknown>): Promise<void> {
  for (const field of ASSET_FIELDS) {
    const url = result[field.url];
    if (typeof url !== 'string') continue;
    if (url === '') {
      result[field.sha256] = '';
      result[field.path] = '';
      continue;
    }
    const kept = await keepAsset(ctx, url);
    result[field.sha256] = kept.sha256;
    result[field.path] = kept.path;
  }
}

/**
 * Checks a cached result's local copies. A missing copy, or one whose bytes no longer match its
 * recorded sha256, is downloaded again from its URL while the URL still serves those bytes. Returns the result with its fields filled in, or undefined when some
 * asset is gone for good (expired URL and no local copy): the unit must be rendered again.
 */
export async function restoreAssets(ctx: AssetContext, stored: Record<string, unknown>): Promise<{ result: Record<string, unknown>; changed: boolean } | undefined> {
  const result = { ...stored };
  let changed = false;
  for (const field of ASSET_FIELDS) {
    const url = result[field.url];
    if (typeof url !== 'string') continue;
    const path = result[field.path];
    if (url === '') {
      if (path === undefined) {
        result[field.sha256] = '';
        result[field.path] = '';
        changed = true;
      }
      continue;
    }
    const recorded = typeof result[field.sha256] === 'string' && result[field.sha256] !== '' ? (result[field.sha256] as string) : undefined;
    if (typeof path === 'string' && path !== '' && existsSync(path)) {
      // The copy is served only while it holds the bytes recorded for it: one edited in place
      // (say through an old hard link) is removed, and fetched or rendered again.
      if (recorded === undefined || sha256Hex(readFileSync(path)) === recorded) continue;
      rmSync(path, { force: true });
      ctx.emit({ type: 'notice', message: `${path} no longer holds the bytes recorded for it; fetching it again` });
    }
    try {
      const kept = await keepAsset(ctx, url);
      if (recorded !== undefined && kept.sha256 !== recorded) return undefined;
      result[field.sha256] = kept.sha256;
      result[field.path] = kept.path;
      changed = true;
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      return undefined;
    }
  }
  return { result, changed };
}

/**
 * The cached result of a unit, its durable copies checked: null when there is none (or `force`),
 * and also when its media are gone for good, in which case the returned context forces the
 * re-render (its model calls must not come from the call cache either) and a notice says so.
 * A lookup goes local, then to the shared tier when there is one: a remote hit (verified, its
 * media pulled into the local store) fills the local cache, so the next render here is local.
 */
export async function cachedUnit<C extends AssetContext>(
  ctx: C,
  namespace: string,
  key: string,
  what: string,
): Promise<{ hit: Record<string, unknown> | null; ctx: C }> {
  if (ctx.force) return { hit: null, ctx };
  const stored = ctx.cache.getUnit(namespace, key);
  if (!stored) return remoteUnit(ctx, namespace, key, what);
  const restored = ctx.assets ? await restoreAssets(ctx, stored.result) : undefined;
  if (ctx.assets && !restored) {
    const remote = await remoteUnit(ctx, namespace, key, what);
    if (remote.hit) return remote;
    ctx.emit({ type: 'notice', message: `${what}: the cached media are gone (expired URL, no local copy); rendering it again` });
    return { hit: null, ctx: { ...ctx, force: true } };
  }
  if (restored?.changed) ctx.cache.putUnit(namespace, key, restored.result, stored.note);
  ctx.emit({ type: 'cache_hit', whole_unit: true, tier: 'local' });
  return { hit: restored?.result ?? stored.result, ctx };
}

async function remoteUnit<C extends AssetContext>(ctx: C, namespace: string, key: string, what: string): Promise<{ hit: Record<string, unknown> | null; ctx: C }> {
  if (!ctx.remote || !ctx.assets) return { hit: null, ctx };
  const pulled = await ctx.remote.lookup(unitAddress(ctx.provider, namespace, key), { assets: ctx.assets, emit: ctx.emit, signal: ctx.signal });
  if (!pulled) return { hit: null, ctx };
  ctx.cache.putUnit(namespace, key, pulled, `${what} (shared cache)`);
  ctx.emit({ type: 'cache_hit', whole_unit: true, tier: 'remote' });
  return { hit: pulled, ctx };
}
