import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { withCredentials } from '../../src/render/credentials.js';
import type { RenderEvent } from '../../src/render/events.js';
import { renderBeat, type BeatResult } from '../../src/render/render-beat.js';
import { renderShot, type ClipShotResult } from '../../src/render/render-shot.js';
import { renderEnv, type RenderEnv } from '../support/render-env.js';

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('durable assets', () => {
  let env: RenderEnv;
  beforeEach(async () => {
    env = await renderEnv();
  });
  afterEach(() => env.close());

  const beat = { id: 'b1', speaker: 'Maren', line: 'Forty years I have kept this light.' };
  const maren = { name: 'Maren', reference_image_url: 'https://example.com/maren.png', voice: { voice_id: 'Dorothy' } };
  const opts = (extra: Record<string, unknown> = {}) => ({ ...env.opts, durableAssets: true, ...extra });
  const inScope = <T>(fn: () => Promise<T>) => withCredentials({ falKey: 'k' }, fn);

  it('keeps a content-addressed copy of every asset and records its hash and path beside each url', async () => {
    const result = (await inScope(() => renderBeat(beat, maren, opts()))) as BeatResult;
    for (const [url, hash, path] of [
      ['url', 'sha256', 'path'],
      ['audio_url', 'audio_sha256', 'audio_path'],
      ['video_url', 'video_sha256', 'video_path'],
    ] as const) {
      expect(sha(result[path]!)).toBe(result[hash]);
      expect(readFileSync(result[path]!).equals(env.fal.fileBytes(result[url])!)).toBe(true);
      expect(result[path]).toContain(`${env.cacheDir}/assets/`);
    }
    // The audio was downloaded once, for the content key of the talking-video call and the copy alike.
    expect(env.fal.requests.filter((r) => r.phase === 'asset')).toHaveLength(2);
  });

  it('serves a cached unit from its local copies when the URLs have expired', async () => {
    const first = (await inScope(() => renderShot({ id: 's1', description: 'the lens' }, opts({ asVideo: true })))) as ClipShotResult;
    env.fal.inject({ phase: 'asset', status: 404, times: 100 });
    const again = await inScope(() => renderShot({ id: 's1', description: 'the lens' }, opts({ asVideo: true })));
    expect(again).toEqual({ ...first, cache_hit: true });
    expect(existsSync(first.still_path!)).toBe(true);
  });

  it('downloads a missing local copy again while its URL still works', async () => {
    const first = (await inScope(() => renderBeat(beat, maren, opts()))) as BeatResult;
    rmSync(first.audio_path!);
    const calls = env.fal.submissions().length;
    const again = (await inScope(() => renderBeat(beat, maren, opts()))) as BeatResult;
    expect(again.cache_hit).toBe(true);
    expect(existsSync(again.audio_path!)).toBe(true);
    expect(env.fal.submissions()).toHaveLength(calls);
  });

  it('renders a unit again, with a notice, when its URL has expired and its copy is gone', async () => {
    const first = (await inScope(() => renderBeat(beat, maren, opts()))) as BeatResult;
    rmSync(first.video_path!);
    env.fal.inject({ phase: 'asset', status: 404, times: 1 });
    const events: RenderEvent[] = [];
    const calls = env.fal.submissions().length;
    const again = (await inScope(() => renderBeat(beat, maren, opts({ onEvent: (e: RenderEvent) => events.push(e) })))) as BeatResult;
    expect(again.cache_hit).toBe(false);
    expect(existsSync(again.video_path!)).toBe(true);
    expect(events.find((e) => e.type === 'notice')?.message).toContain('beat b1: the cached media are gone');
    expect(env.fal.submissions().length).toBe(calls + 2);
  });

  it('adds nothing when durable assets are off (the library default)', async () => {
    const result = await inScope(() => renderBeat(beat, maren, env.opts));
    expect(Object.keys(result)).toEqual(['url', 'video_url', 'audio_url', 'hash', 'beat_id', 'speaker', 'cache_hit']);
  });
});
