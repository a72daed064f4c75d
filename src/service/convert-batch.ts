import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pLimit from 'p-limit';
import type { Finding } from '../adapters/finding.js';
import { convertFile, type ConvertReport, type ConvertRequest } from './convert-file.js';
import type { BatchJob, BatchPlan } from './convert-batch-plan.js';

/** What every conversion of a batch shares: the flags of `annot convert` but the files. */
export type BatchConvertOptions = Omit<ConvertRequest, 'input' | 'output' | 'to' | 'warn' | 'report' | 'onProgress' | 'stdin' | 'stdout'>;

/** What a batch tells as it goes, one call per input, in the order they finish. */
export interface BatchEvents {
  readonly converted: (job: BatchJob, report: ConvertReport) => void | Promise<void>;
  readonly failed: (job: BatchJob, error: unknown) => void | Promise<void>;
  /** What the writer of one output could not keep. */
  readonly warned: (job: BatchJob, message: string) => void;
  /** What the reader of one input repaired, dropped or guessed. */
  readonly found: (job: BatchJob, finding: Finding) => void;
}

export interface BatchOutcome {
  readonly written: number;
  readonly failed: number;
}

/**
 * Converts the jobs of a plan, up to `jobs` at once, in this process: each conversion is the
 * single-file one (convertFile), so each output is written through a temporary and renamed into
 * place, and a failed input leaves nothing behind. A failure is told and the others go on.
 * In-process rather than worker threads: the conversions of small files are mostly start-up and
 * file I/O, which overlap here, and every temporary stays registered with this process, so an
 * interrupted batch removes them all (io/temporary-files.ts).
 */
export async function convertBatch(plan: BatchPlan, options: BatchConvertOptions & { readonly jobs: number }, events: BatchEvents): Promise<BatchOutcome> {
  const limit = pLimit(options.jobs);
  const tally = { written: 0, failed: 0 };
  const { jobs: _concurrency, ...shared } = options;
  const convertOne = async (job: BatchJob): Promise<void> => {
    let report: ConvertReport;
    try {
      mkdirSync(dirname(job.output), { recursive: true });
      report = await convertFile({
        ...shared,
        input: job.input,
        output: job.output,
        to: plan.target.name,
        warn: (message) => events.warned(job, message),
        report: (finding) => events.found(job, finding),
      });
    } catch (error) {
      tally.failed++;
      await events.failed(job, error);
      return;
    }
    tally.written++;
    await events.converted(job, report);
  };
  await Promise.all(plan.jobs.map((job) => limit(() => convertOne(job))));
  return tally;
}
