import type { Finding } from '../adapters/finding.js';
import type { SceneValidationSummary } from '../render/scene-validation.js';
import type { ValidationSummary } from '../service/validate-annotations.js';
import { findingLine, findingToJson, plural, type FindingCounts, type FindingFormat } from './finding-output.js';
import { notice, writeJson, writeLine } from './output.js';

/** What `annot validate` found in one file: an annotation file's findings and summary, or a scene's. */
export type ValidationReport =
  | { kind: 'scene'; file: string; format: 'scene'; findings: Finding[]; scene: SceneValidationSummary }
  | { kind: 'annotations'; file: string; format: string; findings: Finding[]; summary: ValidationSummary | null };

/** How the report is judged: the counts, whether it fails, and the --max-warnings it was held to. */
export interface ValidationVerdict {
  readonly counts: FindingCounts;
  readonly failed: boolean;
  readonly maxWarnings: number | undefined;
}

/**
 * The report in the chosen format: one JSON document, or the findings as lines (text, or GitHub
 * workflow commands) followed by the verdict and the summary.
 */
export function printValidationReport(report: ValidationReport, format: FindingFormat, verdict: ValidationVerdict): void {
  const { counts, failed, maxWarnings } = verdict;
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
  const verdictLine = `${report.file} (${report.format}): ${state}, ${tally}${limit}`;
  // In a workflow log only the commands belong on stdout; the verdict goes to stderr there.
  if (format === 'github') {
    notice(verdictLine);
    return;
  }
  writeLine(verdictLine);
  if (report.kind === 'scene') printSceneSummary(report.scene);
  else if (report.summary) printAnnotationSummary(report.summary);
}

function printSceneSummary(scene: SceneValidationSummary): void {
  if (scene.title !== null) writeLine(`  "${scene.title}": ${plural(scene.characters, 'character')}, ${plural(scene.environments, 'environment')}, ${plural(scene.shots, 'shot')}, ${plural(scene.beats, 'beat')}`);
}

function printAnnotationSummary(summary: ValidationSummary): void {
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
