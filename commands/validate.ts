import { formatFinding } from '../src/adapters/finding.js';
import { Args, Flags } from '@oclif/core';
import { AnnotCommand } from '../src/cli/base-command.js';
import { notice, writeJson, writeLine } from '../src/cli/output.js';
import type { ValidationSummary } from '../src/service/validate-annotations.js';

export default class Validate extends AnnotCommand {
  static override description =
    'Check an annotation file (parse it, validate every body against its schema and every tier against its stereotype) or a scene file (schema, plus warnings for what rendering would skip). Exit 0 when valid, 1 when not';
  static override examples = [
    '<%= config.bin %> validate talk.annot',
    '<%= config.bin %> validate interview.eaf --json',
    '<%= config.bin %> validate fixtures/scenes/lighthouse.yaml',
  ];
  static override args = {
    file: Args.string({ description: 'an annotation file in any format', ignoreStdin: true, required: true }),
  };
  static override flags = {
    json: Flags.boolean({ description: 'print the summary as one JSON document' }),
    from: Flags.string({ description: 'input format, when the extension and content do not tell' }),
    rate: Flags.integer({ description: 'import rate for formats with float times', min: 1 }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Validate);
    const sceneFiles = await import('../src/service/validate-scene.js');
    if (sceneFiles.isSceneFile(args.file)) {
      const summary = await sceneFiles.validateScene(args.file);
      if (flags.json) writeJson({ file: args.file, format: 'scene', ...summary }, true);
      else {
        writeLine(`${args.file} (scene): valid`);
        writeLine(`  "${summary.title}": ${summary.characters} characters, ${summary.environments} environments, ${summary.shots} shots, ${summary.beats} beats`);
        for (const warning of summary.warnings) notice(`warning: ${args.file}${warning.line ? `:${warning.line}` : ''}: ${warning.field}: ${warning.message}`);
      }
      return;
    }
    const [{ openAnnotationFile }, { validateAnnotations }, { registerBuiltinFormats }] = await Promise.all([
      import('../src/service/open-annotation-file.js'),
      import('../src/service/validate-annotations.js'),
      import('../src/adapters/builtin.js'),
    ]);
    registerBuiltinFormats();
    const warnings: string[] = [];
    const opened = await openAnnotationFile(args.file, { from: flags.from, rate: flags.rate, report: (finding) => warnings.push(formatFinding(finding)) });
    let summary: ValidationSummary;
    try {
      summary = await validateAnnotations(opened.store);
    } finally {
      await opened.store.close();
    }
    const report = { file: args.file, format: opened.format.name, ...summary, warnings: [...warnings, ...summary.warnings] };
    if (flags.json) writeJson(report, true);
    else printSummary(report);
    if (!summary.valid) process.exitCode = 1;
  }
}

function printSummary(report: ValidationSummary & { file: string; format: string }): void {
  const span = report.time_span ? `, ${report.time_span.start}–${report.time_span.end} s` : '';
  writeLine(`${report.file} (${report.format}): ${report.valid ? 'valid' : `INVALID, ${report.violations.length} problem(s)`}`);
  writeLine(`  ${report.annotations} annotations in ${report.tiers.length} tiers${span}, ${report.assets.length} asset(s)`);
  for (const tier of report.tiers) {
    const kind = tier.parent ? `${tier.stereotype} of ${tier.parent}` : tier.stereotype;
    writeLine(`  tier ${tier.name} (${kind}): ${tier.annotations}`);
  }
  for (const asset of report.assets) writeLine(`  asset ${asset}`);
  for (const schema of report.schemas) writeLine(`  schema ${schema.uri}: ${schema.annotations}${schema.registered ? '' : ' (not registered: not checked)'}`);
  for (const warning of report.warnings) notice(`warning: ${warning}`);
  for (const violation of report.violations) {
    const who = violation.annotation_id ? `annotation ${violation.annotation_id}` : `tier ${violation.tier}`;
    writeLine(`  ${violation.code}: ${who}: ${violation.message}`);
  }
}
