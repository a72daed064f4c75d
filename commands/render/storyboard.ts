import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { writeLine } from '../../src/cli/output.js';

export default class RenderStoryboard extends AnnotCommand {
  static override description =
    'Write the self-contained HTML storyboard of a rendered scene from its manifest alone (every still, clip and track embedded). Rewritten only when it changes';
  static override examples = ['<%= config.bin %> render storyboard --manifest build/The_Last_Keeper.manifest.json build/scene.html'];
  static override args = {
    path: Args.string({ description: 'the .html page to write', required: true }),
  };
  static override flags = {
    manifest: Flags.string({ description: 'the manifest written by `annot render scene`', required: true }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RenderStoryboard);
    const [{ readManifestFile }, { writeStoryboardFromManifest }, { touchIfOlder }] = await Promise.all([
      import('../../src/render/manifest-file.js'),
      import('../../src/render/storyboard.js'),
      import('../../src/render/output-files.js'),
    ]);
    const written = await writeStoryboardFromManifest(readManifestFile(flags.manifest), args.path);
    // Unchanged, but older than its manifest: newer now, so a make rule on the manifest is satisfied.
    if (!written) touchIfOlder(args.path, [flags.manifest]);
    writeLine(`storyboard ${args.path}${written ? '' : ' (unchanged)'}`);
  }
}
