import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { QUERY_FLAGS } from '../src/cli/query-flags.js';

export default class Query extends AnnotCommand {
  static override description =
    'Print annotations as JSON lines (the annotation wire form), streaming. With --start/--end, only interval annotations in that relation to the window';
  static override examples = [
    '<%= config.bin %> query talk.annot',
    '<%= config.bin %> query talk.annot --start 12.5 --end 20 --tier words',
    '<%= config.bin %> query talk.annot --start 00:01:02.500 --end 00:01:10 --time timecode',
    '<%= config.bin %> query film.annot --start 00:10:00:12 --end 00:11:00:00 --fps 24',
    '<%= config.bin %> query talk.vtt --start 0 --end 60 --relation during',
    'cat talk.srt | <%= config.bin %> query - --tier subtitles',
    '<%= config.bin %> query "postgres://postgres@127.0.0.1/annot?project=interviews" --tier words',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format (.annot, .vtt, .eaf, ...), - for standard input, or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
  };
  static override flags = oclifFlags(QUERY_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Query);
    const { printQuery } = await import('../src/cli/print-query.js');
    await printQuery(args.file, { ...flags, time: flags.time as 'seconds' | 'timecode' | 'ticks' });
  }
}
