import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { ENCODING_FLAG } from '../src/cli/encoding-flag.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { notice, writeJsonLine, writeLine } from '../src/cli/output.js';

export default class Diff extends AnnotCommand {
  static override description =
    'What changed from A to B (two files in any formats, or store URLs): annotations added, removed, retimed and relabelled. Annotations are paired by id, then (ids on one side only) within a tier by text and overlap, or by identical times. Provenance is not compared. Exits 0 when they are equal, 1 when they differ, 2 on a usage error';
  static override examples = [
    '<%= config.bin %> diff before.annot after.annot',
    '<%= config.bin %> diff anna.eaf anna-v2.eaf --json | jq -c \'select(.change == "retimed")\'',
  ];
  static override args = {
    a: Args.string({ description: 'the old version: a file or a postgres://…?project=name URL', required: true, ignoreStdin: true }),
    b: Args.string({ description: 'the new version', required: true, ignoreStdin: true }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'one JSON line per change', default: false }),
    from: Flags.string({ description: 'input format of both files, when the extension and content do not tell' }),
    ...oclifFlags(ENCODING_FLAG),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Diff);
    const [{ openAnnotationFile }, { diffStores }, { formatFinding }] = await Promise.all([
      import('../src/service/open-annotation-file.js'),
      import('../src/service/annotation-diff.js'),
      import('../src/adapters/finding.js'),
    ]);
    const report = (finding: Parameters<typeof formatFinding>[0]) => notice(formatFinding(finding));
    const open = async (location: string) => {
      if (/^postgres(ql)?:\/\//.test(location)) {
        const { openServiceStore } = await import('../src/service/open-service-store.js');
        return openServiceStore(location, { create: false });
      }
      return (await openAnnotationFile(location, { from: flags.from, encoding: flags.encoding, report })).store;
    };
    const a = await open(args.a);
    let differ = false;
    try {
      const b = await open(args.b);
      try {
        for await (const change of diffStores(a, b)) {
          differ = true;
          if (flags.json) await writeJsonLine(change);
          else writeLine(describe(change));
        }
      } finally {
        await b.close();
      }
    } finally {
      await a.close();
    }
    if (differ) process.exitCode = 1;
  }
}

type Change = import('../src/service/annotation-diff.js').AnnotationChange;

function seconds(time: { v: number; r: number }): string {
  return String(time.v / time.r);
}

function span(interval: { start: { v: number; r: number }; end: { v: number; r: number } }): string {
  return `[${seconds(interval.start)}, ${seconds(interval.end)})`;
}

/** One line per change for a person: + added, - removed, ~ retimed, relabelled or changed. */
function describe(change: Change): string {
  switch (change.change) {
    case 'added':
    case 'removed': {
      const where = change.reference.kind === 'media' ? span(change.reference.interval) : `→ ${change.reference.target_id}`;
      return `${change.change === 'added' ? '+' : '-'} ${change.tier} ${where} ${JSON.stringify(change.label)}  (${change.id})`;
    }
    case 'retimed':
      return `~ retimed ${change.tier} ${span(change.from)} → ${span(change.to)}  (${change.id})`;
    case 'relabelled':
      return `~ relabelled ${change.tier} ${JSON.stringify(change.from)} → ${JSON.stringify(change.to)}  (${change.id})`;
    case 'changed':
      return `~ changed ${change.tier} ${change.fields.join(', ')}  (${change.id})`;
  }
}
