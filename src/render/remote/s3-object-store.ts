import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type * as S3 from '@aws-sdk/client-s3';
import { redactSecrets } from '../../text/secret-redaction.js';
import { ObjectStoreError, type CallOptions, type ObjectStore } from './object-store.js';

/** Time-outs of every call: a remote that is down or silent costs one render this much once, then it is left alone. */
export interface S3Timeouts {
  /** Opening the connection. Default 3 s. */
  connectMs?: number;
  /** No byte sent or received for this long. Default 10 s. */
  idleMs?: number;
}

/**
 * An S3 bucket through @aws-sdk/client-s3, as any S3-compatible server (MinIO, Ceph, R2, Garage,
 * AWS itself) serves it. The endpoint, region and credentials are the SDK's standard chain:
 * AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3), AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/
 * AWS_SESSION_TOKEN, AWS_PROFILE and the shared files; annot keeps none of its own. Checksums are
 * sent and checked only where S3 requires them (`WHEN_REQUIRED`), since many clones refuse the
 * SDK's default CRC32 trailers; a custom endpoint is addressed path-style (`endpoint/bucket/key`),
 * which every clone serves. Each call gets one retry, the time-outs above and the caller's signal.
 */
export class S3ObjectStore implements ObjectStore {
  readonly describe: string;

  private constructor(
    private readonly sdk: typeof S3,
    private readonly client: S3.S3Client,
    readonly bucket: string,
  ) {
    this.describe = `s3://${bucket}`;
  }

  static async open(bucket: string, timeouts: S3Timeouts = {}): Promise<S3ObjectStore> {
    // annot supports Node 20 (package.json engines); the SDK's notice about its own later releases is not the user's concern.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    const sdk = await import('@aws-sdk/client-s3');
    const endpoint = process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL;
    const client = new sdk.S3Client({
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      forcePathStyle: Boolean(endpoint),
      maxAttempts: 2,
      region: hasConfiguredRegion() ? undefined : 'us-east-1',
      requestHandler: { connectionTimeout: timeouts.connectMs ?? 3000, socketTimeout: timeouts.idleMs ?? 10_000, httpAgent: { keepAlive: true, maxSockets: 64 } },
    });
    return new S3ObjectStore(sdk, client, bucket);
  }

  async get(key: string, { signal }: CallOptions): Promise<Uint8Array | undefined> {
    try {
      const reply = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: signal });
      return reply.Body ? await reply.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw this.failure('read', key, error);
    }
  }

  async head(key: string, { signal }: CallOptions): Promise<{ size: number } | undefined> {
    try {
      const reply = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: signal });
      return { size: reply.ContentLength ?? 0 };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw this.failure('look up', key, error);
    }
  }

  async put(key: string, bytes: Uint8Array, options: CallOptions & { contentType: string; ifAbsent?: boolean }): Promise<'written' | 'exists'> {
    try {
      await this.client.send(
        new this.sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: options.contentType, ContentLength: bytes.byteLength, IfNoneMatch: options.ifAbsent ? '*' : undefined }),
        { abortSignal: options.signal },
      );
      return 'written';
    } catch (error) {
      // 412: the key exists. 409: another conditional write of the key is in progress, which will win.
      const status = statusOf(error);
      if (options.ifAbsent && (status === 412 || status === 409)) return 'exists';
      throw this.failure('write', key, error);
    }
  }

  /** Deletes an object (setting a cache up removes its probe); the render paths never delete. */
  async delete(key: string, signal: AbortSignal): Promise<void> {
    try {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal: signal });
    } catch (error) {
      throw this.failure('delete', key, error);
    }
  }

  /** Creates the bucket; false when it already exists (and is this account's). */
  async createBucket(signal: AbortSignal): Promise<boolean> {
    try {
      await this.client.send(new this.sdk.CreateBucketCommand({ Bucket: this.bucket }), { abortSignal: signal });
      return true;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'BucketAlreadyOwnedByYou' || name === 'BucketAlreadyExists') return false;
      throw this.failure('create', '', error);
    }
  }

  close(): void {
    this.client.destroy();
  }

  /** The failure in one line: what was done, where, and the server's or the network's words without any credential. */
  private failure(action: string, key: string, error: unknown): ObjectStoreError {
    const status = statusOf(error);
    const name = (error as { name?: string }).name ?? 'Error';
    const message = error instanceof Error ? error.message : String(error);
    const why = name === 'AbortError' || name === 'TimeoutError' ? 'no answer in time' : `${status ? `HTTP ${status} ` : ''}${name}: ${message}`;
    return new ObjectStoreError(redactAws(`could not ${action} ${this.describe}/${key} (${why})`), { cause: error });
  }
}

/**
 * Takes the AWS secrets of this process out of a text that may echo them (a server's error body):
 * the secret key and session token, and a request's signature and security token, which a
 * server may quote from the headers it refused.
 */
export function redactAws(text: string): string {
  return redactSecrets(text, [process.env.AWS_SECRET_ACCESS_KEY, process.env.AWS_SESSION_TOKEN])
    .replace(/(Signature=)[0-9a-f]{16,}/gi, '$1***')
    .replace(/(X-Amz-Security-Token[=:]\s*)[^\s&,;"'<]+/gi, '$1***');
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

/** Whether the SDK will find a region by itself (the environment or a shared config file); S3 clones mostly ignore it. */
function hasConfiguredRegion(): boolean {
  if (process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION) return true;
  return existsSync(process.env.AWS_CONFIG_FILE || join(homedir(), '.aws', 'config'));
}
