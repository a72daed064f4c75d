import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { ENCODING_FLAG } from '../src/cli/encoding-flag.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { notice, writeJson, writeLine } from '../src/cli/output.js';

export default class Agree extends AnnotCommand {
  static override description =
    "Agreement between two annotators: two files (any formats) tier by tier, or two tiers of one file. Segments are matched one to one by maximal overlap (the pairs sharing the most time first); on the matched pairs it reports Cohen's kappa and Krippendorff's alpha on the labels (body text, else label/value, else the body's JSON) and the mean interval IoU; per tier also the boundary IoU and the counts matched, missing (only in A) and extra (only in B)";
  static override examples = [
    '<%= config.bin %> agree anna.eaf ben.eaf',
    '<%= config.bin %> agree anna.eaf ben.TextGrid --tier words --json',
    '<%= config.bin %> agree session.annot --tier coder1 --tier coder2',
  ];
  static override args = {
    a: Args.string({ description: 'the first annotator\'s file (the reference: "missing" is what only it has)', required: true, ignoreStdin: true }),
    b: Args.string({ description: "the second annotator's file; leave out to compare two tiers of A (give --tier twice)", ignoreStdin: true }),
  };
  static override flags = {
    tier: Flags.string({ description: 'compare only this tier (in both files); given twice, the first tier of A against the second of B (or of A)', multiple: true }),
    json: Flags.boolean({ description: 'one JSON document instead of a table', default: false }),
    from: Flags.string({ description: 'input format of both files, when the extension and content do not tell' }),
    ...oclifFlags(ENCODING_FLAG),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Agree);
    const [{ openAnnotationFile }, { tierAgreement }, { formatFinding }] = await Promise.all([
      import('../src/service/open-annotation-file.js'),
      import('../src/quality/tier-agreement.js'),
      import('../src/adapters/finding.js'),
    ]);
    const tiers = flags.tier ?? [];
    if (tiers.length > 2) this.error('--tier is given at most twice (a tier of A, then the tier of B to compare it with)', { exit: 2 });
    if (args.b === undefined && tiers.length !== 2) this.error('with one file, give the two tiers to compare: --tier T1 --tier T2', { exit: 2 });
    const report = (finding: Parameters<typeof formatFinding>[0]) => notice(formatFinding(finding));
    const openedA = await openAnnotationFile(args.a, { from: flags.from, encoding: flags.encoding, report });
    const openedB = args.b === undefined ? openedA : await openAnnotationFile(args.b, { from: flags.from, encoding: flags.encoding, report });
    try {
      let pairs: Array<[string, string]>;
      if (tiers.length === 2) pairs = [[tiers[0], tiers[1]]];
      else if (tiers.length === 1) pairs = [[tiers[0], tiers[0]]];
      else {
        const names = new Set([...(await openedA.store.listTiers()), ...(await openedB.store.listTiers())].map((tier) => tier.name));
        pairs = [...names].map((name) => [name, name]);
      }
      const results = [];
      for (const [tierA, tierB] of pairs) {
        results.push(tierAgreement(tierA, await openedA.store.byTier(tierA), tierB, await openedB.store.byTier(tierB)));
      }
      if (flags.json) {
        writeJson({ a: args.a, b: args.b ?? args.a, matching: 'maximal-overlap', tiers: results });
        return;
      }
      const number = (value: number | null) => (value === null ? '-' : value.toFixed(3));
      const rows = [
        ['tier', 'matched', 'missing', 'extra', 'kappa', 'alpha', 'mean IoU', 'boundary IoU'],
        ...results.map((r) => [
          r.tier_a === r.tier_b ? r.tier_a : `${r.tier_a} / ${r.tier_b}`,
          String(r.matched), String(r.missing), String(r.extra),
          number(r.cohen_kappa), number(r.krippendorff_alpha), number(r.mean_interval_iou), number(r.boundary_iou),
        ]),
      ];
      const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
      for (const row of rows) writeLine(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd());
    } finally {
      await openedA.store.close();
      if (openedB !== openedA) await openedB.store.close();
    }
  }
}
