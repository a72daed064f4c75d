import { formatFinding } from '../src/adapters/finding.js';
import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { notice, stdoutClosed, writeJsonLine } from '../src/cli/output.js';

export default class Query extends AnnotCommand {
  static override description =
    'Print annotations as JSON lines (the annotation wire form), streaming. With --start/--end, only interval annotations in that relation to the window';
  static override examples = [
    '<%= config.bin %> query talk.annot',
    '<%= config.bin %> query talk.annot --start 12.5 --end 20 --tier words',
    '<%= config.bin %> query talk.vtt --start 0 --end 60 --relation during',
    'cat talk.srt | <%= config.bin %> query - --tier subtitles',
    '<%= config.bin %> query "postgres://postgres@127.0.0.1/annot?project=interviews" --tier words',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format (.annot, .vtt, .eaf, ...), - for standard input, or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
  };
  static override flags = {
    start: Flags.string({ description: 'window start in seconds, a decimal like 12.345 (exact)' }),
    end: Flags.string({ description: 'window end in seconds (exclusive)' }),
    rate: Flags.integer({ description: 'ticks per second for the window (default: exact for the digits given)', min: 1 }),
    tier: Flags.string({ description: 'only annotations on this tier' }),
    relation: Flags.string({ description: 'intersects (default) or an Allen relation: before, after, meets, met_by, overlaps, overlapped_by, starts, started_by, during, contains, finishes, finished_by, equals' }),
    from: Flags.string({ description: 'input format, when the extension and content do not tell' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Query);
    const [{ openAnnotationFile }, { queryAnnotations }, { registerBuiltinFormats }, { annotationToWire }, { requireTier }] = await Promise.all([
      import('../src/service/open-annotation-file.js'),
      import('../src/service/query-annotations.js'),
      import('../src/adapters/builtin.js'),
      import('../src/model/wire.js'),
      import('../src/service/tier-lookup.js'),
    ]);
    registerBuiltinFormats();
    const { isPostgresLocation, openServiceStore, redactLocation } = await import('../src/service/open-service-store.js');
    const { spoolInput } = await import('../src/service/standard-input.js');
    const spooled = args.file === '-' ? await spoolInput(process.stdin) : undefined;
    try {
      const store = isPostgresLocation(args.file)
        ? await openServiceStore(args.file)
        : (await openAnnotationFile(spooled?.path ?? args.file, { from: flags.from, rate: flags.rate, sourceName: spooled ? '<stdin>' : args.file, report: (finding) => notice(formatFinding(finding)) })).store;
      try {
        if (flags.tier !== undefined) await requireTier(store, flags.tier, spooled ? 'standard input' : redactLocation(args.file));
        for await (const annotation of queryAnnotations(store, flags)) {
          if (stdoutClosed()) break; // `| head`: nothing more is read, the exit status stays
          await writeJsonLine(annotationToWire(annotation));
        }
      } finally {
        await store.close();
      }
    } finally {
      spooled?.dispose();
    }
  }
}
