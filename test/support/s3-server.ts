import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * An S3-compatible server for the tests: s3rver in this process on a free port, with a fresh
 * folder, or the server ANNOT_TEST_S3_URL names (MinIO, Ceph, Garage, AWS itself) with the
 * credentials of the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION). Every
 * test gets a prefix of its own, so runs on one bucket never meet.
 */
export interface S3TestServer {
  /** The endpoint, for AWS_ENDPOINT_URL. */
  endpoint: string;
  bucket: string;
  /** The environment a child process (a "machine") needs to reach it; the secret is a test value unless ANNOT_TEST_S3_URL is set. */
  env: Record<string, string>;
  /** A fresh `s3://bucket/prefix` for one test. */
  freshUrl(name: string): string;
  /** Whether this is the in-process s3rver (whose files the tests can read). */
  inProcess: boolean;
  /** s3rver's folder: every object it stores is a file under it. */
  directory?: string;
  close(): Promise<void>;
}

/** A secret key no real account has, long enough for the redaction to look for it everywhere. */
export const TEST_AWS_SECRET = 'S3RVERtestSecretKey0123456789abcdef';
const TEST_AWS_KEY_ID = 'S3RVER';

export async function startS3Server(): Promise<S3TestServer> {
  const run = randomBytes(4).toString('hex');
  const external = process.env.ANNOT_TEST_S3_URL;
  if (external) {
    const bucket = process.env.ANNOT_TEST_S3_BUCKET ?? 'annot-test';
    const env = { AWS_ENDPOINT_URL: external, AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? '', AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? '', AWS_REGION: process.env.AWS_REGION ?? 'us-east-1' };
    await ensureBucket(external, bucket, env);
    return { endpoint: external, bucket, env, inProcess: false, freshUrl: (name) => `s3://${bucket}/annot-test-${run}/${name}`, close: async () => undefined };
  }
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 'annot-s3rver-'));
  const bucket = 'annot-test';
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
    // s3rver checks signatures against this pair.
    accessKeyId: TEST_AWS_KEY_ID,
    secretAccessKey: TEST_AWS_SECRET,
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: TEST_AWS_KEY_ID, AWS_SECRET_ACCESS_KEY: TEST_AWS_SECRET, AWS_REGION: 'us-east-1' },
    inProcess: true,
    directory,
    freshUrl: (name) => `s3://${bucket}/${run}/${name}`,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function ensureBucket(endpoint: string, bucket: string, env: Record<string, string>): Promise<void> {
  const { S3Client, CreateBucketCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint, forcePathStyle: true, region: env.AWS_REGION, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } });
  await client.send(new CreateBucketCommand({ Bucket: bucket })).catch(() => undefined);
  client.destroy();
}

/** Runs fn with the server's AWS variables set in this process (the library reads the standard chain), restoring them after. */
export async function withS3Env<T>(server: S3TestServer, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(server.env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, server.env);
  try {
    return await fn();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
