import type { SourceLocation } from './errors.js';

/**
 * `error`: the file is broken (an end before its start, overlapping intervals where the format
 * forbids them, a reference to something missing). `warning`: the reader repaired, dropped or
 * guessed something (cues out of order, a dropped block, a rounded time, a non-standard timestamp).
 */
export type FindingSeverity = 'error' | 'warning';

/**
 * What a reader noticed while reading a file it still read. Codes are stable snake_case words
 * (`cue_end_before_start`, `block_dropped`), so CI tooling can filter on them.
 */
export interface Finding {
  /** What the reader noticed, as a stable snake_case code. */
  readonly code: string;
  /** Whether the finding is an error or a warning. */
  readonly severity: FindingSeverity;
  /** What the reader noticed, and what it did about it. */
  readonly message: string;
  /** The source as the user named it (a path, or `<stdin>`). */
  readonly file: string;
  /** Line and column, or a JSON pointer / XPath in `path`. */
  readonly location: SourceLocation;
  /**
   * The annotation a reader found the problem on, when it is one the store checks too (a body
   * that fails its schema, a broken tier constraint): validation then reports it once, here.
   */
  readonly annotation_id?: string;
}

/** `talk.vtt:12:5: warning: message [code]`, the shape compilers and linters print. */
export function formatFinding(finding: Finding): string {
  const { line, column, path } = finding.location;
  let where = finding.file;
  if (line !== undefined) where += `:${line}`;
  if (line !== undefined && column !== undefined) where += `:${column}`;
  if (path) where += ` (${path})`;
  return `${where}: ${finding.severity}: ${finding.message} [${finding.code}]`;
}
