import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { closeRenderCaches } from '../../src/render/cache.js';
import { withCredentials } from '../../src/render/credentials.js';
import type { RenderEvent } from '../../src/render/events.js';
import { renderScene } from '../../src/render/render-scene.js';
import { renderShot } from '../../src/render/render-shot.js';
import { FalProvider } from '../../src/render/providers/fal/fal-provider.js';
import { RemoteCache } from '../../src/render/remote/remote-cache.js';
import { layoutKey, parseRemoteCacheLocation } from '../../src/render/remote/remote-cache-location.js';
import { S3ObjectStore } from '../../src/render/remote/s3-object-store.js';
import { loadSceneFile, type Scene } from '../../src/render/scene.js';
import { startFakeFalServer, type FakeFalServer } from '../support/fake-fal-server.js';
import { FaultyObjectStore } from '../support/faulty-object-store.js';
import { startS3Server, TEST_AWS_SECRET, type S3TestServer } from '../support/s3-server.js';

/**
 * The shared render cache on a real S3-compatible server (s3rver in this process, or the one
 * ANNOT_TEST_S3_URL names), with a fault-injecting store in front of it for what a server cannot
 * be made to do on demand. Each "machine" is a cache folder of its own; fal is the fake server.
 */
const FAL_KEY = 'fal-key-id:fal-key-secret-0123456789';
let s3: S3TestServer;
let fal: FakeFalServer;
let diner: Scene;
const saved: Record<string, string | undefined> = {};
const scratch = mkdtempSync(join(tmpdir(), 'annot-remote-cache-'));
let n = 0;

