import { formatFinding, type Finding } from '../adapters/finding.js';

/** The output formats of `annot validate --format`. */
export const FINDING_FORMATS = ['text', 'json', 'github'] as const;
export type FindingFormat = (typeof FINDING_FORMATS)[number];

/** A finding as one line of the chosen format (`json` is one document, written elsewhere). */
export function findingLine(finding: Finding, format: 'text' | 'github'): string {
  return format === 'github' ? githubCommand(finding) : formatFinding(finding);
}

/**
 * A GitHub Actions workflow command (`::error file=talk.vtt,line=3,col=1,title=cue_end_before_start::…`),
 * so the finding is shown on the pull request's line. Escaping follows the runner's own rules
 * (actions/toolkit `command.ts`): `%`, CR and LF in the message; those plus `:` and `,` in
 * property values.
 */
export function githubCommand(finding: Finding): string {
  const properties: string[] = [`file=${escapeProperty(finding.file)}`];
  if (finding.location.line !== undefined) properties.push(`line=${finding.location.line}`);
  if (finding.location.line !== undefined && finding.location.column !== undefined) properties.push(`col=${finding.location.column}`);
  properties.push(`title=${escapeProperty(finding.code)}`);
  const where = finding.location.path ? ` (${finding.location.path})` : '';
  return `::${finding.severity} ${properties.join(',')}::${escapeData(finding.message + where)}`;
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A finding in the JSON report: flat, snake_case, absent positions left out. */
export function findingToJson(finding: Finding): Record<string, unknown> {
  const { line, column, path } = finding.location;
  return {
    code: finding.code,
    severity: finding.severity,
    message: finding.message,
    file: finding.file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(path !== undefined ? { path } : {}),
  };
}

export interface FindingCounts {
  readonly errors: number;
  readonly warnings: number;
}

export function countFindings(findings: readonly Finding[]): FindingCounts {
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  return { errors, warnings: findings.length - errors };
}

/**
 * Whether a validation fails, as eslint decides it: any error fails; warnings fail under
 * `--strict`, or when there are more than `--max-warnings` of them.
 */
export function validationFails(counts: FindingCounts, policy: { strict?: boolean; maxWarnings?: number }): boolean {
  if (counts.errors > 0) return true;
  if (policy.strict && counts.warnings > 0) return true;
  return policy.maxWarnings !== undefined && policy.maxWarnings >= 0 && counts.warnings > policy.maxWarnings;
}

/** `1 annotation`, `2 annotations`: the plural every count in a message needs. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${groupedDigits(count)} ${count === 1 ? singular : pluralForm}`;
}

/**
 * `100,000`: digits grouped by threes, as en-US writes them. Not toLocaleString: its first call
 * loads ICU's number formatting, 20 ms of every conversion's start-up.
 */
export function groupedDigits(count: number): string {
  const digits = String(Math.abs(Math.trunc(count)));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return (count < 0 ? '-' : '') + grouped;
}
