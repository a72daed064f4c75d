import { join } from 'node:path';
import { defaultCacheDir } from '../../src/render/cache.js';
import { withCredentials } from '../../src/render/credentials.js';
import { RenderAbortedError } from '../../src/render/errors.js';
import type { RenderEvent } from '../../src/render/events.js';
import { manifestPathFor } from '../../src/render/manifest.js';
import { iterRenderScene, renderScene, SceneRenderError, type RenderSceneOptions, type SceneUnitResult } from '../../src/render/render-scene.js';
import { loadSceneFile, type Scene, type SceneInput } from '../../src/render/scene.js';
import { renderEnv, withEnvKey, type RenderEnv } from '../support/render-env.js';
import { eventually } from '../support/serve-cli.js';

let env: RenderEnv;
let diner: Scene;
beforeAll(async () => {
  diner = await loadSceneFile(join(process.cwd(), 'fixtures/scenes/diner.yaml'));
});
beforeEach(async () => {
  env = await renderEnv();
});
afterEach(() => env.close());

/**
 * Holds every still (a flux model) in flight until the returned release is called, so a test
 * decides which units finish first instead of relying on latencies the machine might not keep.
 */
function holdStills(): () => void {
  env.fal.setLatency((model) => (model.includes('flux') ? 3_600_000 : 0));
  return () => {
    env.fal.setLatency(0);
    env.fal.completeRunning();
  };
}

/** True once the result of a request whose submission matches was fetched from the fake fal. */
function collected(matches: (model: string, args: Record<string, unknown>) => boolean): boolean {
  const ids = new Set(env.fal.submissions().filter((s) => matches(s.model_id, s.args)).map((s) => s.request_id));
  return env.fal.requests.some((r) => r.phase === 'result' && r.request_id !== undefined && ids.has(r.request_id));
}

const scene = (opts: RenderSceneOptions = {}, s: Scene | SceneInput = diner) => withCredentials({ falKey: 'k' }, () => renderScene(s, { ...env.opts, ...opts }));
async function collect(it: AsyncIterable<SceneUnitResult>): Promise<SceneUnitResult[]> {
  const out: SceneUnitResult[] = [];
  for await (const item of it) out.push(item);
  return out;
}
const ids = (items: SceneUnitResult[]) => items.map(({ kind, id }) => `${kind}:${id}`);

