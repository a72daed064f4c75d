import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { HOLD_FLAG, parseHold } from '../../src/cli/hold-flag.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { writeLine } from '../../src/cli/output.js';
import { InvalidInputError } from '../../src/errors/annot-error.js';

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
  static override flags = {
    manifest: Flags.string({ description: 'the manifest written by `annot render scene`', required: true }),
    animatic: Flags.string({ description: 'the animatic of the same manifest: EAF and VTT then link it instead of each beat\'s media' }),
    ...oclifFlags(HOLD_FLAG),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderTimeline);
    const hold = parseHold(flags.hold);
    const [{ readManifestFile }, { isLinkedTimeline, writeLinkedTimeline }, { touchIfOlder }] = await Promise.all([
      import('../../src/render/manifest-file.js'),
      import('../../src/render/timeline.js'),
      import('../../src/render/output-files.js'),
    ]);
    if (!isLinkedTimeline(args.path)) throw new InvalidInputError(`${args.path}: expected a timeline name ending in .otio, .eaf or .vtt`);
    const manifest = readManifestFile(flags.manifest);
    const t = await writeLinkedTimeline(manifest, args.path, { hold, animatic: flags.animatic });
    // Unchanged, but older than its inputs: newer now, so a make rule on them is satisfied.
    if (!t.written) touchIfOlder(args.path, flags.animatic ? [flags.manifest, flags.animatic] : [flags.manifest]);
    writeLine(`timeline ${args.path} (${t.format})${t.written ? '' : ' (unchanged)'}`);
  }
}
