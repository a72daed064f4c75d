import { FormatParseError, TextDecodingError } from '../adapters/errors.js';
import type { Finding } from '../adapters/finding.js';
import type { AnnotationStore } from '../store/store.js';
import { openAnnotationFile } from './open-annotation-file.js';
import { isPostgresLocation, openServiceStore, redactLocation } from './open-service-store.js';
import { tierNameFindingsOfFile } from './tier-name-findings.js';
import { validateAnnotations, type ValidationSummary } from './validate-annotations.js';

export interface AnnotationFileValidation {
  readonly file: string;
  readonly format: string;
  /** Null when the file could not be read at all (its parse error is among the findings). */
  readonly summary: ValidationSummary | null;
  /** The reader's findings, a parse error, and every violation the store checks found, in that order. */
  readonly findings: Finding[];
}

export interface ValidateFileOptions {
  readonly from?: string;
  readonly rate?: number;
  /** `--encoding`: the text encoding of the file (a byte-order mark still decides). */
  readonly encoding?: string;
  /** The name findings carry: the path as typed, or `<stdin>` for a spooled standard input. */
  readonly sourceName?: string;
}

/**
 * Validates an annotation file as a CI wants it: what the reader repaired, dropped or guessed,
 * a parse error with its position (the file is then not read further), and the store's own
 * checks (body schemas, tier constraints), all as findings with a code and a severity.
 */
export async function validateAnnotationFile(path: string, options: ValidateFileOptions = {}): Promise<AnnotationFileValidation> {
  const file = options.sourceName ?? (isPostgresLocation(path) ? redactLocation(path) : path);
  const findings: Finding[] = [];
  let opened: OpenedForValidation;
  try {
    opened = await openForValidation(path, file, options, findings);
  } catch (error) {
    if (!(error instanceof FormatParseError)) throw error;
    // Bytes that do not decode are told apart from a syntax error: the fix is an encoding, not an edit.
    findings.push({ code: error instanceof TextDecodingError ? 'text_encoding' : 'parse_error', severity: 'error', file, location: error.location, message: error.expected });
    return { file, format: options.from ?? 'unknown', summary: null, findings };
  }
  let summary: ValidationSummary;
  let tierNames: string[];
  try {
    summary = await validateAnnotations(opened.store);
    tierNames = (await opened.store.listTiers()).map((tier) => tier.name);
  } finally {
    await opened.store.close();
  }
  const { count, maxErrorSeconds } = opened.quantization;
  if (count > 0) {
    findings.push({
      code: 'time_rounded',
      severity: 'warning',
      file,
      location: {},
      message: `${count} ${count === 1 ? 'time was' : 'times were'} rounded to the import rate, largest error ${maxErrorSeconds.toExponential(2)} s (--rate to choose another)`,
    });
  }
  // A problem the reader already reported at its place in the file is not reported again.
  const reported = new Set(findings.filter((finding) => finding.annotation_id !== undefined).map((finding) => `${finding.annotation_id}\u0000${finding.code}`));
  for (const violation of summary.violations) {
    if (violation.annotation_id !== null && reported.has(`${violation.annotation_id}\u0000${violation.code}`)) continue;
    const who = violation.annotation_id ? `annotation ${violation.annotation_id} on tier ${violation.tier}` : `tier ${violation.tier}`;
    findings.push({ code: violation.code, severity: 'error', file, location: {}, message: `${who}: ${violation.message}` });
  }
  findings.push(...tierNameFindingsOfFile(tierNames, file, opened.textPath, options.encoding));
  for (const schema of summary.schemas) {
    if (schema.registered) continue;
    findings.push({
      code: 'schema_unregistered',
      severity: 'warning',
      file,
      location: {},
      message: `body schema ${schema.uri} is not registered in this build: its ${schema.annotations} ${schema.annotations === 1 ? 'body was' : 'bodies were'} not checked`,
    });
  }
  return { file, format: opened.format, summary, findings };
}

interface OpenedForValidation {
  readonly store: AnnotationStore;
  readonly format: string;
  readonly quantization: { count: number; maxErrorSeconds: number };
  /** The file whose text the tier-name checks read (null for a store: `.annot` or a database). */
  readonly textPath: string | null;
}

/** A file through its reader, or a PostgreSQL project as a store (never created by a validation). */
async function openForValidation(path: string, file: string, options: ValidateFileOptions, findings: Finding[]): Promise<OpenedForValidation> {
  if (isPostgresLocation(path)) {
    return { store: await openServiceStore(path), format: 'postgres', quantization: { count: 0, maxErrorSeconds: 0 }, textPath: null };
  }
  const opened = await openAnnotationFile(path, { from: options.from, rate: options.rate, encoding: options.encoding, sourceName: file, report: (finding) => findings.push(finding) });
  return { store: opened.store, format: opened.format.name, quantization: opened.quantization, textPath: opened.inPlace ? null : path };
}
