import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { startCli } from './cli-env.js';

export const REDIS_URL = process.env.ANNOT_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A queue name no other run on this Redis uses. */
export function freshQueueName(what: string): string {
  return `annot-test-${what}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Why Redis cannot be used here, or null. */
export async function redisProblem(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    redis.disconnect();
  }
}

/** A running `annot render worker`, with what it has said so far. */
export interface WorkerProcess {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** Starts `annot render worker …` and waits until it says it is ready. */
export async function startWorker(args: string[], env: NodeJS.ProcessEnv): Promise<WorkerProcess> {
  const child = startCli(['render', 'worker', ...args], env);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('annot render worker: ready')) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`the worker exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    child,
    output: () => output,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