describe('renderScene', () => {
  it('renders every shot and beat and returns the manifest with its counts', async () => {
    const manifest = await scene();
    expect(Object.keys(manifest)).toEqual(['title', 'style', 'shot_count', 'beat_count', 'cache_hits', 'shots', 'beats']);
    expect(manifest).toMatchObject({ title: 'Night at the Diner', style: 'pastel film noir', shot_count: 2, beat_count: 6, cache_hits: 0 });
    expect(manifest.beats[4]).toEqual({ url: '', cache_hit: false, hash: '', skipped: 'empty beat (no line, no action)' });
    expect(manifest.beats[5]).toEqual({ beat_id: 'b6', skipped: 'no character', speaker: 'Waiter', cache_hit: false });
    const again = await scene();
    // Skipped beats count as not hit: 2 shots + 4 rendered beats.
    expect(again.cache_hits).toBe(6);
  });

  it('passes each shot its environment, its known characters, the style and the shot quality', async () => {
    await scene({ shotQuality: 'high' });
    const stills = env.fal.submissions().filter((s) => s.args.image_size === 'landscape_16_9');
    expect(stills.map((s) => s.model_id)).toEqual(['fal-ai/flux-pro/v1.1', 'fal-ai/flux-pro/v1.1']);
    expect(stills[0].args.prompt).toBe(
      'two-shot at the counter | framing: medium | location: 1950s roadside diner, chrome counter, rain on the windows | time: midnight | ' +
        'Sarah: mid-30s, tired waitress in a pink uniform | Tom: late-40s trucker in a denim jacket | camera: slow push-in | style: pastel film noir',
    );
  });

  it('leaves out characters and environments the scene does not have', async () => {
    await scene({}, { title: 't', characters: [{ name: 'A', description: 'tall' }], shots: [{ id: 's', characters: ['A', 'Ghost'], environment: 'moon' }] });
    expect(env.fal.submissions()[0].args.prompt).toBe('shot | framing: medium | A: tall');
  });

  it('maps shotsAsVideo to clips and passes the tts and lipsync qualities to beats', async () => {
    const manifest = await scene({ shotsAsVideo: true, lipsyncQuality: 'balanced' });
    expect(manifest.shots.every((s) => s.kind === 'video')).toBe(true);
    expect(env.fal.submissions().filter((s) => s.model_id === 'fal-ai/ai-avatar')).toHaveLength(2);
  });

  it('with concurrency 1 or less, renders serially: all shots, then all beats, in scene order', async () => {
    env.fal.setLatency((model) => (model.includes('flux') ? 40 : 0));
    for (const concurrency of [1, 0, -3]) {
      const items = await withCredentials({ falKey: 'k' }, () => collect(iterRenderScene(diner, { ...env.opts, concurrency, force: true })));
      expect(ids(items)).toEqual(['shot:s1', 'shot:s2', 'beat:b1', 'beat:b2', 'beat:b3', 'beat:b4', 'beat:b5', 'beat:b6']);
      expect(items.map(({ index }) => index)).toEqual([0, 1, 0, 1, 2, 3, 4, 5]);
      // The empty beat's result is the description's, without an id: the unit carries it.
      expect(items[6].result).not.toHaveProperty('beat_id');
    }
  });

  it('with concurrency above 1, runs that many units at once and yields in completion order', async () => {
    // The stills stay in flight until the first unit is yielded: the beat that started beside them.
    const release = holdStills();
    const items = await withCredentials({ falKey: 'k' }, async () => {
      const yielded = [];
      for await (const item of iterRenderScene(diner, { ...env.opts, concurrency: 3 })) if (yielded.push(item) === 1) release();
      return yielded;
    });
    expect(items).toHaveLength(8);
    // The slow stills finish after the beats that started beside them.
    expect(ids(items).indexOf('shot:s1')).toBeGreaterThan(ids(items).indexOf('beat:b1'));
    expect(env.fal.maxInFlight).toBeLessThanOrEqual(3);
    expect(env.fal.maxInFlight).toBeGreaterThan(1);
  });

  it('keeps the manifest in scene order even when units finish out of order', async () => {
    env.fal.setLatency((model) => (model.includes('flux') ? 200 : 10));
    const manifest = await scene({ concurrency: 4 });
    expect(manifest.shots.map((s) => s.shot_id)).toEqual(['s1', 's2']);
    expect(manifest.beats.map((b) => ('beat_id' in b ? b.beat_id : ''))).toEqual(['b1', 'b2', 'b3', 'b4', '', 'b6']);
  });

  it('yields a fully cached scene with every result a cache hit', async () => {
    await scene();
    const submitted = env.fal.submissions().length;
    const items = await withCredentials({ falKey: 'k' }, () => collect(iterRenderScene(diner, { ...env.opts, concurrency: 4 })));
    expect(items.filter(({ result }) => result.cache_hit)).toHaveLength(6);
    expect(env.fal.submissions()).toHaveLength(submitted);
  });

  it('serially, stops at the first failure and reports what completed', async () => {
    env.fal.setOutcome((_m, args) => (args.text === 'I needed coffee. And I needed to see you.' ? { error: { status: 422, detail: 'bad text' } } : undefined));
    const error = (await scene().catch((e) => e)) as SceneRenderError;
    expect(error).toBeInstanceOf(SceneRenderError);
    expect(error.failures.map((f) => [f.kind, f.id])).toEqual([['beat', 'b2']]);
    expect(error.manifest.shot_count).toBe(2);
    expect(error.manifest.beat_count).toBe(1);
    expect(error.notStarted).toBe(4);
    expect(error.message).toMatch(/^render_scene: beat b2 failed: fal rejected the request/);
    expect(error.manifest.failures).toEqual([{ unit: 'beat', id: 'b2', error: expect.stringContaining('bad text'), code: 'ANNOT_FAL_BAD_REQUEST' }]);
  });

  it('under concurrency, starts nothing new after a failure, lets units in flight finish and caches them', async () => {
    const release = holdStills();
    env.fal.setOutcome((_m, args) => (args.text === 'Why are you here?' ? { error: { status: 422, detail: 'bad text' } } : undefined));
    // Order: s1, s2 (stills held in flight), b1 fails while both stills are still in flight.
    const rendering = scene({ concurrency: 3 }).catch((e) => e);
    await eventually(() => collected((_model, args) => args.text === 'Why are you here?'), 'the failing beat collected while the stills are held');
    release();
    const error = (await rendering) as SceneRenderError;
    expect(error).toBeInstanceOf(SceneRenderError);
    expect(error.failures.map((f) => f.id)).toEqual(['b1']);
    expect(error.manifest.shots).toHaveLength(2);
    expect(error.notStarted).toBe(5);
    env.fal.setOutcome(undefined);
    const rerun = await scene({ concurrency: 3 });
    expect(rerun.shots.every((s) => s.cache_hit)).toBe(true);
  });

  it('with keepGoing, renders every other unit and still reports the failure', async () => {
    env.fal.setOutcome((_m, args) => (args.text === 'Why are you here?' ? { error: { status: 422, detail: 'bad text' } } : undefined));
    for (const concurrency of [1, 3]) {
      const error = (await scene({ keepGoing: true, concurrency, force: true }).catch((e) => e)) as SceneRenderError;
      expect(error.failures.map((f) => f.id)).toEqual(['b1']);
      expect(error.notStarted).toBe(0);
      expect(error.manifest.shot_count + error.manifest.beat_count).toBe(7);
    }
  });

  it('cancels model calls in flight when the caller aborts', async () => {
    env.fal.setLatency(60_000);
    const controller = new AbortController();
    const onEvent = (e: RenderEvent) => {
      if (e.type === 'queued') controller.abort();
    };
    const error = (await scene({ concurrency: 2, signal: controller.signal, onEvent }).catch((e) => e)) as SceneRenderError;
    expect(error).toBeInstanceOf(SceneRenderError);
    expect(error.cause).toBeInstanceOf(RenderAbortedError);
    expect(env.fal.cancelled().length).toBeGreaterThanOrEqual(1);
  });
});

