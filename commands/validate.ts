import { Args, Flags } from '@oclif/core';
import type { Finding } from '../src/adapters/finding.js';
import { AnnotCommand } from '../src/cli/base-command.js';
import { ENCODING_FLAG } from '../src/cli/encoding-flag.js';
import { oclifFlags } from '../src/cli/oclif-flags.js';
import { EXIT_FAILURE } from '../src/cli/errors.js';
import { countFindings, FINDING_FORMATS, findingLine, findingToJson, plural, validationFails, type FindingFormat } from '../src/cli/finding-output.js';
import { notice, writeJson, writeLine } from '../src/cli/output.js';
import type { ValidationSummary } from '../src/service/validate-annotations.js';
import type { SceneValidationSummary } from '../src/render/scene-validation.js';

export default class Validate extends AnnotCommand {
  static override description = [
    'Check an annotation file (what the reader repaired, dropped or guessed; every body against its schema; every tier against its stereotype) or a scene file (schema, references to shots, characters and environments).',
    'Exit 0 when there are no errors, 1 when there are (or, with --strict or --max-warnings, too many warnings), 2 on a usage error.',
  ].join(' ');
  static override examples = [
    '<%= config.bin %> validate talk.annot',
    '<%= config.bin %> validate interview.eaf --format json',
    '<%= config.bin %> validate subtitles/*.vtt --format github --strict',
    'cat talk.srt | <%= config.bin %> validate - --from srt',
    '<%= config.bin %> validate fixtures/scenes/lighthouse.yaml',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format, a scene file, - for standard input, or a postgres://…?project=name URL', ignoreStdin: true, required: true }),
  };
  static override flags = {
    format: Flags.string({ description: 'output: text (file:line:col: severity: message [code]), json (one document), github (workflow commands)', options: [...FINDING_FORMATS], default: 'text' }),
    json: Flags.boolean({ description: 'the same as --format json' }),
    strict: Flags.boolean({ description: 'fail (exit 1) on warnings too' }),
    'max-warnings': Flags.integer({ description: 'fail (exit 1) when there are more warnings than this (-1: no limit)', min: -1 }),
    from: Flags.string({ description: 'input format, when the extension and content do not tell (scene for a scene on standard input)' }),
    rate: Flags.integer({ description: 'import rate for formats with float times', min: 1 }),
    ...oclifFlags(ENCODING_FLAG),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Validate);
    const format: FindingFormat = flags.json ? 'json' : (flags.format as FindingFormat);
    const [{ isSceneFile }, { validateAnnotationFile }, { spoolInput }, { isPostgresLocation, redactLocation }] = await Promise.all([
      import('../src/cli/scene-file-kind.js'),
      import('../src/service/validate-file.js'),
      import('../src/service/standard-input.js'),
      import('../src/service/open-service-store.js'),
    ]);
    const fromStdin = args.file === '-';
    const spooled = fromStdin ? await spoolInput(process.stdin) : undefined;
    const path = spooled?.path ?? args.file;
    const database = !fromStdin && isPostgresLocation(args.file);
    const file = fromStdin ? '<stdin>' : database ? redactLocation(args.file) : args.file;
    try {
      let report: Report;
      if (flags.from === 'scene' || (!fromStdin && !database && !flags.from && isSceneFile(path))) {
        // Loaded only for a scene, so validating an annotation file loads no render code.
        const { validateScene } = await import('../src/render/scene-validation.js');
        const scene = await validateScene(path, file);
        report = { kind: 'scene', file, format: 'scene', findings: scene.findings, scene };
      } else {
        const validation = await validateAnnotationFile(path, { from: flags.from, rate: flags.rate, encoding: flags.encoding, sourceName: database ? undefined : file });
        report = { kind: 'annotations', file, format: validation.format, findings: validation.findings, summary: validation.summary };
      }
      const counts = countFindings(report.findings);
      const failed = validationFails(counts, { strict: flags.strict, maxWarnings: flags['max-warnings'] });
      print(report, format, counts, failed, flags['max-warnings']);
      if (failed) process.exitCode = EXIT_FAILURE;
    } finally {
      spooled?.dispose();
    }
  }
}

type Report =
  | { kind: 'scene'; file: string; format: 'scene'; findings: Finding[]; scene: SceneValidationSummary }
  | { kind: 'annotations'; file: string; format: string; findings: Finding[]; summary: ValidationSummary | null };

function print(report: Report, format: FindingFormat, counts: { errors: number; warnings: number }, failed: boolean, maxWarnings: number | undefined): void {
  if (format === 'json') {
    const details = report.kind === 'scene' ? sceneDetails(report.scene) : annotationDetails(report.summary);
    writeJson(
      {
        file: report.file,
        format: report.format,
        valid: counts.errors === 0,
        passed: !failed,
        error_count: counts.errors,
        warning_count: counts.warnings,
        findings: report.findings.map(findingToJson),
        ...details,
      },
      true,
    );
    return;
  }
  for (const finding of report.findings) writeLine(findingLine(finding, format));
  const tally = `${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}`;
  const limit = maxWarnings !== undefined && maxWarnings >= 0 && counts.warnings > maxWarnings ? ` (more than --max-warnings ${maxWarnings})` : '';
  const state = counts.errors > 0 ? 'INVALID' : failed ? 'valid, but failing on its warnings' : 'valid';
  const verdict = `${report.file} (${report.format}): ${state}, ${tally}${limit}`;
  // In a workflow log only the commands belong on stdout; the verdict goes to stderr there.
  if (format === 'github') {
    notice(verdict);
    return;
  }
  writeLine(verdict);
  if (report.kind === 'scene') {
    const { scene } = report;
    if (scene.title !== null) writeLine(`  "${scene.title}": ${plural(scene.characters, 'character')}, ${plural(scene.environments, 'environment')}, ${plural(scene.shots, 'shot')}, ${plural(scene.beats, 'beat')}`);
    return;
  }
  const summary = report.summary;
  if (!summary) return;
  const span = summary.time_span ? `, ${summary.time_span.start}–${summary.time_span.end} s` : '';
  writeLine(`  ${plural(summary.annotations, 'annotation')} in ${plural(summary.tiers.length, 'tier')}${span}, ${plural(summary.assets.length, 'asset')}`);
  for (const tier of summary.tiers) {
    const kind = tier.parent ? `${tier.stereotype} of ${tier.parent}` : tier.stereotype;
    writeLine(`  tier ${tier.name} (${kind}): ${tier.annotations}`);
  }
  for (const asset of summary.assets) writeLine(`  asset ${asset}`);
  for (const schema of summary.schemas) writeLine(`  schema ${schema.uri}: ${schema.annotations}${schema.registered ? '' : ' (not registered: not checked)'}`);
}

function sceneDetails(scene: SceneValidationSummary): Record<string, unknown> {
  return { title: scene.title, characters: scene.characters, environments: scene.environments, shots: scene.shots, beats: scene.beats };
}

function annotationDetails(summary: ValidationSummary | null): Record<string, unknown> {
  if (!summary) return {};
  const { annotations, tiers, time_span, assets, schemas, violations } = summary;
  return { annotations, tiers, time_span, assets, schemas, violations };
}
