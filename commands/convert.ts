import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { CONVERT_FLAGS } from '../src/cli/convert-flags.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';

export default class Convert extends AnnotCommand {
  static override description =
    'Convert annotation files between formats: one file into another (IN OUT), or many into a folder (IN... --out-dir DIR --to FORMAT). Outputs are written atomically; what the target format cannot keep is reported on stderr. Retimes as it converts (--shift, --fps-from/--fps-to, --scale, --sync, --within): the frame-rate change, then --scale, then --shift, exactly at the input\'s rate';
  static override examples = [
    '<%= config.bin %> convert interview.eaf interview.annot',
    '<%= config.bin %> convert talk.vtt talk.srt',
    '<%= config.bin %> convert old-windows.srt talk.vtt --encoding windows-1252',
    'cat talk.vtt | <%= config.bin %> convert - - --from webvtt --to srt',
    '<%= config.bin %> convert interview.eaf "postgres://postgres@127.0.0.1/annot?project=interviews"',
    '<%= config.bin %> convert "postgres://postgres@127.0.0.1/annot?project=interviews" interviews.annot --to annot',
    '<%= config.bin %> convert subtitles/*.srt --to vtt --out-dir build/vtt',
    '<%= config.bin %> convert corpus/ --recursive --to annot --out-dir build/annot --jobs 2',
    '<%= config.bin %> convert movie.srt movie.late.srt --shift 2.5',
    '<%= config.bin %> convert movie.srt movie.early.srt --shift=-00:00:01.200',
    '<%= config.bin %> convert movie.srt movie.pal.srt --fps-from 23.976 --fps-to 25',
    "<%= config.bin %> convert movie.srt movie.synced.srt --sync '00:00:10,000=00:00:12,500,01:30:00,000=01:30:04,000'",
    '<%= config.bin %> convert movie.srt movie.fixed.srt --within 00:40:00,01:00:00 --shift 1.5',
  ];
  static override usage = ['convert INPUT OUTPUT [FLAGS]', 'convert INPUT... --out-dir DIR --to FORMAT [--recursive] [--jobs N] [FLAGS]'];
  // The batch form takes any number of inputs: every positional argument reaches run() in argv.
  static override strict = false;
  static override args = {
    input: Args.string({ description: 'input file, - for standard input, or a postgres://…?project=name URL; with --out-dir, any number of files (and folders, with --recursive)', ignoreStdin: true, required: true }),
    output: Args.string({ description: 'output file, - for standard output (needs --to), or a postgres://…?project=name URL; not given with --out-dir', ignoreStdin: true }),
  };
  static override flags = oclifFlags(CONVERT_FLAGS);

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Convert);
    const { runConvertCommand } = await import('../src/cli/run-convert.js');
    await runConvertCommand(argv as string[], flags);
  }
}