describe('credentials under concurrency', () => {
  it('makes every call of two scopes rendering at once under that scope\'s key', async () => {
    env.fal.setLatency(15);
    const sceneFor = (who: string): SceneInput => ({
      title: who,
      characters: [{ name: 'A', reference_image_url: `https://example.com/${who}.png` }],
      shots: [1, 2, 3].map((i) => ({ id: `${who}-s${i}`, description: `${who} shot ${i}` })),
      beats: [1, 2, 3].map((i) => ({ id: `${who}-b${i}`, speaker: 'A', line: `${who} line ${i}` })),
    });
    await withEnvKey('operator-key', () =>
      Promise.all([
        withCredentials({ falKey: 'alice-key' }, () => renderScene(sceneFor('alice'), { ...env.opts, concurrency: 4 })),
        withCredentials({ falKey: 'bob-key' }, () => renderScene(sceneFor('bob'), { ...env.opts, concurrency: 4 })),
      ]),
    );
    const submissions = env.fal.submissions();
    expect(submissions).toHaveLength(18);
    for (const s of submissions) {
      const owner = JSON.stringify(s.args).includes('alice') ? 'alice' : 'bob';
      expect([owner, s.authorization]).toEqual([owner, `Key ${owner}-key`]);
    }
    // Every request of a call (status, result, cancel) carries the same key as its submission.
    const keyOf = new Map(submissions.map((s) => [s.request_id, s.authorization]));
    for (const r of env.fal.requests.filter((q) => q.request_id && q.phase !== 'submit')) {
      expect(r.headers.authorization).toBe(keyOf.get(r.request_id!));
    }
  });

  it('keeps the key of the scope that created the iterator, wherever it is consumed', async () => {
    const iterator = withCredentials({ falKey: 'scoped-key' }, () => iterRenderScene({ title: 't', shots: [{ id: 'a' }, { id: 'b' }] }, { ...env.opts, concurrency: 2 }));
    await withEnvKey('operator-key', () => collect(iterator));
    expect(env.fal.submissions().map((s) => s.authorization)).toEqual(['Key scoped-key', 'Key scoped-key']);
  });
});

describe('manifestPathFor', () => {
  it('puts the manifest in the given directory, named by the title with spaces and slashes replaced', () => {
    expect(manifestPathFor({ title: 'My Scene/Take 2' }, '/out')).toBe('/out/My_Scene_Take_2.manifest.json');
    expect(manifestPathFor({ title: '' }, '/out')).toBe('/out/scene.manifest.json');
  });

  it('defaults to a scenes folder in the cache directory', () => {
    expect(manifestPathFor({ title: 'A B' })).toBe(join(defaultCacheDir(), 'scenes', 'A_B.manifest.json'));
  });
});
