import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { VALIDATE_FLAGS } from '../src/cli/validate-flags.js';

export default class Validate extends AnnotCommand {
  static override description = [
    'Check an annotation file (what the reader repaired, dropped or guessed; every body against its schema; every tier against its stereotype) or a scene file (schema, references to shots, characters and environments).',
    'Exit 0 when there are no errors, 1 when there are (or, with --strict or --max-warnings, too many warnings), 2 on a usage error.',
  ].join(' ');
  static override examples = [
    '<%= config.bin %> validate talk.annot',
    '<%= config.bin %> validate interview.eaf --format json',
    'for f in subtitles/*.vtt; do <%= config.bin %> validate "$f" --format github --strict || exit 1; done',
    'cat talk.srt | <%= config.bin %> validate - --from srt',
    '<%= config.bin %> validate fixtures/scenes/lighthouse.yaml',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format, a scene file, - for standard input, or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
  };
  static override flags = oclifFlags(VALIDATE_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Validate);
    const { runValidate } = await import('../src/cli/run-validate.js');
    await runValidate(args.file, flags);
  }
}
