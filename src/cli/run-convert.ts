import { formatFinding } from '../adapters/finding.js';
import { plural } from './finding-output.js';
import { notice } from './output.js';
import { UsageError } from '../errors/annot-error.js';
import type { CONVERT_FLAGS } from './convert-flags.js';
import type { FlagValues } from './flag-specs.js';
import type { ConvertArguments } from './convert-arguments.js';


/**
 * `annot convert` as both the oclif command and the start-up fast path run it: `IN OUT` converts
 * one file (runConvert), `IN... --out-dir DIR --to FORMAT` a batch (run-convert-batch.ts).
 */
export async function runConvertCommand(positionals: readonly string[], flags: FlagValues<typeof CONVERT_FLAGS>): Promise<void> {
  const { 'out-dir': outDir, recursive, jobs, 'strict-time': strictTime, 'asset-id': assetId, shift, 'fps-from': fpsFrom, 'fps-to': fpsTo, scale, sync, within, fps, 'sync-to': syncTo, ...common } = flags;
  // The retime is checked before anything is read: a value it cannot read is a usage error naming its flag.
  const retimeFlags = { shift, 'fps-from': fpsFrom, 'fps-to': fpsTo, scale, sync, within, fps };
  let retime = Object.values(retimeFlags).every((value) => value === undefined) ? undefined : (await import('./retime-of-flags.js')).retimeOfFlags(retimeFlags);
  if (syncTo !== undefined) {
    const { checkSyncToFlags, retimeSyncedTo } = await import('./convert-sync-to.js');
    checkSyncToFlags(retime !== undefined, outDir !== undefined);
    if (positionals.length !== 2) throw new UsageError(`convert takes INPUT OUTPUT (${plural(positionals.length, 'argument')} given)`);
    const synced = await retimeSyncedTo({ input: positionals[0], media: syncTo, from: common.from, rate: common.rate, encoding: common.encoding, strict: common.strict });
    if (synced === null) return;
    retime = synced;
  }
  const shared = { ...common, strictTime, assetId, retime };
  if (outDir !== undefined) {
    const { runConvertBatch } = await import('./run-convert-batch.js');
    return runConvertBatch({ ...shared, inputs: positionals, outDir, recursive, jobs });
  }
  if (recursive || jobs !== undefined) throw new UsageError(`--${recursive ? 'recursive' : 'jobs'} goes with --out-dir DIR: annot convert IN... --out-dir DIR --to FORMAT`);
  if (positionals.length !== 2) throw new UsageError(`convert takes INPUT OUTPUT (${plural(positionals.length, 'argument')} given); to convert several files: annot convert IN... --out-dir DIR --to FORMAT`);
  return runConvert({ ...shared, input: positionals[0], output: positionals[1] });
}


/**
 * Runs a conversion and says on stderr what it did: findings and writer warnings as they come,
 * then the rounding, the losses and the file written. Shared by the oclif command and the
 * start-up fast path (fast-path.ts), so both print the very same lines.
 */
export async function runConvert(args: ConvertArguments): Promise<void> {
  const [{ convertFile }, { conversionProgress }, { redactLocation }] = await Promise.all([
    import('../service/convert-file.js'),
    import('./progress.js'),
    import('../service/open-service-store.js'),
  ]);
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
      retime: args.retime,
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
  if (report.retimed !== undefined) for (const line of (await import('./retime-of-flags.js')).retimeLines(report.retimed, args.retime)) notice(line);
  if (args.output !== '-') notice(`wrote ${redactLocation(args.output)} (${report.to}): ${plural(report.annotations, 'annotation')} in ${plural(report.tiers, 'tier')}`);
}
