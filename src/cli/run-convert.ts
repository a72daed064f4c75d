import { formatFinding } from '../adapters/finding.js';
import { plural } from './finding-output.js';
import { notice } from './output.js';

/** `annot convert`'s arguments and flags, as oclif parses them (and the start-up fast path does). */
export interface ConvertArguments {
  readonly input: string;
  readonly output: string;
  readonly from?: string;
  readonly to?: string;
  readonly rate?: number;
  readonly encoding?: string;
  readonly strict?: boolean;
  readonly strictTime?: boolean;
  readonly assetId?: string;
  readonly tier?: string;
  readonly variant?: string;
}

/**
 * Runs a conversion and says on stderr what it did: findings and writer warnings as they come,
 * then the rounding, the losses and the file written. Shared by the oclif command and the
 * start-up fast path (fast-path.ts), so both print the very same lines.
 */
export async function runConvert(args: ConvertArguments): Promise<void> {
  const [{ convertFile }, { registerBuiltinFormats }, { conversionProgress }, { redactLocation }] = await Promise.all([
    import('../service/convert-file.js'),
    import('../adapters/builtin.js'),
    import('./progress.js'),
    import('../service/open-service-store.js'),
  ]);
  registerBuiltinFormats();
  const progress = conversionProgress();
  let report;
  try {
    report = await convertFile({
      input: args.input,
      output: args.output,
      from: args.from,
      to: args.to,
      rate: args.rate,
      encoding: args.encoding,
      strictTime: args.strictTime,
      assetId: args.assetId,
      tier: args.tier,
      variant: args.variant,
      strict: args.strict,
      warn: (message) => notice(`warning: ${message}`),
      report: (finding) => notice(formatFinding(finding)),
      onProgress: progress.update,
    });
  } finally {
    progress.stop();
  }
  if (report.quantized.count > 0) {
    notice(`${report.from}: ${plural(report.quantized.count, 'time')} rounded to the import rate, largest error ${report.quantized.maxErrorSeconds.toExponential(2)} s (--rate to choose another, --strict-time to refuse)`);
  }
  for (const { what, count } of report.dropped) {
    notice(`${report.to} keeps no ${what}: dropped for ${plural(count, 'annotation')}`);
  }
  if (args.output !== '-') notice(`wrote ${redactLocation(args.output)} (${report.to}): ${plural(report.annotations, 'annotation')} in ${plural(report.tiers, 'tier')}`);
}
