import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CACHE_FILE_NAME } from '../../src/render/cache.js';
import { withCredentials } from '../../src/render/credentials.js';
import { RenderProducedNoAssetError } from '../../src/render/errors.js';
import type { RenderEvent } from '../../src/render/events.js';
import type { Provider } from '../../src/render/providers/provider.js';
import { renderBeat } from '../../src/render/render-beat.js';
import type { BeatInput, CharacterInput } from '../../src/render/scene.js';
import { renderEnv, type RenderEnv } from '../support/render-env.js';

let env: RenderEnv;
beforeEach(async () => {
  env = await renderEnv();
});
afterEach(() => env.close());

const sarah: CharacterInput = { name: 'Sarah', reference_image_url: 'https://example.com/sarah.png', voice: { voice_id: 'Rachel' } };
const beat: BeatInput = { id: 'b1', speaker: 'Sarah', line: 'Why are you here?', emotion: 'wary' };
const render = (b: BeatInput, c: CharacterInput, opts: object = {}) => withCredentials({ falKey: 'k' }, () => renderBeat(b, c, { ...env.opts, ...opts }));
const models = () => env.fal.submissions().map((s) => s.model_id);
const notes = () => {
  if (!existsSync(join(env.cacheDir, CACHE_FILE_NAME))) return [];
  const db = new Database(join(env.cacheDir, CACHE_FILE_NAME), { readonly: true });
  try {
    return db.prepare('SELECT namespace, note FROM units').all();
  } finally {
    db.close();
  }
};

