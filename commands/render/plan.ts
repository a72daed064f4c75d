import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { notice, writeJson, writeLine } from '../../src/cli/output.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import type { ScenePlan } from '../../src/render/plan.js';
import type { Provider } from '../../src/render/providers/provider.js';
import { PROVIDER_FLAG, REMOTE_CACHE_FLAGS, SCENE_QUALITY_FLAGS } from '../../src/cli/render-flags.js';

export default class RenderPlan extends AnnotCommand {
  static override description =
    'Dry run of `render scene`: every unit, whether it is cached, the models it would call and the estimated cost from the catalog prices (unknown prices are shown as unknown, never as free). Nothing is called or spent';
  static override examples = ['<%= config.bin %> render plan fixtures/scenes/lighthouse.yaml --provider fal', '<%= config.bin %> render plan scene.yaml --shots-as-video --json'];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
  };
  static override flags = {
    ...oclifFlags(SCENE_QUALITY_FLAGS),
    'shots-as-video': Flags.boolean({ description: 'plan a clip for each still' }),
    force: Flags.boolean({ description: 'plan as if nothing were cached' }),
    ...oclifFlags(PROVIDER_FLAG),
    ...oclifFlags(REMOTE_CACHE_FLAGS),
    json: Flags.boolean({ description: 'print the plan as one JSON document' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderPlan);
    const [{ loadSceneFile }, { chooseProvider }, { planScene }] = await Promise.all([
      import('../../src/render/scene.js'),
      import('../../src/render/provider-choice.js'),
      import('../../src/render/plan.js'),
    ]);
    const scene = await loadSceneFile(args.scene);
    const provider = chooseProvider(flags.provider, { notice: (text) => notice(`annot: ${text}`), requireKey: false });
    const local = planScene(scene, {
      provider,
      ttsQuality: flags['tts-quality'],
      lipsyncQuality: flags['lipsync-quality'],
      shotQuality: flags['shot-quality'],
      shotsAsVideo: flags['shots-as-video'],
      force: flags.force,
    });
    const plan = flags['remote-cache'] && !flags.force ? await this.withRemote(local, provider, flags['remote-cache'], flags['shot-quality']) : local;
    if (flags.json) return writeJson(plan);
    const usd = (v: number | null) => (v === null ? 'unknown' : `$${v.toFixed(4)}`);
    const remote = plan.remote_cache ? `, ${plan.remote_cache.unavailable ? 'shared cache unavailable' : `${plan.remote_cache.holds} in the shared cache`}` : '';
    writeLine(`${plan.title} (${plan.provider}): ${plan.to_render} to render, ${plan.cached} cached${remote}, ${plan.skipped} skipped`);
    for (const u of plan.units) {
      const what = u.status === 'skipped' ? `skipped (${u.skipped})` : u.status === 'remote' ? 'in the shared cache' : u.status;
      const calls = u.calls.map((c) => `${c.model_id} ${usd(c.estimated_usd)}`).join(' + ');
      writeLine(`  ${u.unit} ${u.id}: ${what}${calls ? ` — ${calls}` : ''}`);
    }
    const unknown = plan.unknown_price_calls > 0 ? ` plus ${plan.unknown_price_calls} call(s) of unknown price` : '';
    writeLine(`estimated cost: ${plan.unknown_price_calls > 0 ? 'at least ' : ''}$${plan.known_usd.toFixed(4)}${unknown}`);
  }

  /** The plan with the shared cache asked, by name, about each unit to render; a remote that cannot answer is one notice. */
  private async withRemote(plan: ScenePlan, provider: Provider, url: string, shotQuality: string): Promise<ScenePlan> {
    const [{ openRemoteCache }, { withRemoteHoldings }] = await Promise.all([import('../../src/render/remote/open-remote-cache.js'), import('../../src/render/plan.js')]);
    const remoteCache = await openRemoteCache(url, { mode: 'read' });
    try {
      const checked = await withRemoteHoldings(plan, { provider, shotQuality, remoteCache });
      if (checked.remote_cache?.unavailable) notice(`annot: the shared cache ${remoteCache.url} is unavailable (${checked.remote_cache.unavailable}); the plan counts only this machine's cache`);
      return checked;
    } finally {
      remoteCache.close();
    }
  }
}
