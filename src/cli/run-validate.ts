import { EXIT_FAILURE } from './errors.js';
import { countFindings, validationFails, type FindingFormat } from './finding-output.js';
import type { FlagValues } from './flag-specs.js';
import type { VALIDATE_FLAGS } from './validate-flags.js';
import { printValidationReport, type ValidationReport } from './validation-report-view.js';

type ValidateFlags = FlagValues<typeof VALIDATE_FLAGS>;

/**
 * `annot validate FILE` as both the oclif command and the start-up fast path run it: the file's
 * report printed in the chosen format, and exit status 1 when it fails (errors, or warnings under
 * --strict or past --max-warnings). `-` is standard input.
 */
export async function runValidate(file: string, flags: ValidateFlags): Promise<void> {
  const format: FindingFormat = flags.json ? 'json' : (flags.format as FindingFormat);
  const report = await validationReport(file, flags);
  const counts = countFindings(report.findings);
  const failed = validationFails(counts, { strict: flags.strict, maxWarnings: flags['max-warnings'] });
  printValidationReport(report, format, { counts, failed, maxWarnings: flags['max-warnings'] });
  if (failed) process.exitCode = EXIT_FAILURE;
}

/** Validates the file as a scene (by `--from scene` or its content) or as annotations, under the name the findings give it. */
async function validationReport(file: string, flags: ValidateFlags): Promise<ValidationReport> {
  const [{ isSceneFile }, { validateAnnotationFile }, { spoolInput }, { isPostgresLocation, redactLocation }] = await Promise.all([
    import('./scene-file-kind.js'),
    import('../service/validate-file.js'),
    import('../service/standard-input.js'),
    import('../service/open-service-store.js'),
  ]);
  const fromStdin = file === '-';
  const spooled = fromStdin ? await spoolInput(process.stdin) : undefined;
  const path = spooled?.path ?? file;
  const database = !fromStdin && isPostgresLocation(file);
  const name = fromStdin ? '<stdin>' : database ? redactLocation(file) : file;
  try {
    if (flags.from === 'scene' || (!fromStdin && !database && !flags.from && isSceneFile(path))) {
      // Loaded only for a scene, so validating an annotation file loads no render code.
      const { validateScene } = await import('../render/scene-validation.js');
      const scene = await validateScene(path, name);
      return { kind: 'scene', file: name, format: 'scene', findings: scene.findings, scene };
    }
    const validation = await validateAnnotationFile(path, { from: flags.from, rate: flags.rate, encoding: flags.encoding, sourceName: database ? undefined : name });
    return { kind: 'annotations', file: name, format: validation.format, findings: validation.findings, summary: validation.summary };
  } finally {
    spooled?.dispose();
  }
}
