import { UsageError } from '../../errors/annot-error.js';

/** Where a shared render cache lives: a bucket and a key prefix (no trailing slash; '' for the bucket's root). */
export interface RemoteCacheLocation {
  /** The bucket's name, as S3 spells it (no `s3://`). */
  readonly bucket: string;
  /** The folder inside the bucket the cache's layout lives under, so that several teams or projects can share one bucket. */
  readonly prefix: string;
}

/** What a render may do with the shared cache: `read` never writes (pull-request builds, see README). */
export const REMOTE_CACHE_MODES = ['readwrite', 'read'] as const;
/** One of REMOTE_CACHE_MODES (`--remote-cache-mode`): `readwrite` looks units up and shares new ones, `read` only looks up. */
export type RemoteCacheMode = (typeof REMOTE_CACHE_MODES)[number];

/** The version folder of the layout: `PREFIX/v1/ac/<key>` (unit entries) and `PREFIX/v1/cas/<sha256>` (media). */
export const LAYOUT_VERSION = 'v1';

/** A --remote-cache value that is not `s3://BUCKET[/PREFIX]`. */
export class RemoteCacheLocationError extends UsageError {
  constructor(
    /** The value as given (with any user name or password in it masked), for a program that reports it its own way. */
    readonly value: string,
    why: string,
  ) {
    super(`--remote-cache ${JSON.stringify(value)}: ${why}; expected s3://BUCKET/PREFIX (the endpoint and credentials come from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION or an AWS profile)`);
  }
}

/** Bucket names as S3 and its clones accept them: 3 to 63 lowercase letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Reads `s3://BUCKET/PREFIX`. Credentials never go in it: a user name or password in the value is
 * refused (annot stores no credentials of its own; the AWS chain supplies them).
 */
export function parseRemoteCacheLocation(value: string): RemoteCacheLocation {
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(value.trim());
  if (!match) throw new RemoteCacheLocationError(value, 'not an s3:// URL');
  const [, authority, rest = ''] = match;
  if (authority.includes('@') || authority.includes(':')) {
    throw new RemoteCacheLocationError(value.replace(/^s3:\/\/[^/]*@/, 's3://***@'), 'credentials do not go in the URL');
  }
  if (!BUCKET_NAME.test(authority)) throw new RemoteCacheLocationError(value, `"${authority}" is not a bucket name (3-63 lowercase letters, digits, dots, hyphens)`);
  const prefix = rest.replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..')) throw new RemoteCacheLocationError(value, 'the prefix may not contain . or .. segments');
  if ([...prefix].some((char) => char.charCodeAt(0) < 0x20) || /[\\?#]/.test(prefix)) throw new RemoteCacheLocationError(value, 'the prefix may not contain control characters, backslashes, ? or #');
  return { bucket: authority, prefix: prefix.replace(/\/{2,}/g, '/') };
}

/** `s3://BUCKET/PREFIX` as the user would write it (messages, the worker's return value). */
export function remoteCacheUrl(location: RemoteCacheLocation): string {
  return `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`;
}

/** The object key of a path inside the versioned layout. */
export function layoutKey(location: RemoteCacheLocation, path: string): string {
  return `${location.prefix ? `${location.prefix}/` : ''}${LAYOUT_VERSION}/${path}`;
}
