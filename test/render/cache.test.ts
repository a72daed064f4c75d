import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { CACHE_FILE_NAME, defaultCacheDir, openRenderCache, RenderCache } from '../../src/render/cache.js';
import { withCredentials } from '../../src/render/credentials.js';
import { FalServerError } from '../../src/render/providers/fal/errors.js';
import { beatHash, shotHash } from '../../src/render/hashing.js';
import { FalProvider } from '../../src/render/providers/fal/fal-provider.js';
import type { Provider } from '../../src/render/providers/provider.js';
import { renderBeat, type RenderBeatOptions } from '../../src/render/render-beat.js';
import { renderShot, type RenderShotOptions } from '../../src/render/render-shot.js';
import { toBeat, toCharacter, toShot, type BeatInput, type CharacterInput, type ShotInput } from '../../src/render/scene.js';
import { renderEnv, type RenderEnv } from '../support/render-env.js';

let env: RenderEnv;
beforeEach(async () => {
  env = await renderEnv();
});
afterEach(() => env.close());

const KEY = 'sk-very-secret-key-0123456789';
const face = 'https://example.com/sarah.png';
const beat: BeatInput = { id: 'b1', speaker: 'Sarah', line: 'Hello.', emotion: 'wary', action: 'leans in' };
const sarah: CharacterInput = { name: 'Sarah', description: 'mid-30s', reference_image_url: face, voice: { voice_id: 'Rachel' } };
const shot: ShotInput = { id: 's1', description: 'booth', framing: 'medium', camera: 'static', characters: ['Sarah'] };
const beatAgain = (b: BeatInput, c: CharacterInput, o: RenderBeatOptions = {}) => withCredentials({ falKey: KEY }, () => renderBeat(b, c, { ...env.opts, ...o }));
const shotAgain = (s: ShotInput, o: RenderShotOptions = {}) => withCredentials({ falKey: KEY }, () => renderShot(s, { ...env.opts, ...o }));

/** A provider with another name over the same fake: as the local provider would be. */
function renamed(name: string, inner: Provider): Provider {
  return { name, run: (m, a, o) => inner.run(m, a, o), fetchAsset: (u, o) => inner.fetchAsset(u, o) };
}

