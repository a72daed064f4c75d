import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { notice, writeJson, writeLine } from '../../src/cli/output.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { PROVIDER_FLAG, SCENE_QUALITY_FLAGS } from '../../src/cli/render-flags.js';

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
    const plan = planScene(scene, {
      provider,
      ttsQuality: flags['tts-quality'],
      lipsyncQuality: flags['lipsync-quality'],
      shotQuality: flags['shot-quality'],
      shotsAsVideo: flags['shots-as-video'],
      force: flags.force,
    });
    if (flags.json) return writeJson(plan);
    const usd = (v: number | null) => (v === null ? 'unknown' : `$${v.toFixed(4)}`);
    writeLine(`${plan.title} (${plan.provider}): ${plan.to_render} to render, ${plan.cached} cached, ${plan.skipped} skipped`);
    for (const u of plan.units) {
      const what = u.status === 'skipped' ? `skipped (${u.skipped})` : u.status;
      const calls = u.calls.map((c) => `${c.model_id} ${usd(c.estimated_usd)}`).join(' + ');
      writeLine(`  ${u.unit} ${u.id}: ${what}${calls ? ` — ${calls}` : ''}`);
    }
    const unknown = plan.unknown_price_calls > 0 ? ` plus ${plan.unknown_price_calls} call(s) of unknown price` : '';
    writeLine(`estimated cost: ${plan.unknown_price_calls > 0 ? 'at least ' : ''}$${plan.known_usd.toFixed(4)}${unknown}`);
  }
}
