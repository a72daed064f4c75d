import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';

export default class Query extends AnnotCommand {
  static override description =
    'Print annotations as JSON lines (the annotation wire form), streaming. With --start/--end, only interval annotations in that relation to the window';
  static override examples = [
    '<%= config.bin %> query talk.annot',
    '<%= config.bin %> query talk.annot --start 12.5 --end 20 --tier words',
    '<%= config.bin %> query talk.annot --start 00:01:02.500 --end 00:01:10 --time timecode',
    '<%= config.bin %> query film.annot --start 00:10:00:12 --end 00:11:00:00 --fps 24',
    '<%= config.bin %> query talk.vtt --start 0 --end 60 --relation during',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format (.annot, .vtt, .eaf, ...)', ignoreStdin: true, required: true }),
  };
  static override flags = {
    start: Flags.string({ description: 'window start: seconds (12.345, exact), a timecode HH:MM:SS.mmm or MM:SS.mmm, or SMPTE HH:MM:SS:FF with --fps' }),
    end: Flags.string({ description: 'window end (exclusive), in the same forms' }),
    fps: Flags.string({ description: 'frames per second of SMPTE HH:MM:SS:FF times (24, 25, 29.97, 30000/1001)' }),
    time: Flags.string({ description: 'how times are printed beside {v, r}: seconds (s, exact), timecode (s and tc) or ticks (only {v, r})', options: ['seconds', 'timecode', 'ticks'], default: 'seconds' }),
    rate: Flags.integer({ description: 'ticks per second for the window (default: exact for the digits given)', min: 1 }),
    tier: Flags.string({ description: 'only annotations on this tier' }),
    relation: Flags.string({ description: 'intersects (default) or an Allen relation: before, after, meets, met_by, overlaps, overlapped_by, starts, started_by, during, contains, finishes, finished_by, equals' }),
    from: Flags.string({ description: 'input format, when the extension and content do not tell' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Query);
    const { printQuery } = await import('../src/cli/print-query.js');
    await printQuery(args.file, { ...flags, time: flags.time as 'seconds' | 'timecode' | 'ticks' });
  }
}
