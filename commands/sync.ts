import { Args } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { SYNC_FLAGS } from '../src/cli/sync-flags.js';

export default class Sync extends AnnotCommand {
  static override description = [
    "Find the offset, and a frame-rate ratio (23.976, 24, 25 fps), that best lay a subtitle file's cues over the speech in a media file's audio (or over another file's cues, with --reference), and write the file retimed by it, exactly.",
    'The estimate goes to stderr (offset, ratio, confidence). Without OUT nothing is written: the estimate only. OUT is written atomically, in the format of its extension, and may be SUBS itself.',
    'A confidence under 0.5 (no clear alignment) is a warning: nothing is written and the exit status is 0; with --strict it is a failure (exit 1).',
  ].join(' ');
  static override examples = [
    '<%= config.bin %> sync film.srt film.mkv film.synced.srt',
    '<%= config.bin %> sync film.srt film.mkv',
    '<%= config.bin %> sync film.srt film.mkv film.srt --strict',
    '<%= config.bin %> sync film.srt --reference film.en.srt film.synced.srt',
    '<%= config.bin %> sync talk.vtt talk.mp4 talk.synced.vtt --no-fix-framerate --max-offset 10 --json',
  ];
  static override usage = ['sync SUBS MEDIA [OUT] [FLAGS]', 'sync SUBS --reference OTHER [OUT] [FLAGS]'];
  // With --reference the second positional argument is OUT: run() sorts them out.
  static override strict = false;
  static override args = {
    subs: Args.string({ description: 'the annotation file to sync, in any format annot reads', required: true }),
    media: Args.string({ description: 'the media file whose speech the cues are aligned to (its first audio track); with --reference, this place is OUT' }),
    out: Args.string({ description: 'where the retimed file is written (any format, by its extension); absent: print the estimate only' }),
  };
  static override flags = oclifFlags(SYNC_FLAGS);

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Sync);
    const { runSync } = await import('../src/cli/run-sync.js');
    await runSync(argv as string[], flags);
  }
}
