import { Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { HOLD_FLAG, parseHold } from '../../src/cli/hold-flag.js';
import { oclifFlags } from '../../src/cli/oclif-flags.js';
import { writeLine } from '../../src/cli/output.js';

export default class RenderAnimatic extends AnnotCommand {
  static override description =
    'Assemble the animatic of a rendered scene from its manifest alone (no unit is looked at again): one H.264/AAC mp4 of the talking videos, or the stills with the speech, shots without beats held; the lines as a mov_text track and beside it as OUT.vtt (build/scene.mp4.vtt, so no timeline of the scene is replaced). Rewritten only when the media change';
  static override examples = ['<%= config.bin %> render animatic --manifest build/The_Last_Keeper.manifest.json --out build/scene.mp4'];
  static override flags = {
    manifest: Flags.string({ description: 'the manifest written by `annot render scene`', required: true }),
    out: Flags.string({ description: 'the mp4 to write (its subtitles go beside it, with .vtt added to its name)', required: true }),
    ...oclifFlags(HOLD_FLAG),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RenderAnimatic);
    const hold = parseHold(flags.hold);
    const [{ readManifestFile }, { writeAnimatic }, { touchIfOlder }] = await Promise.all([
      import('../../src/render/manifest-file.js'),
      import('../../src/render/animatic.js'),
      import('../../src/render/output-files.js'),
    ]);
    const manifest = readManifestFile(flags.manifest);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.on('SIGINT', onSigint);
    try {
      const a = await writeAnimatic(manifest, flags.out, { hold, signal: controller.signal });
      // Unchanged, but older than its manifest: newer now, so a make rule on the manifest is satisfied.
      if (!a.written) touchIfOlder(flags.out, [flags.manifest]);
      writeLine(`animatic ${a.path}: ${a.duration.toFixed(3)} s in ${a.parts} parts, subtitles ${a.subtitles}${a.written ? '' : ' (unchanged)'}`);
    } finally {
      process.off('SIGINT', onSigint);
    }
  }
}
