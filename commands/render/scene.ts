import { Args } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { RENDER_SCENE_FLAGS } from '../../src/cli/render-scene-flags.js';

export default class RenderScene extends AnnotCommand {
  static override description =
    'Render every shot and beat of a scene file, after printing what `annot validate` finds in it, streaming progress (a progress bar on a terminal, one JSON line per finished unit otherwise), then write the manifest. Unchanged units come from the cache. Exit 0 when all rendered or skipped, 1 when a unit failed, the scene file is invalid or --strict refused its findings, 2 on usage errors, 130 after Ctrl-C (finished units stay cached)';
  static override examples = [
    '<%= config.bin %> render scene fixtures/scenes/lighthouse.yaml',
    '<%= config.bin %> render scene scene.yaml --provider local --out build --timeline build/scene.vtt --storyboard build/scene.html',
    '<%= config.bin %> render scene scene.yaml --concurrency 8 --keep-going --json > units.jsonl',
  ];
  static override args = {
    scene: Args.string({ description: 'scene file (.yaml or .json)', required: true }),
  };
  static override flags = oclifFlags(RENDER_SCENE_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderScene);
    const { runRenderScene } = await import('../../src/cli/run-render-scene.js');
    await runRenderScene(args.scene, flags);
  }
}
