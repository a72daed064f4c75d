import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { RETIME_COMMAND_FLAGS } from '../src/cli/retime-command-flags.js';

export default class Retime extends AnnotCommand {
  static override description =
    'Retime a .annot file or a PostgreSQL project in place: shift, frame-rate change, scale or two-point sync, exact in rational time. ' +
    'The parts compose in this order: --fps-from/--fps-to, then --scale, then --shift (--sync sets the scale and offset itself; a --shift applies after it). ' +
    'Every moved annotation is updated and every dropped one deleted in one op-log batch, all or nothing, so a running annot serve on the store sees it live. ' +
    'An annotation pushed before 0 s is cut at 0 s (dropped when it ends there), a time between ticks of its rate is rounded; both are counted on stderr, and --strict, --strict-time refuse them instead, changing nothing';
  static override examples = [
    '<%= config.bin %> retime talk.annot --shift 2.5',
    '<%= config.bin %> retime talk.annot --shift=-00:00:01.200',
    '<%= config.bin %> retime film.annot --fps-from 23.976 --fps-to 25',
    "<%= config.bin %> retime film.annot --sync '00:00:10=00:00:12.5,01:30:00=01:30:04'",
    '<%= config.bin %> retime talk.annot --shift 3 --within 600,900 --tier words',
    '<%= config.bin %> retime --store "postgres://postgres@127.0.0.1/annot" --project talks --shift 2.5 --json',
  ];
  static override args = {
    file: Args.string({ description: 'the .annot file to retime in place (or a postgres://…?project=name URL); see --store', ignoreStdin: true }),
  };
  static override flags = oclifFlags(RETIME_COMMAND_FLAGS);

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Retime);
    const { runRetime } = await import('../src/cli/run-retime.js');
    await runRetime(args.file, flags);
  }
}