describe('unit cache invalidation', () => {
  const beatChanges: Array<[string, BeatInput, CharacterInput, RenderBeatOptions]> = [
    ['the line', { ...beat, line: 'Goodbye.' }, sarah, {}],
    ['the action', { ...beat, action: 'sits' }, sarah, {}],
    ['the emotion', { ...beat, emotion: 'calm' }, sarah, {}],
    ['the duration', { ...beat, duration_s: 2.5 }, sarah, {}],
    ['the face', beat, { ...sarah, reference_image_url: 'https://example.com/other.png' }, {}],
    ['the voice id', beat, { ...sarah, voice: { voice_id: 'Adam' } }, {}],
    ['the voice model', beat, { ...sarah, voice: { voice_id: 'Rachel', model_id: 'minimax-tts' } }, {}],
    ['the voice sample', beat, { ...sarah, voice: { voice_id: 'Rachel', reference_audio_url: 'https://example.com/s.mp3' } }, {}],
    ['the lipsync quality', beat, sarah, { lipsyncQuality: 'balanced' }],
    ['the speech model override', beat, sarah, { ttsModelId: 'fal-ai/minimax/speech-02-hd' }],
    ['the avatar model override', beat, sarah, { avatarModelId: 'fal-ai/ai-avatar' }],
    ['the provider', beat, sarah, { provider: renamed('other', new FalProvider()) }],
  ];

  it.each(beatChanges)('re-renders a beat when %s changes', async (_what, b, c, o) => {
    await beatAgain(beat, sarah);
    const provider = o.provider ? renamed(o.provider.name, env.provider) : env.provider;
    const changed = await beatAgain(b, c, { ...o, provider });
    expect(changed.cache_hit).toBe(false);
    expect((await beatAgain(beat, sarah)).cache_hit).toBe(true);
  });

  it('serves a beat from the cache when only its id, speaker name or notes change', async () => {
    await beatAgain(beat, sarah);
    expect((await beatAgain({ ...beat, id: 'x', notes: 'n' }, { ...sarah, name: 'Sally', style_notes: 's' })).cache_hit).toBe(true);
  });

  it('serves a beat from the cache for a tts quality that resolves to the same model', async () => {
    await beatAgain(beat, sarah);
    expect((await beatAgain(beat, sarah, { ttsQuality: 'high' })).cache_hit).toBe(true);
  });

  const shotChanges: Array<[string, ShotInput, RenderShotOptions]> = [
    ['the description', { ...shot, description: 'counter' }, {}],
    ['the framing', { ...shot, framing: 'wide' }, {}],
    ['the camera', { ...shot, camera: 'pan' }, {}],
    ['a character description', shot, { characters: [{ name: 'Sarah', description: 'older' }] }],
    ['the environment description', shot, { environment: { name: 'diner', description: 'a bar' } }],
    ['the time of day', shot, { environment: { name: 'diner', description: '1950s diner', time_of_day: 'dawn' } }],
    ['the environment reference image', shot, { environment: { name: 'diner', description: '1950s diner', reference_image_url: 'https://e/x.png' } }],
    ['the style', shot, { style: 'noir' }],
    ['the quality', shot, { quality: 'high' }],
    ['the image model', shot, { imageModelId: 'fal-ai/ideogram/v3' }],
    ['still vs clip', shot, { asVideo: true }],
  ];

  it.each(shotChanges)('re-renders a shot when %s changes', async (_what, s, o) => {
    const base: RenderShotOptions = { characters: [{ name: 'Sarah', description: 'mid-30s' }], environment: { name: 'diner', description: '1950s diner' } };
    await shotAgain(shot, base);
    expect((await shotAgain(s, { ...base, ...o })).cache_hit).toBe(false);
    expect((await shotAgain(shot, base)).cache_hit).toBe(true);
  });

  it('re-renders a clip when the image-to-video model changes', async () => {
    await shotAgain(shot, { asVideo: true });
    expect((await shotAgain(shot, { asVideo: true, imageToVideoModelId: 'fal-ai/pixverse/v4.5/image-to-video' })).cache_hit).toBe(false);
  });

  it('hashes change with the line and never with the id (property)', () => {
    const models = { provider: 'fal', tts: 't', avatar: 'a' };
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (line, other, id1, id2) => {
        const c = toCharacter(sarah);
        const a = beatHash(toBeat({ id: id1, line }), c, models);
        expect(beatHash(toBeat({ id: id2, line }), c, models)).toBe(a);
        if (other !== line) expect(beatHash(toBeat({ id: id1, line: other }), c, models)).not.toBe(a);
      }),
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), (d1, d2) => {
        const m = { provider: 'fal', image: 'i', image_to_video: null };
        const h1 = shotHash(toShot({ id: 'a', description: d1 }), undefined, [], '', false, m);
        const h2 = shotHash(toShot({ id: 'b', description: d2 }), undefined, [], '', false, m);
        expect(h1 === h2).toBe(d1 === d2);
      }),
    );
  });
});

