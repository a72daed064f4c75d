import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { startS3Server, TEST_AWS_SECRET, type S3TestServer } from '../support/s3-server.js';
import { cliDir, render } from './cli-env.js';
import { freshQueueName, REDIS_URL, redisProblem, startWorker, type WorkerProcess } from './farm-env.js';

/**
 * A team on one bucket: each "machine" is a process with a cache folder of its own, all on one
 * S3-compatible server (s3rver, or ANNOT_TEST_S3_URL), with the fake fal server and the machine's
 * Redis. A unit rendered anywhere is never paid for again; no secret reaches the bucket, Redis, a
 * manifest, a message or a log.
 */
const FAL_KEY = 'team-key-id:team-key-secret-0123456789';
const SLOW = 180_000;
const SCENE = [
  'title: Team Scene',
  'characters:',
  '  - name: Ann',
  '    voice: { voice_id: v1 }',
  '    reference_image_url: https://example.com/ann.png',
  'shots:',
  '  - { id: s1, description: a quay at dawn }',
  '  - { id: s2, description: the lamp room }',
  'beats:',
  '  - { id: b1, speaker: Ann, line: Morning. }',
  '',
].join('\n');
const redisUnreachable = await redisProblem();

describe('a render cache shared by a team on S3-compatible storage', () => {
  const t = cliDir();
  let s3: S3TestServer;
  let fal: FakeFalServer;
  let sceneFile = '';
  let n = 0;
  const outputs: string[] = [];
  const workers: WorkerProcess[] = [];
  const queues: string[] = [];

  beforeAll(async () => {
    s3 = await startS3Server();
    fal = await startFakeFalServer({ acceptKeys: [FAL_KEY] });
    sceneFile = join(t.dir, 'team.yaml');
    writeFileSync(sceneFile, SCENE);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    for (const name of queues) {
      const queue = new Queue(name, { connection: { url: REDIS_URL } });
      await queue.obliterate({ force: true }).catch(() => undefined);
      await queue.close();
    }
    await fal.close();
    await s3.close();
    t.cleanup();
  });

  const machine = (extra: NodeJS.ProcessEnv = {}) => ({ ...t.env, ...s3.env, ANNOT_CACHE_DIR: join(t.dir, `machine-${n++}`), FAL_KEY, FAL_QUEUE_URL: fal.url, ANNOT_REDIS_URL: REDIS_URL, ...extra });
  const run = async (args: string[], env: NodeJS.ProcessEnv) => {
    const ran = await render(args, env, SLOW);
    outputs.push(ran.stdout, ran.stderr);
    return ran;
  };

  it('a second machine renders the scene the first rendered without a single fal call; render plan says so first', async () => {
    const url = s3.freshUrl('two-machines');
    const first = await run(['scene', sceneFile, '--remote-cache', url, '--provider', 'fal', '--manifest', join(t.dir, 'a.manifest.json'), '-q'], machine());
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('3 rendered');
    expect(first.stdout).toContain(`shared cache ${url}: 0 units pulled (0 bytes), 3 shared`);
    const paid = fal.submissions().length;

    const second = machine();
    const plan = await run(['plan', sceneFile, '--provider', 'fal', '--json'], { ...second, ANNOT_REMOTE_CACHE: url });
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ to_render: 0, remote_cache: { url, holds: 3 }, known_usd: 0 });
    const ran = await run(['scene', sceneFile, '--provider', 'fal', '--manifest', join(t.dir, 'b.manifest.json'), '-q'], { ...second, ANNOT_REMOTE_CACHE: url });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('0 rendered, 3 cached');
    expect(fal.submissions()).toHaveLength(paid);
    const sha = (file: string) => JSON.parse(readFileSync(join(t.dir, file), 'utf8')).shots.map((s: { sha256: string }) => s.sha256);
    expect(sha('b.manifest.json')).toEqual(sha('a.manifest.json'));
  }, SLOW);

  it('a pull-request build in read mode is served and writes nothing', async () => {
    const url = s3.freshUrl('read-mode');
    const ran = await run(['scene', sceneFile, '--remote-cache', url, '--remote-cache-mode', 'read', '--provider', 'fal', '--manifest', join(t.dir, 'pr.manifest.json'), '-q'], machine());
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`shared cache ${url}, read-only: 0 units pulled (0 bytes), 0 shared`);
    const plan = await run(['plan', sceneFile, '--provider', 'fal', '--remote-cache', url, '--json'], machine());
    expect(JSON.parse(plan.stdout).remote_cache.holds).toBe(0);
  }, SLOW);

  it('a remote that is down is one warning line; the render goes on', async () => {
    const ran = await run(['scene', sceneFile, '--remote-cache', 's3://team-renders/x', '--provider', 'fal', '--manifest', join(t.dir, 'down.manifest.json')], machine({ AWS_ENDPOINT_URL: 'http://127.0.0.1:1' }));
    expect(ran.code).toBe(0);
    const warnings = ran.stderr.split('\n').filter((line) => line.includes('is unavailable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^annot: the shared cache s3:\/\/team-renders\/x is unavailable: .*ECONNREFUSED/);
  }, SLOW);

  it('redacts what an S3 server echoes in its error body: no secret key, no signature', async () => {
    const echo: Server = createServer((req, res) => {
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>denied for ${TEST_AWS_SECRET} with Authorization: ${req.headers.authorization}</Message></Error>`);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const ran = await run(['scene', sceneFile, '--remote-cache', 's3://team-renders/echo', '--provider', 'fal', '--manifest', join(t.dir, 'echo.manifest.json')], machine({ AWS_ENDPOINT_URL: endpoint, AWS_SECRET_ACCESS_KEY: TEST_AWS_SECRET, AWS_ACCESS_KEY_ID: 'S3RVER' }));
      expect(ran.code).toBe(0);
      expect(ran.stderr).toContain('is unavailable');
      expect(ran.stderr).toContain('AccessDenied');
      expect(ran.stderr).not.toContain(TEST_AWS_SECRET);
      expect(ran.stderr).not.toMatch(/Signature=[0-9a-f]/);
    } finally {
      echo.closeAllConnections();
      await new Promise((resolve) => echo.close(resolve));
    }
  }, SLOW);

  (redisUnreachable === null ? it : it.skip)('workers write to the shared cache and the caller pulls the media from it', async () => {
    const url = s3.freshUrl('farm');
    const queue = freshQueueName('team');
    queues.push(queue);
    const w = await startWorker(['--queue-name', queue, '--remote-cache', url], machine());
    workers.push(w);
    const ran = await run(['scene', sceneFile, '--queue', '--queue-name', queue, '--remote-cache', url, '--manifest', join(t.dir, 'farm.manifest.json'), '-q'], machine({ FAL_KEY: '' }));
    expect(ran.code).toBe(0);
    expect(w.output()).toContain('media for the caller via remote');
    expect(Number(/units pulled \((\d+) bytes\)/.exec(ran.stdout)?.[1])).toBeGreaterThan(0);
    outputs.push(w.output());

    // Nothing annot wrote to Redis for this queue holds a key or a secret.
    const redis = new Redis(REDIS_URL);
    try {
      const keys = [...(await redis.keys(`annot-render:${queue}:*`)), ...(await redis.keys(`bull:${queue}:*`))];
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const type = await redis.type(key);
        const text = type === 'string' ? (await redis.getBuffer(key))?.toString('latin1') : type === 'hash' ? JSON.stringify(await redis.hgetall(key)) : type === 'list' ? JSON.stringify(await redis.lrange(key, 0, -1)) : type === 'set' ? JSON.stringify(await redis.smembers(key)) : type === 'zset' ? JSON.stringify(await redis.zrange(key, 0, -1)) : '';
        for (const secret of [FAL_KEY, FAL_KEY.split(':')[1], TEST_AWS_SECRET]) expect([key, (text ?? '').includes(secret)]).toEqual([key, false]);
      }
    } finally {
      await redis.quit();
    }
  }, SLOW);

  it('no secret in any output, manifest or object of the bucket', () => {
    const texts = [...outputs];
    for (const name of readdirSync(t.dir)) if (name.endsWith('.manifest.json')) texts.push(readFileSync(join(t.dir, name), 'utf8'));
    if (s3.inProcess) {
      for (const file of readdirSync(s3.directory!, { recursive: true, encoding: 'utf8' })) {
        const path = join(s3.directory!, file);
        if (statSync(path).isFile()) texts.push(readFileSync(path).toString('latin1'));
      }
    }
    expect(texts.length).toBeGreaterThan(10);
    for (const text of texts) for (const secret of [FAL_KEY, FAL_KEY.split(':')[1], TEST_AWS_SECRET]) expect(text.includes(secret)).toBe(false);
  });
});
