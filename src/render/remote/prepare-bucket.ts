import { randomBytes } from 'node:crypto';
import { AnnotError } from '../../errors/annot-error.js';
import { ObjectStoreError } from './object-store.js';
import { LAYOUT_VERSION, layoutKey, parseRemoteCacheLocation, remoteCacheUrl } from './remote-cache-location.js';
import { S3ObjectStore, redactAws } from './s3-object-store.js';
import { ENTRY_FORMAT, ENTRY_VERSION } from './unit-entry.js';

/** The shared cache could not be reached, or refused what setting it up needs. */
export class RemoteCacheUnavailableError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_REMOTE_CACHE_UNAVAILABLE';
}

/** What `annot render bucket` found and did. */
export interface BucketReport {
  /** The shared cache, `s3://BUCKET/PREFIX`. */
  url: string;
  /** `created`, `existed`, or `not checked` (--check, or no right to create buckets). */
  bucket: 'created' | 'existed' | 'not checked';
  /** The object that describes the layout, `PREFIX/v1/annot-render-cache.json`. */
  layout: string;
  /** Whether annot wrote to the bucket and read it back (false with `check`, which writes nothing). */
  writable: boolean;
  /** Whether the server refuses a second `If-None-Match: *` write of one key (null when not tried: read-only). */
  conditional_writes: boolean | null;
}

/**
 * Sets up (or, with `check`, only checks) a shared render cache: the bucket is created when it is
 * missing, the layout's description written under `PREFIX/v1/`, read back, and a probe object
 * written twice with `If-None-Match: *` to learn whether the server lets the first writer of a
 * key win (S3 does; some clones ignore the header, and annot then reads every entry back after
 * writing it). Nothing is listed.
 */
export async function prepareBucket(url: string, options: { check?: boolean } = {}): Promise<BucketReport> {
  const location = parseRemoteCacheLocation(url);
  const store = await S3ObjectStore.open(location.bucket);
  const signal = () => AbortSignal.timeout(15_000);
  const layout = layoutKey(location, 'annot-render-cache.json');
  try {
    let bucket: BucketReport['bucket'] = 'not checked';
    if (!options.check) {
      // Without the right to create buckets the bucket may still be usable: the writes below say.
      bucket = await store.createBucket(signal()).then((created) => (created ? 'created' : 'existed'), () => 'not checked' as const);
    }
    if (options.check) {
      await store.get(layout, { signal: signal() });
      return { url: remoteCacheUrl(location), bucket, layout, writable: false, conditional_writes: null };
    }
    const description = { format: ENTRY_FORMAT, version: ENTRY_VERSION, layout: LAYOUT_VERSION, ac: layoutKey(location, 'ac/'), cas: layoutKey(location, 'cas/') };
    await store.put(layout, Buffer.from(`${JSON.stringify(description, null, 2)}\n`), { contentType: 'application/json', ifAbsent: true, signal: signal() });
    if ((await store.get(layout, { signal: signal() })) === undefined) throw new ObjectStoreError(`${layout} was written but cannot be read back`);
    const probe = layoutKey(location, `probe/${randomBytes(8).toString('hex')}`);
    await store.put(probe, Buffer.from('first'), { contentType: 'text/plain', ifAbsent: true, signal: signal() });
    const second = await store.put(probe, Buffer.from('second'), { contentType: 'text/plain', ifAbsent: true, signal: signal() });
    await store.delete(probe, signal()).catch(() => undefined);
    return { url: remoteCacheUrl(location), bucket, layout, writable: true, conditional_writes: second === 'exists' };
  } catch (error) {
    const why = error instanceof ObjectStoreError ? error.message : redactAws(error instanceof Error ? error.message : String(error));
    throw new RemoteCacheUnavailableError(`the shared cache ${remoteCacheUrl(location)} cannot be used: ${why}`, { cause: error });
  } finally {
    store.close();
  }
}
