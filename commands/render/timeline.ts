import { Args } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { RENDER_TIMELINE_FLAGS } from '../../src/cli/render-timeline-flags.js';

export default class RenderTimeline extends AnnotCommand {
  static override description =
    'Write the timeline of a rendered scene from its manifest alone, the format from the extension: .otio (shots, talking video and speech tracks linking the rendered files), .eaf (ELAN, linking the animatic or each beat\'s media) or .vtt (lines with <v Speaker> spans). Rewritten only when it changes';
  static override examples = [
    '<%= config.bin %> render timeline --manifest build/The_Last_Keeper.manifest.json build/scene.otio',
    '<%= config.bin %> render timeline --manifest build/The_Last_Keeper.manifest.json --animatic build/scene.mp4 build/scene.eaf',
  ];
  static override args = {
    path: Args.string({ description: 'the timeline to write (.otio, .eaf or .vtt)', required: true }),
  };
  static override flags = oclifFlags(RENDER_TIMELINE_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderTimeline);
    const { runRenderTimeline } = await import('../../src/cli/run-render-timeline.js');
    await runRenderTimeline(args.path, flags);
  }
}