describe('renderBeat', () => {
  it('returns the empty-beat result for a beat with neither line nor action, and caches nothing', async () => {
    const result = await render({ id: 'e', speaker: 'Sarah' }, sarah);
    expect(result).toEqual({ url: '', cache_hit: false, hash: '', skipped: 'empty beat (no line, no action)' });
    expect(env.fal.requests).toHaveLength(0);
    expect(notes()).toEqual([]);
  });

  it('speaks the line, animates the face with that audio, and returns the beat result', async () => {
    const result = await render(beat, sarah);
    expect(Object.keys(result)).toEqual(['url', 'video_url', 'audio_url', 'hash', 'beat_id', 'speaker', 'cache_hit']);
    const [tts, avatar] = env.fal.submissions();
    expect(tts.model_id).toBe('fal-ai/elevenlabs/tts/multilingual-v2');
    expect(tts.args).toEqual({ text: 'Why are you here?', voice: 'Rachel' });
    expect(avatar.model_id).toBe('fal-ai/bytedance/omnihuman/v1.5');
    expect(avatar.args).toEqual({ image_url: 'https://example.com/sarah.png', audio_url: (result as { audio_url: string }).audio_url, prompt: 'wary' });
    expect(result).toMatchObject({ beat_id: 'b1', speaker: 'Sarah', cache_hit: false });
    const r = result as { url: string; video_url: string; audio_url: string; hash: string };
    expect(r.url).toBe(r.video_url);
    expect(r.video_url).toMatch(/video\.mp4$/);
    expect(r.audio_url).toMatch(/speech\.mp3$/);
    expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(notes()).toEqual([{ namespace: 'render_beat', note: 'beat:b1' }]);
  });

  it('serves an unchanged beat from the cache with no model call', async () => {
    const first = await render(beat, sarah);
    const calls = env.fal.requests.length;
    const second = await render(beat, sarah);
    expect(second).toEqual({ ...first, cache_hit: true });
    expect(env.fal.requests).toHaveLength(calls);
  });

  it('with force, bypasses the cache and makes every model call again', async () => {
    await render(beat, sarah);
    const seen: boolean[] = [];
    const spy: Provider = {
      name: env.provider.name,
      run: (m, a, o) => {
        seen.push(o?.force ?? false);
        return env.provider.run(m, a, o);
      },
      fetchAsset: (u, o) => env.provider.fetchAsset(u, o),
    };
    const forced = await render(beat, sarah, { force: true, provider: spy });
    expect(forced.cache_hit).toBe(false);
    expect(seen).toEqual([true, true]);
    expect(models()).toHaveLength(4);
  });

  it('carries the current beat\'s id and speaker on a result another beat stored', async () => {
    await render(beat, sarah);
    const twin = await render({ ...beat, id: 'b9', speaker: 'Sarah' }, sarah);
    expect(twin).toMatchObject({ beat_id: 'b9', speaker: 'Sarah', cache_hit: true });
  });

  it('chooses the speech model by override, then voice model, then voice clone, then tts tier', async () => {
    await render(beat, sarah, { ttsModelId: 'minimax-tts' });
    await render(beat, { ...sarah, voice: { voice_id: 'Rachel', model_id: 'someone/custom-tts' } });
    await render(beat, { ...sarah, voice: { reference_audio_url: 'https://example.com/ref.mp3' } });
    await render(beat, { ...sarah, voice: null }, { ttsQuality: 'fast' });
    expect(models().filter((m) => !m.includes('omnihuman'))).toEqual([
      'fal-ai/minimax/speech-02-hd',
      'someone/custom-tts',
      'fal-ai/minimax/voice-clone',
      'fal-ai/elevenlabs/tts/multilingual-v2',
    ]);
  });

  it('passes reference_audio_url and voice to speech when the voice has them, and only the text otherwise', async () => {
    await render(beat, { ...sarah, voice: { reference_audio_url: 'https://example.com/ref.mp3', voice_id: 'v7' } });
    await render({ ...beat, line: 'other' }, { ...sarah, voice: null });
    const speech = env.fal.submissions().filter((s) => 'text' in s.args).map((s) => s.args);
    expect(speech).toEqual([
      { text: 'Why are you here?', reference_audio_url: 'https://example.com/ref.mp3', voice: 'v7' },
      { text: 'other' },
    ]);
  });

  it('fails with the documented message when speech yields no asset', async () => {
    env.fal.setOutcome((_m, args) => ('text' in args ? { output: { audio: null } } : undefined));
    const error = await render(beat, sarah).catch((e) => e);
    expect(error).toBeInstanceOf(RenderProducedNoAssetError);
    expect(error.message).toBe('render_beat: TTS produced no asset for beat b1');
    expect(notes()).toEqual([]);
  });

  it('chooses the talking-video model by override, else the avatar tier lipsyncQuality', async () => {
    await render(beat, sarah, { avatarModelId: 'someone/avatar' });
    await render(beat, sarah, { lipsyncQuality: 'balanced' });
    expect(models().filter((m) => !m.includes('tts'))).toEqual(['someone/avatar', 'fal-ai/ai-avatar']);
  });

  it('prompts the talking video with the emotion, else the action, else natural delivery', async () => {
    await render({ id: 'a', speaker: 'Sarah', line: 'one', emotion: 'angry', action: 'shouts' }, sarah);
    await render({ id: 'b', speaker: 'Sarah', line: 'two', action: 'shrugs' }, sarah);
    await render({ id: 'c', speaker: 'Sarah', line: 'three' }, sarah);
    const prompts = env.fal.submissions().filter((s) => 'prompt' in s.args).map((s) => s.args.prompt);
    expect(prompts).toEqual(['angry', 'shrugs', 'natural delivery']);
  });

  it('does not fail when the talking video yields no asset: url falls back to the audio', async () => {
    env.fal.setOutcome((_m, args) => ('audio_url' in args ? { output: {} } : undefined));
    const result = (await render(beat, sarah)) as { url: string; video_url: string; audio_url: string };
    expect(result.video_url).toBe('');
    expect(result.url).toBe(result.audio_url);
  });

  it('renders only speech for a speaker without a face', async () => {
    const result = (await render(beat, { name: 'Sarah', voice: { voice_id: 'Rachel' } })) as { url: string; video_url: string; audio_url: string };
    expect(models()).toEqual(['fal-ai/elevenlabs/tts/multilingual-v2']);
    expect(result.video_url).toBe('');
    expect(result.url).toBe(result.audio_url);
  });

  it('stores an action-only beat with empty urls and calls nothing', async () => {
    const result = await render({ id: 'act', speaker: 'Sarah', action: 'turns away' }, sarah);
    expect(result).toMatchObject({ url: '', video_url: '', audio_url: '', beat_id: 'act', cache_hit: false });
    expect(env.fal.requests).toHaveLength(0);
    expect((await render({ id: 'act', speaker: 'Sarah', action: 'turns away' }, sarah)).cache_hit).toBe(true);
    expect(notes()).toEqual([{ namespace: 'render_beat', note: 'beat:act' }]);
  });

  it('reports model progress and cache hits to onEvent, tagged with the unit', async () => {
    const events: RenderEvent[] = [];
    await render(beat, sarah, { onEvent: (e: RenderEvent) => events.push(e) });
    expect(events.filter((e) => e.type === 'done').map((e) => e.model_id)).toEqual(['fal-ai/elevenlabs/tts/multilingual-v2', 'fal-ai/bytedance/omnihuman/v1.5']);
    expect(events.every((e) => e.unit?.kind === 'beat' && e.unit.id === 'b1')).toBe(true);
    events.length = 0;
    await render(beat, sarah, { onEvent: (e: RenderEvent) => events.push(e) });
    expect(events).toEqual([{ type: 'cache_hit', whole_unit: true, tier: 'local', unit: { kind: 'beat', id: 'b1' } }]);
  });
});
