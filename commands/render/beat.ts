import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { notice, writeJson } from '../../src/cli/output.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { BEAT_QUALITY_FLAGS, FORCE_FLAG, PROVIDER_FLAG, QUEUE_FLAGS, REMOTE_CACHE_FLAGS } from '../../src/cli/render-flags.js';

export default class RenderBeat extends AnnotCommand {
  static override description =
    "Render one beat of a scene file (speech in the speaker's voice, then a talking video from the speaker's face) and print its result as JSON. A beat whose speaker is not a character is skipped";
  static override examples = [
    '<%= config.bin %> render beat fixtures/scenes/lighthouse.yaml b2',
    '<%= config.bin %> render beat scene.yaml b2 --tts-model fal-ai/minimax/speech-02-hd --force',
  ];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
    beat: Args.string({ description: 'beat id', required: true }),
  };
  static override flags = {
    ...oclifFlags(BEAT_QUALITY_FLAGS),
    'tts-model': Flags.string({ description: 'speech model override (a fal endpoint id or a catalog alias)' }),
    'avatar-model': Flags.string({ description: 'talking-video model override' }),
    out: Flags.string({ description: 'also copy the result to DIR/<title>/beat-<id>.mp4 (or the speech alone): a copy, never a link into the cache' }),
    ...oclifFlags(FORCE_FLAG),
    ...oclifFlags(PROVIDER_FLAG),
    ...oclifFlags(REMOTE_CACHE_FLAGS),
    ...oclifFlags(QUEUE_FLAGS),
    json: Flags.boolean({ description: 'print the result on one line (the default when stdout is not a terminal)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderBeat);
    const [{ loadSceneFile }, { openRenderTiers }, { findBeat }, { renderBeat }, { checkModelOverride }, { ACTION_ONLY_SKIP, isActionOnly }] = await Promise.all([
      import('../../src/render/scene.js'),
      import('../../src/render/scene-job.js'),
      import('../../src/render/scene-lookup.js'),
      import('../../src/render/render-beat.js'),
      import('../../src/render/catalog.js'),
      import('../../src/render/action-only.js'),
    ]);
    const scene = await loadSceneFile(args.scene);
    const { beat, speaker } = findBeat(scene, args.beat, args.scene);
    for (const [flag, value] of [['--tts-model', flags['tts-model']], ['--avatar-model', flags['avatar-model']]] as const) {
      const warning = value === undefined ? undefined : checkModelOverride(flag, value).warning;
      if (warning) notice(`annot: ${warning}`);
    }
    if (!speaker) {
      writeJson({ beat_id: beat.id, skipped: 'no character', speaker: beat.speaker, cache_hit: false }, pretty(flags.json));
      return;
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
    const signal = interruptSignal(tiers.abort);
    const result = await renderBeat(beat, speaker, {
      provider: tiers.provider,
      remoteCache: tiers.remote,
      executor: tiers.farm,
      ttsQuality: flags['tts-quality'],
      lipsyncQuality: flags['lipsync-quality'],
      ttsModelId: flags['tts-model'],
      avatarModelId: flags['avatar-model'],
      force: flags.force,
      durableAssets: true,
      signal,
      onEvent: (event) => event.type === 'notice' && event.message && notice(`annot: ${event.message}`),
    }).finally(() => tiers.close());
    if (isActionOnly(beat) && !('skipped' in result)) Object.assign(result, { skipped: ACTION_ONLY_SKIP });
    if (flags.out && 'beat_id' in result && !('skipped' in result)) {
      const [{ buildManifest }, { placeAssets }] = await Promise.all([import('../../src/render/manifest.js'), import('../../src/render/output-files.js')]);
      await placeAssets(buildManifest({ title: scene.title, style: scene.style }, [], [result]), flags.out);
    }
    writeJson(result, pretty(flags.json));
  }
}

function pretty(json: boolean): boolean {
  return !json && Boolean(process.stdout.isTTY);
}

/** Ctrl-C cancels the model calls in flight (the result of finished calls stays cached), and withdraws a unit sent to the render workers. */
function interruptSignal(farm: AbortController): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
    farm.abort();
  });
  return controller.signal;
}
