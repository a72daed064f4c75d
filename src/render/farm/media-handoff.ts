import { existsSync, readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { AnnotError } from '../../errors/annot-error.js';
import { sha256Hex } from '../hashing.js';
import type { LocalMediaStore, RemoteCache, RemoteUnitContext } from '../remote/remote-cache.js';
import { entryBlobs, localPathOf, localResult, sharedForm, type MediaBlob } from '../remote/unit-entry.js';
import type { FarmKeys } from './farm-keys.js';
import type { UnitJobResult } from './unit-job.js';

/** Media handed over through Redis live this long: the callers waiting for the unit fetch them as soon as it finishes. */
const HANDOFF_SECONDS = 3600;

/** A finished unit whose media the caller could not get: not in the shared cache, not (or no longer) in Redis. */
export class RenderMediaUnavailableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_RENDER_MEDIA_UNAVAILABLE';
}

/**
 * The worker's side: its local result as the caller receives it. With a shared cache that holds
 * every blob (the worker wrote or found them there), the caller pulls them from it; otherwise the
 * worker puts the bytes in Redis for an hour, which is how media reach callers without a shared
 * cache (fine for previews and small teams; a bucket is the way for real volumes).
 */
export async function handOver(
  local: Record<string, unknown>,
  how: { redis: Redis; keys: FarmKeys; remote?: RemoteCache; worker: string; cacheHit: boolean; ctx: Omit<RemoteUnitContext, 'assets'> },
): Promise<UnitJobResult> {
  const shared = sharedForm(local);
  const blobs = entryBlobs(shared);
  const inRemote = how.remote !== undefined && blobs.length > 0 && (await how.remote.hasBlobs(blobs, how.ctx));
  if (!inRemote) {
    for (const blob of blobs) {
      const path = localPathOf(local, blob.sha256);
      await how.redis.set(how.keys.blob(blob.sha256), readFileSync(path), 'EX', HANDOFF_SECONDS);
    }
  }
  return {
    result: shared.result,
    media: shared.media as Record<string, MediaBlob>,
    cache_hit: how.cacheHit,
    worker: how.worker,
    media_in: inRemote ? 'remote' : 'redis',
    remote: inRemote ? how.remote!.url : null,
  };
}

/**
 * The caller's side: a worker's result in local form, each blob from this machine's store when it
 * is there already, else from the shared cache, else from Redis, and checked against its sha256
 * before it is kept.
 */
export async function receive(
  done: UnitJobResult,
  how: { redis: Redis; keys: FarmKeys; remote?: RemoteCache; assets: LocalMediaStore; ctx: Omit<RemoteUnitContext, 'assets'> },
): Promise<Record<string, unknown>> {
  const paths = new Map<string, string>();
  for (const blob of entryBlobs(done)) {
    const path = await localCopy(blob, how.assets) ?? (how.remote ? await how.remote.pull(blob, { ...how.ctx, assets: how.assets }) : undefined) ?? (await fromRedis(blob, how));
    if (path === undefined) {
      const where = done.media_in === 'remote' ? `in the shared cache ${done.remote} (give this render the same --remote-cache as the workers)` : 'in Redis (media handed over without a shared cache are kept for an hour)';
      throw new RenderMediaUnavailableError(`render worker ${done.worker} finished the unit, but its media ${blob.sha256} are not ${where}; run the render again`);
    }
    paths.set(blob.sha256, path);
  }
  return localResult(done, paths);
}

async function localCopy(blob: MediaBlob, assets: LocalMediaStore): Promise<string | undefined> {
  const path = assets.pathFor(blob.sha256, blob.extension);
  return existsSync(path) && sha256Hex(readFileSync(path)) === blob.sha256 ? path : undefined;
}

async function fromRedis(blob: MediaBlob, how: { redis: Redis; keys: FarmKeys; assets: LocalMediaStore }): Promise<string | undefined> {
  const bytes = await how.redis.getBuffer(how.keys.blob(blob.sha256));
  if (bytes === null || bytes.byteLength !== blob.size || sha256Hex(bytes) !== blob.sha256) return undefined;
  return how.assets.put(bytes, blob.extension).path;
}
