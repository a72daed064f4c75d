import { availableParallelism } from 'node:os';
import { formatFinding } from '../adapters/finding.js';
import type { BatchJob } from '../service/convert-batch-plan.js';
import type { ConvertReport } from '../service/convert-file.js';
import type { BatchProgress } from './batch-progress.js';
import { describeFailure } from './errors.js';
import { plural } from './finding-output.js';
import { notice, stdoutIsTerminal, writeJsonLine } from './output.js';
import type { ConvertArguments } from './convert-arguments.js';

/** `annot convert IN... --out-dir DIR --to FORMAT [--recursive] [--jobs N]`. */
export interface BatchConvertArguments extends Omit<ConvertArguments, 'input' | 'output'> {
  readonly inputs: readonly string[];
  readonly outDir: string;
  readonly recursive?: boolean;
  readonly jobs?: number;
}

/**
 * Runs a batch conversion and says what it did: on a terminal one progress bar (stderr), else one
 * JSON line per input on stdout (written, failed or skipped); findings, warnings and each failure
 * as lines on stderr either way. Ends with ANNOT_CONVERT_BATCH_FAILED (exit 1) when any input
 * failed, after every other input was written.
 */
export async function runConvertBatch(args: BatchConvertArguments): Promise<void> {
  const [{ planBatch }, { convertBatch }, { ConvertBatchFailedError }] = await Promise.all([
    import('../service/convert-batch-plan.js'),
    import('../service/convert-batch.js'),
    import('../service/errors.js'),
  ]);
  const plan = planBatch({ inputs: args.inputs, outDir: args.outDir, to: args.to, recursive: args.recursive });
  const bar = stdoutIsTerminal() && process.stderr.isTTY ? await (await import('./batch-progress.js')).batchProgress(plan.jobs.length) : null;
  const say = bar ? bar.say : notice;
  if (!bar) for (const input of plan.skipped) await writeJsonLine({ input, skipped: 'no format claims its extension' });
  if (plan.skipped.length > 0) say(`skipped ${plural(plan.skipped.length, 'file')} whose extension no format claims: ${listed(plan.skipped)}`);
  let outcome;
  try {
    outcome = await convertBatch(plan, { ...args, jobs: args.jobs ?? availableParallelism() }, {
      converted: (job, report) => converted(job, report, bar, say),
      failed: (job, error) => failed(job, error, bar, say),
      warned: (job, message) => say(`warning: ${job.input}: ${message}`),
      found: (_job, finding) => say(formatFinding(finding)),
    });
  } finally {
    bar?.stop();
  }
  const into = `into ${args.outDir} (${plan.target.name})`;
  if (outcome.failed === 0) {
    notice(`wrote ${plural(outcome.written, 'file')} ${into}`);
    return;
  }
  throw new ConvertBatchFailedError(`${outcome.failed} of ${plural(plan.jobs.length, 'input')} failed (named above); the other ${outcome.written} written ${into}`);
}

async function converted(job: BatchJob, report: ConvertReport, bar: BatchProgress | null, say: (text: string) => void): Promise<void> {
  if (report.quantized.count > 0) say(`${job.input}: ${plural(report.quantized.count, 'time')} rounded to the import rate, largest error ${report.quantized.maxErrorSeconds.toExponential(2)} s`);
  for (const { what, count } of report.dropped) say(`${job.input}: ${report.to} keeps no ${what}: dropped for ${plural(count, 'annotation')}`);
  // The retimed count alone would be a line per file; only what a retime lost is said.
  for (const line of report.retimed?.findings ?? []) say(`warning: ${job.input}: retime: ${line}`);
  if (bar) bar.done(false);
  else await writeJsonLine({ input: job.input, output: job.output, from: report.from, to: report.to, annotations: report.annotations, tiers: report.tiers });
}

async function failed(job: BatchJob, error: unknown, bar: BatchProgress | null, say: (text: string) => void): Promise<void> {
  const failure = describeFailure(error);
  // Readers name their file already; an error that does not (a missing file's) gets the input's name.
  const message = failure.message.includes(job.input) ? failure.message : `${job.input}: ${failure.message}`;
  say(`annot: ${message} [${failure.code}]`);
  if (bar) bar.done(true);
  else await writeJsonLine({ input: job.input, output: job.output, error: message, code: failure.code });
}

function listed(paths: readonly string[]): string {
  return paths.length > 3 ? `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more` : paths.join(', ');
}
