import { withCredentials } from '../../src/render/credentials.js';
import { RenderProducedNoAssetError } from '../../src/render/errors.js';
import { renderShot, shotPrompt } from '../../src/render/render-shot.js';
import { toCharacter, toEnvironment, toShot, type ShotInput } from '../../src/render/scene.js';
import { renderEnv, type RenderEnv } from '../support/render-env.js';

let env: RenderEnv;
beforeEach(async () => {
  env = await renderEnv();
});
afterEach(() => env.close());

const shot: ShotInput = { id: 's1', description: 'two-shot at the booth', framing: 'medium', camera: 'slow push-in', characters: ['Sarah', 'Tom'] };
const diner = { name: 'diner', description: '1950s diner', time_of_day: 'midnight' };
const cast = [{ name: 'Sarah', description: 'mid-30s' }, { name: 'Tom' }];
const render = (s: ShotInput, opts: object = {}) => withCredentials({ falKey: 'k' }, () => renderShot(s, { ...env.opts, ...opts }));

describe('the shot prompt', () => {
  it('joins description, framing, location, time, character descriptions, camera and style with " | "', () => {
    expect(shotPrompt(toShot(shot), toEnvironment(diner), cast.map(toCharacter), 'pastel')).toBe(
      'two-shot at the booth | framing: medium | location: 1950s diner | time: midnight | Sarah: mid-30s | camera: slow push-in | style: pastel',
    );
  });

  it('uses the word shot for an empty description and leaves out what is not set', () => {
    expect(shotPrompt(toShot({ id: 's0' }), undefined, [], '')).toBe('shot | framing: medium');
    expect(shotPrompt(toShot({ id: 's0', framing: 'wide' }), toEnvironment({ name: 'e' }), [], '')).toBe('shot | framing: wide | location: ');
  });
});

describe('renderShot', () => {
  it('generates a landscape 16:9 still with the balanced image model and returns the still result', async () => {
    const result = await render(shot, { environment: diner, characters: cast, style: 'pastel' });
    expect(Object.keys(result)).toEqual(['url', 'kind', 'hash', 'shot_id', 'cache_hit']);
    expect(result).toMatchObject({ kind: 'image', shot_id: 's1', cache_hit: false });
    expect(result.hash).toMatch(/^[0-9a-f]{64}-i$/);
    const [call] = env.fal.submissions();
    expect(call.model_id).toBe('fal-ai/flux/dev');
    expect(call.args).toEqual({
      prompt: 'two-shot at the booth | framing: medium | location: 1950s diner | time: midnight | Sarah: mid-30s | camera: slow push-in | style: pastel',
      image_size: 'landscape_16_9',
    });
  });

  it('uses imageModelId, else the image model at the quality tier', async () => {
    await render(shot, { imageModelId: 'flux-schnell' });
    await render(shot, { quality: 'high' });
    expect(env.fal.submissions().map((s) => s.model_id)).toEqual(['fal-ai/flux/schnell', 'fal-ai/flux-pro/v1.1']);
  });

  it('makes a clip from the still with the camera as prompt when asVideo', async () => {
    const result = await render(shot, { asVideo: true });
    expect(Object.keys(result)).toEqual(['url', 'kind', 'still_url', 'video_url', 'hash', 'shot_id', 'cache_hit']);
    const [still, clip] = env.fal.submissions();
    expect(clip.model_id).toBe('fal-ai/minimax/hailuo-02/pro/image-to-video');
    expect(clip.args).toEqual({ image_url: (result as { still_url: string }).still_url, prompt: 'slow push-in' });
    expect(still.model_id).toBe('fal-ai/flux/dev');
    expect(result.hash).toMatch(/-v$/);
    expect(result.url).toBe((result as { video_url: string }).video_url);
  });

  it('sends no clip prompt without a camera, and honours imageToVideoModelId and quality', async () => {
    await render({ id: 's2' }, { asVideo: true, imageToVideoModelId: 'someone/i2v' });
    await render({ id: 's3', description: 'x' }, { asVideo: true, quality: 'ultra' });
    const clips = env.fal.submissions().filter((s) => 'image_url' in s.args);
    expect(clips.map((c) => [c.model_id, Object.keys(c.args)])).toEqual([
      ['someone/i2v', ['image_url']],
      ['fal-ai/kling-video/v2.1/master/image-to-video', ['image_url']],
    ]);
  });

  it('falls back to the still when the clip yields no asset', async () => {
    env.fal.setOutcome((_m, args) => ('image_url' in args ? { output: { video: {} } } : undefined));
    const result = (await render(shot, { asVideo: true })) as { url: string; still_url: string; video_url: string };
    expect(result.video_url).toBe('');
    expect(result.url).toBe(result.still_url);
  });

  it('fails with the documented message when the still yields no asset', async () => {
    env.fal.setOutcome(() => ({ output: { images: [] } }));
    const error = await render(shot).catch((e) => e);
    expect(error).toBeInstanceOf(RenderProducedNoAssetError);
    expect(error.message).toBe('render_shot: image generation produced no asset for s1');
  });

  it('serves an unchanged shot from the cache, and keeps stills and clips apart', async () => {
    const still = await render(shot);
    expect(await render(shot)).toEqual({ ...still, cache_hit: true });
    expect(env.fal.submissions()).toHaveLength(1);
    const clip = await render(shot, { asVideo: true });
    expect(clip.cache_hit).toBe(false);
    // The clip reuses the still call (same prompt): only the image-to-video call is new.
    expect(env.fal.submissions().map((s) => s.model_id)).toEqual(['fal-ai/flux/dev', 'fal-ai/minimax/hailuo-02/pro/image-to-video']);
  });

  it('keys the cache by (hash, quality): another quality is another unit', async () => {
    await render(shot, { imageModelId: 'fal-ai/flux/dev' });
    const other = await render(shot, { imageModelId: 'fal-ai/flux/dev', quality: 'high' });
    expect(other.cache_hit).toBe(false);
  });

  it('with force, renders again and refreshes the model calls', async () => {
    await render(shot);
    expect((await render(shot, { force: true })).cache_hit).toBe(false);
    expect(env.fal.submissions()).toHaveLength(2);
  });

  it('carries the current shot id on a result another shot stored', async () => {
    await render(shot);
    expect(await render({ ...shot, id: 'copy' })).toMatchObject({ shot_id: 'copy', cache_hit: true });
  });
});
