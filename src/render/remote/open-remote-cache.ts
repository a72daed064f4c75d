import { RemoteCache } from './remote-cache.js';
import { parseRemoteCacheLocation, REMOTE_CACHE_MODES, type RemoteCacheMode } from './remote-cache-location.js';
import { S3ObjectStore, type S3Timeouts } from './s3-object-store.js';
import { UsageError } from '../../errors/annot-error.js';

/**
 * The shared render cache at `s3://BUCKET/PREFIX` (see remote-cache.ts), on the S3 endpoint and
 * with the credentials of the standard AWS chain. Opening calls nothing: a remote that is down is
 * found, and reported once, by the first lookup.
 */
export async function openRemoteCache(
  url: string,
  options: {
    /** One of REMOTE_CACHE_MODES; default `readwrite`. Anything else is a UsageError. */
    mode?: string;
    /** How long a connection may take to open or stay silent before the remote is given up for the run. */
    timeouts?: S3Timeouts;
  } = {},
): Promise<RemoteCache> {
  const location = parseRemoteCacheLocation(url);
  const mode = options.mode ?? 'readwrite';
  if (!(REMOTE_CACHE_MODES as readonly string[]).includes(mode)) throw new UsageError(`--remote-cache-mode ${JSON.stringify(mode)}: expected one of ${REMOTE_CACHE_MODES.join(', ')}`);
  const store = await S3ObjectStore.open(location.bucket, options.timeouts);
  return new RemoteCache({ location, mode: mode as RemoteCacheMode, store });
}