describe('the model call cache', () => {
  it('reuses a call whose inputs did not change when a unit re-renders', async () => {
    await beatAgain(beat, sarah);
    // Another emotion changes only the talking-video prompt: speech is served from the call cache.
    await beatAgain({ ...beat, emotion: 'calm' }, sarah);
    expect(env.fal.submissions().map((s) => s.model_id)).toEqual([
      'fal-ai/elevenlabs/tts/multilingual-v2',
      'fal-ai/bytedance/omnihuman/v1.5',
      'fal-ai/bytedance/omnihuman/v1.5',
    ]);
  });

  it('keys a call on the content of an earlier output, not its URL', async () => {
    await beatAgain(beat, sarah);
    // Another speech model produces identical bytes at a fresh URL: the talking video is not paid again.
    await beatAgain(beat, sarah, { ttsModelId: 'fal-ai/minimax/speech-02-hd' });
    const calls = env.fal.submissions();
    expect(calls.map((s) => s.model_id)).toEqual([
      'fal-ai/elevenlabs/tts/multilingual-v2',
      'fal-ai/bytedance/omnihuman/v1.5',
      'fal-ai/minimax/speech-02-hd',
    ]);
    const downloads = env.fal.requests.filter((r) => r.phase === 'asset');
    expect(downloads).toHaveLength(2);
  });

  it('keys a clip on the content of its still', async () => {
    await shotAgain(shot, { asVideo: true });
    await shotAgain(shot, { asVideo: true, imageModelId: 'fal-ai/ideogram/v3' });
    expect(env.fal.submissions().map((s) => s.model_id)).toEqual(['fal-ai/flux/dev', 'fal-ai/minimax/hailuo-02/pro/image-to-video', 'fal-ai/ideogram/v3']);
  });

  it('resumes an interrupted render by fetching the submitted request instead of paying twice', async () => {
    const fragile = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 2, maxRetries: 1 });
    env.fal.inject({ phase: 'status', status: 503, times: 100 });
    const error = await shotAgain(shot, { provider: fragile }).catch((e) => e);
    expect(error).toBeInstanceOf(FalServerError);
    expect(env.fal.submissions()).toHaveLength(1);
    const requestId = env.fal.submissions()[0].request_id;
    env.fal.reset();
    const result = await shotAgain(shot);
    expect(result.cache_hit).toBe(false);
    expect(env.fal.submissions()).toHaveLength(0);
    expect(env.fal.requests.filter((r) => r.phase === 'result').map((r) => r.request_id)).toEqual([requestId]);
    const db = new Database(join(env.cacheDir, CACHE_FILE_NAME), { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM pending_requests').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT request_id FROM calls').all()).toEqual([{ request_id: requestId }]);
    db.close();
  });

  it('submits again with force even when a request is pending', async () => {
    const fragile = new FalProvider({ baseUrl: env.fal.url, pollIntervalMs: 2, retryBaseMs: 1, retryMaxMs: 2, maxRetries: 0 });
    env.fal.inject({ phase: 'status', status: 503 });
    await shotAgain(shot, { provider: fragile }).catch(() => undefined);
    await shotAgain(shot, { force: true });
    expect(env.fal.submissions()).toHaveLength(2);
  });

  it('never writes the API key into the cache', async () => {
    await beatAgain(beat, sarah);
    await shotAgain(shot, { asVideo: true });
    for (const file of readdirSync(env.cacheDir)) {
      expect(readFileSync(join(env.cacheDir, file)).includes(KEY)).toBe(false);
    }
  });
});

describe('the cache file', () => {
  it('lives in ANNOT_CACHE_DIR, else $XDG_CACHE_HOME/annot, else ~/.cache/annot', () => {
    const saved = { a: process.env.ANNOT_CACHE_DIR, x: process.env.XDG_CACHE_HOME };
    try {
      process.env.ANNOT_CACHE_DIR = '/tmp/annot-a';
      process.env.XDG_CACHE_HOME = '/tmp/xdg';
      expect(defaultCacheDir()).toBe('/tmp/annot-a');
      delete process.env.ANNOT_CACHE_DIR;
      expect(defaultCacheDir()).toBe('/tmp/xdg/annot');
      delete process.env.XDG_CACHE_HOME;
      expect(defaultCacheDir()).toBe(join(homedir(), '.cache', 'annot'));
    } finally {
      for (const [k, v] of [['ANNOT_CACHE_DIR', saved.a], ['XDG_CACHE_HOME', saved.x]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('stores unit results with their note and time', () => {
    const cache = openRenderCache(env.cacheDir);
    const before = Date.now() / 1000;
    cache.putUnit('render_beat', 'h', { url: 'u' }, 'beat:b1');
    const stored = cache.getUnit('render_beat', 'h')!;
    expect(stored.result).toEqual({ url: 'u' });
    expect(stored.note).toBe('beat:b1');
    expect(stored.stored_at).toBeGreaterThanOrEqual(before - 1);
  });

  it('stays whole when another process writes to it at the same time', async () => {
    const cache = new RenderCache(env.cacheDir);
    const script = `
      const Database = require(${JSON.stringify(require_resolve('better-sqlite3'))});
      const db = new Database(${JSON.stringify(join(env.cacheDir, CACHE_FILE_NAME))});
      db.pragma('busy_timeout = 10000');
      const put = db.prepare('INSERT OR REPLACE INTO units (namespace, key, result, note, stored_at) VALUES (?, ?, ?, ?, ?)');
      for (let i = 0; i < 300; i++) put.run('render_shot', 'child-' + i, '{}', 'shot:c' + i, Date.now() / 1000);
      db.close();`;
    const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    for (let i = 0; i < 300; i++) {
      cache.putUnit('render_beat', `parent-${i}`, { i }, `beat:p${i}`);
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(cache.getUnit('render_beat', 'parent-299')!.result).toEqual({ i: 299 });
    expect(cache.getUnit('render_shot', 'child-299')!.note).toBe('shot:c299');
    cache.close();
  });
});

function require_resolve(name: string): string {
  return join(process.cwd(), 'node_modules', name);
}
