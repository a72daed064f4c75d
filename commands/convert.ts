import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';

export default class Convert extends AnnotCommand {
  static override description =
    'Convert an annotation file between formats. The output is written atomically; what the target format cannot keep is reported on stderr';
  static override examples = [
    '<%= config.bin %> convert interview.eaf interview.annot',
    '<%= config.bin %> convert talk.vtt talk.srt',
    '<%= config.bin %> convert old-windows.srt talk.vtt --encoding windows-1252',
    'cat talk.vtt | <%= config.bin %> convert - - --from webvtt --to srt',
    '<%= config.bin %> convert interview.eaf "postgres://postgres@127.0.0.1/annot?project=interviews"',
    '<%= config.bin %> convert "postgres://postgres@127.0.0.1/annot?project=interviews" interviews.annot --to annot',
  ];
  static override args = {
    input: Args.string({ description: 'input file, - for standard input, or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
    output: Args.string({ description: 'output file, - for standard output (needs --to), or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
  };
  static override flags = {
    from: Flags.string({ description: 'input format (default: from the extension, then the content)' }),
    to: Flags.string({ description: 'output format (default: from the extension)' }),
    rate: Flags.integer({ description: 'import rate in ticks per second for formats with float times', min: 1 }),
    encoding: Flags.string({ description: 'the input\'s text encoding (utf-8, windows-1252, shift_jis...; default: a byte-order mark, else UTF-8, else detected with a warning). A byte-order mark still decides; outputs are UTF-8' }),
    strict: Flags.boolean({ description: 'fail (exit 1, nothing written) when the reader reports any finding: a repaired, dropped or guessed part of the input' }),
    'strict-time': Flags.boolean({ description: 'fail instead of rounding a time that is not exact at the import rate' }),
    'asset-id': Flags.string({ description: 'asset id for formats whose files do not name their media' }),
    tier: Flags.string({ description: 'tier name for formats without tiers (import), or the tier to write (export)' }),
    variant: Flags.string({ description: 'output variant where a format has several (textgrid: long or short)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Convert);
    const { runConvert } = await import('../src/cli/run-convert.js');
    await runConvert({
      input: args.input,
      output: args.output,
      from: flags.from,
      to: flags.to,
      rate: flags.rate,
      encoding: flags.encoding,
      strict: flags.strict,
      strictTime: flags['strict-time'],
      assetId: flags['asset-id'],
      tier: flags.tier,
      variant: flags.variant,
    });
  }
}
