import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { notice, writeJson } from '../../src/cli/output.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { FORCE_FLAG, PROVIDER_FLAG, QUEUE_FLAGS, REMOTE_CACHE_FLAGS, tierFlag } from '../../src/cli/render-flags.js';

export default class RenderShot extends AnnotCommand {
  static override description = 'Render one shot of a scene file (a still, or a short clip made from it with --as-video) and print its result as JSON';
  static override examples = [
    '<%= config.bin %> render shot fixtures/scenes/lighthouse.yaml s1',
    '<%= config.bin %> render shot scene.yaml s1 --as-video --quality high',
  ];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
    shot: Args.string({ description: 'shot id', required: true }),
  };
  static override flags = {
    'as-video': Flags.boolean({ description: 'make a short clip from the still' }),
    ...oclifFlags({ quality: tierFlag('tier of the still and clip models', 'balanced') }),
    'image-model': Flags.string({ description: 'still model override (a fal endpoint id or a catalog alias)' }),
    'image-to-video-model': Flags.string({ description: 'clip model override' }),
    out: Flags.string({ description: 'also copy the result to DIR/<title>/shot-<id>.png (or .mp4): a copy, never a link into the cache' }),
    ...oclifFlags(FORCE_FLAG),
    ...oclifFlags(PROVIDER_FLAG),
    ...oclifFlags(REMOTE_CACHE_FLAGS),
    ...oclifFlags(QUEUE_FLAGS),
    json: Flags.boolean({ description: 'print the result on one line (the default when stdout is not a terminal)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderShot);
    const [{ loadSceneFile }, { openRenderTiers }, { findShot }, { renderShot }, { checkModelOverride }] = await Promise.all([
      import('../../src/render/scene.js'),
      import('../../src/render/scene-job.js'),
      import('../../src/render/scene-lookup.js'),
      import('../../src/render/render-shot.js'),
      import('../../src/render/catalog.js'),
    ]);
    const scene = await loadSceneFile(args.scene);
    const { shot, environment, characters } = findShot(scene, args.shot, args.scene);
    const models = { image: flags['image-model'], clip: flags['image-to-video-model'] };
    for (const [flag, value] of [['--image-model', models.image], ['--image-to-video-model', models.clip]] as const) {
      const warning = value === undefined ? undefined : checkModelOverride(flag, value).warning;
      if (warning) notice(`annot: ${warning}`);
    }
    const tiers = await openRenderTiers(
      {
        provider: flags.provider,
        remoteCache: flags['remote-cache'],
        remoteCacheMode: flags['remote-cache-mode'],
        queue: flags.queue ? { redisUrl: flags.redis, queueName: flags['queue-name'] } : undefined,
      },
      { notice: (text) => notice(`annot: ${text}`) },
    );
    const controller = new AbortController();
    // Ctrl-C cancels the model calls in flight, and withdraws a unit sent to the render workers.
    process.once('SIGINT', () => {
      controller.abort();
      tiers.abort.abort();
    });
    const result = await renderShot(shot, {
      provider: tiers.provider,
      remoteCache: tiers.remote,
      executor: tiers.farm,
      environment,
      characters,
      style: scene.style,
      asVideo: flags['as-video'],
      quality: flags.quality,
      imageModelId: flags['image-model'],
      imageToVideoModelId: flags['image-to-video-model'],
      force: flags.force,
      durableAssets: true,
      signal: controller.signal,
      onEvent: (event) => event.type === 'notice' && event.message && notice(`annot: ${event.message}`),
    }).finally(() => tiers.close());
    if (flags.out) {
      const [{ buildManifest }, { placeAssets }] = await Promise.all([import('../../src/render/manifest.js'), import('../../src/render/output-files.js')]);
      await placeAssets(buildManifest({ title: scene.title, style: scene.style }, [result], []), flags.out);
    }
    writeJson(result, !flags.json && Boolean(process.stdout.isTTY));
  }
}