beforeAll(async () => {
  s3 = await startS3Server();
  fal = await startFakeFalServer();
  diner = await loadSceneFile(join(process.cwd(), 'fixtures/scenes/diner.yaml'));
  for (const [name, value] of Object.entries(s3.env)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});
afterEach(() => {
  closeRenderCaches();
  fal.setOutcome(undefined);
  fal.setLatency(0);
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await fal.close();
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

interface Machine {
  cacheDir: string;
  store: FaultyObjectStore;
  remote: RemoteCache;
  events: RenderEvent[];
  notices: () => string[];
}

/** A machine: its own cache folder, a fal provider on the fake, and the shared cache at `url`. */
async function machine(url: string, options: { mode?: 'readwrite' | 'read'; honourConditional?: boolean; callMs?: number } = {}): Promise<Machine> {
  const location = parseRemoteCacheLocation(url);
  const store = new FaultyObjectStore(await S3ObjectStore.open(location.bucket), { honourConditional: options.honourConditional });
  const events: RenderEvent[] = [];
  return {
    cacheDir: join(scratch, `machine-${n++}`),
    store,
    remote: new RemoteCache({ location, mode: options.mode, store, callMs: options.callMs }),
    events,
    notices: () => events.filter((e) => e.type === 'notice').map((e) => e.message ?? ''),
  };
}

const provider = () => new FalProvider({ baseUrl: fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 5 });

function render(m: Machine, scene: Scene = diner) {
  return withCredentials({ falKey: FAL_KEY }, () =>
    renderScene(scene, { provider: provider(), cacheDir: m.cacheDir, remoteCache: m.remote, durableAssets: true, concurrency: 4, onEvent: (e) => m.events.push(e) }),
  );
}

const shaOf = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const submissions = () => fal.submissions().length;

/** Every file under a folder, as text (s3rver keeps each object in one). */
function everyFile(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name)).filter((path) => statSync(path).isFile());
}

describe('the shared render cache', () => {
  it('serves a second machine every unit the first rendered: no fal call, the same bytes, and the next render there is local', async () => {
    const url = s3.freshUrl('two-machines');
    const a = await machine(url);
    const before = submissions();
    const first = await render(a);
    const paid = submissions() - before;
    expect(paid).toBeGreaterThan(0);
    expect(a.remote.stats.entries_written).toBe(6);

    const b = await machine(url);
    const second = await render(b);
    expect(submissions() - before).toBe(paid);
    expect(second.cache_hits).toBe(first.shots.length + 4);
    expect(b.events.filter((e) => e.type === 'cache_hit' && e.tier === 'remote')).toHaveLength(6);
    for (const [i, shot] of second.shots.entries()) {
      expect(shot.path!.startsWith(b.cacheDir)).toBe(true);
      expect(shaOf(shot.path!)).toBe(first.shots[i].sha256);
    }
    expect(b.remote.stats.bytes_pulled).toBeGreaterThan(0);

    // The remote hit filled b's own cache: with the remote failing, b still has everything.
    b.store.inject({ kind: 'fail', status: 503 });
    const third = await render(b);
    expect(third.cache_hits).toBe(second.cache_hits);
    expect(submissions() - before).toBe(paid);
  });

  it('keys units by the provider origin: a fake or staging fal server never fills the cache for another', async () => {
    const url = s3.freshUrl('origins');
    const a = await machine(url);
    await render(a);
    const other = await startFakeFalServer();
    try {
      const b = await machine(url);
      const before = other.submissions().length;
      await withCredentials({ falKey: FAL_KEY }, () =>
        renderScene(diner, { provider: new FalProvider({ baseUrl: other.url, pollIntervalMs: 2 }), cacheDir: b.cacheDir, remoteCache: b.remote, durableAssets: true }),
      );
      expect(other.submissions().length - before).toBeGreaterThan(0);
      expect(b.remote.stats.hits).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('read mode never writes: nothing is put, and the next machine finds nothing', async () => {
    const url = s3.freshUrl('read-only');
    const a = await machine(url, { mode: 'read' });
    await render(a);
    expect(a.store.calls.filter((call) => call.op === 'put')).toEqual([]);
    const b = await machine(url);
    const before = submissions();
    await render(b);
    expect(submissions()).toBeGreaterThan(before);
    expect(b.remote.stats.hits).toBe(0);
  });

  it('never serves a corrupt blob: a miss with a notice, rendered afresh, and the good bytes put back for the next reader', async () => {
    const url = s3.freshUrl('corrupt-blob');
    const a = await machine(url);
    const first = await render(a);
    const blob = first.shots[0].sha256!;
    const location = parseRemoteCacheLocation(url);
    const raw = await S3ObjectStore.open(location.bucket);
    await raw.put(layoutKey(location, `cas/${blob}`), Buffer.from('not the bytes you are looking for'), { contentType: 'image/jpeg', signal: AbortSignal.timeout(10_000) });

    const b = await machine(url);
    const before = submissions();
    const second = await render(b);
    expect(b.notices().some((m) => m.includes(blob) && m.includes('does not hold the bytes its name promises'))).toBe(true);
    expect(submissions()).toBeGreaterThan(before); // the shot was paid for again, not served corrupt
    expect(shaOf(second.shots[0].path!)).toBe(second.shots[0].sha256);
    expect(second.shots[0].sha256).toBe(blob); // the fake's bytes are the same for the same work

    // b held good bytes and put them back: a third machine is served.
    const c = await machine(url);
    const third = await render(c);
    expect(c.remote.stats.hits).toBe(6);
    expect(shaOf(third.shots[0].path!)).toBe(blob);
    raw.close();
  });

  it('treats a torn entry, a foreign entry and a missing blob as misses, each with a notice, and replaces the torn entry', async () => {
    const url = s3.freshUrl('torn');
    const a = await machine(url);
    await render(a);
    const location = parseRemoteCacheLocation(url);
    const entries = a.store.puts(/\/ac\//).map((call) => call.key);
    expect(entries).toHaveLength(6);

    const torn = await machine(url);
    torn.store.inject({ kind: 'torn', key: new RegExp(entries[0]), bytes: 40, times: 2 });
    await render(torn);
    expect(torn.notices().some((m) => m.includes(entries[0]) && m.includes('torn or corrupt'))).toBe(true);
    expect(torn.remote.stats.hits).toBe(5);

    const foreign = await machine(url);
    const raw = await S3ObjectStore.open(location.bucket);
    const other = await raw.get(entries[1], { signal: AbortSignal.timeout(10_000) });
    await raw.put(entries[2], other!, { contentType: 'application/json', signal: AbortSignal.timeout(10_000) });
    await render(foreign);
    expect(foreign.notices().some((m) => m.includes(entries[2]) && m.includes('describes another unit'))).toBe(true);
    // The unusable entry was replaced by the machine that rendered the unit: the next reader is served.
    const next = await machine(url);
    await render(next);
    expect(next.remote.stats.hits).toBe(6);

    const missing = await machine(url);
    missing.store.inject({ kind: 'missing', key: /\/cas\//, times: 1 });
    await render(missing);
    expect(missing.notices().some((m) => m.includes('is missing'))).toBe(true);
    expect(missing.remote.stats.hits).toBe(5);
    raw.close();
  });

  it('lets the first of two writers racing on one unit win, and the other adopts its entry, so both agree', async () => {
    const url = s3.freshUrl('race');
    // Each render's media differ (as a real model's would): the loser must end with the winner's.
    let take = 0;
    fal.setOutcome(() => ({ output: { images: [{ url: fal.addFile(Buffer.from(`still number ${take++}`), 'image.jpeg'), width: 1024, height: 576 }] } }));
    fal.setLatency(200);
    const a = await machine(url, { honourConditional: true });
    const b = await machine(url, { honourConditional: true });
    const shot = diner.shots[0];
    const one = (m: Machine) => withCredentials({ falKey: FAL_KEY }, () => renderShot(shot, { provider: provider(), cacheDir: m.cacheDir, remoteCache: m.remote, durableAssets: true, onEvent: (e) => m.events.push(e) }));
    const [x, y] = await Promise.all([one(a), one(b)]);
    expect(x.sha256).toBe(y.sha256);
    expect(a.remote.stats.entries_adopted + b.remote.stats.entries_adopted).toBe(1);
    expect([...a.notices(), ...b.notices()].some((m) => m.includes('another machine shared this unit first'))).toBe(true);
    // Both machines keep the winner's result: their next renders agree without the remote.
    closeRenderCaches();
    const again = await Promise.all([one(a), one(b)]);
    expect(again.map((r) => [r.sha256, r.cache_hit])).toEqual([[x.sha256, true], [x.sha256, true]]);
  });

  it('adopts what it reads back when a server let a second writer overwrite its entry (If-None-Match ignored)', async () => {
    const url = s3.freshUrl('ignored-conditional');
    const a = await machine(url);
    const first = await render(a);
    const theirs = a.store.puts(/\/ac\//)[0].key;
    const location = parseRemoteCacheLocation(url);
    const raw = await S3ObjectStore.open(location.bucket);
    const theirEntry = (await raw.get(theirs, { signal: AbortSignal.timeout(10_000) }))!;
    raw.close();

    let take = 0;
    fal.setOutcome((_model, args) => (typeof args.prompt === 'string' ? { output: { images: [{ url: fal.addFile(Buffer.from(`other still ${take++}`), 'image.jpeg') }] } } : undefined));
    const b = await machine(url);
    // b finds nothing (its reads of the entry miss), renders, writes, and another writer's entry lands over it.
    b.store.inject({ kind: 'missing', key: new RegExp(`${theirs}$`), times: 3 });
    b.store.inject({ kind: 'overwrite-after-put', key: new RegExp(`${theirs}$`), bytes: theirEntry });
    const second = await render(b);
    const adopted = [...second.shots, ...second.beats].map((r) => ('sha256' in r ? r.sha256 : undefined));
    const original = [...first.shots, ...first.beats].map((r) => ('sha256' in r ? r.sha256 : undefined));
    expect(b.remote.stats.entries_adopted).toBe(1);
    expect(adopted.filter((sha, i) => sha === original[i]).length).toBe(adopted.length);
  });

  it('goes on without a remote that fails or does not answer: one notice, the render completes', async () => {
    const url = s3.freshUrl('down');
    const failing = await machine(url);
    failing.store.inject({ kind: 'fail', status: 503 });
    const before = submissions();
    const manifest = await render(failing);
    expect(manifest.shot_count).toBe(2);
    expect(submissions()).toBeGreaterThan(before);
    expect(failing.notices().filter((m) => m.includes('is unavailable'))).toHaveLength(1);
    expect(failing.remote.unavailableBecause).toContain('HTTP 503');

    const slow = await machine(url, { callMs: 300 });
    slow.store.inject({ kind: 'hang' });
    const started = failing.store.calls.length;
    await render(slow);
    expect(slow.notices().filter((m) => m.includes('is unavailable') && m.includes('no answer in time'))).toHaveLength(1);
    // Once unavailable, the remote is left alone for the rest of the run.
    expect(slow.store.calls.length).toBeLessThan(5);
    expect(started).toBeGreaterThan(0);
  });

  it('writes no secret to the bucket: neither the AWS secret key nor the fal key, and no local path', async () => {
    const url = s3.freshUrl('secrets');
    const a = await machine(url);
    await render(a);
    if (!s3.inProcess) return;
    for (const file of everyFile(s3.directory!)) {
      const text = readFileSync(file).toString('latin1');
      expect(text).not.toContain(TEST_AWS_SECRET);
      expect(text).not.toContain(FAL_KEY.split(':')[1]);
      expect(text).not.toContain(scratch);
    }
  });
});
