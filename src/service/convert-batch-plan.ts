import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { FormatAdapter } from '../adapters/adapter.js';
import { adaptersForFileName, getAdapter } from '../adapters/registry.js';
import { UsageError } from '../errors/annot-error.js';
import { ConvertOutputClashError } from './errors.js';

/** What a batch conversion is asked: inputs (files or, with `recursive`, folders), the folder and format to write. */
export interface BatchPlanRequest {
  readonly inputs: readonly string[];
  readonly outDir: string;
  readonly to: string | undefined;
  readonly recursive?: boolean;
}

/** One conversion of a batch: the input as the user named it (or as found in a folder) and its output path. */
export interface BatchJob {
  readonly input: string;
  readonly output: string;
}

export interface BatchPlan {
  readonly target: FormatAdapter;
  readonly jobs: readonly BatchJob[];
  /** Files inside folder inputs whose names no format claims: not converted, and said so. */
  readonly skipped: readonly string[];
}

/**
 * The outputs of a batch conversion, decided before anything is read or written: a file input
 * becomes `<out-dir>/<its name, with the extension of --to>`, a file found in a folder input (with
 * --recursive) keeps its sub-folder under --out-dir. Inside folders only files whose extension a
 * format claims are taken (the others are listed as skipped), and hidden files and the output
 * folder itself are passed over. Two inputs that would write one output, or an output that is an
 * input, refuse the whole batch.
 */
export function planBatch(request: BatchPlanRequest): BatchPlan {
  if (request.to === undefined) throw new UsageError('converting into --out-dir needs --to FORMAT (the format of every output)');
  if (request.inputs.length === 0) throw new UsageError('convert --out-dir needs at least one input file');
  const target = getAdapter(request.to);
  const jobs: BatchJob[] = [];
  const skipped: string[] = [];
  const outDir = resolve(request.outDir);
  for (const input of request.inputs) {
    if (input === '-') throw new UsageError('standard input (-) cannot be one of several inputs; convert it alone: annot convert - OUT --from FORMAT');
    if (!isFolder(input)) {
      jobs.push({ input, output: join(request.outDir, outputName(input, target)) });
      continue;
    }
    if (!request.recursive) throw new UsageError(`${input} is a folder: add --recursive to convert the files inside it`);
    for (const found of filesInside(input, outDir)) {
      if (adaptersForFileName(found).length === 0) skipped.push(join(input, found));
      else jobs.push({ input: join(input, found), output: join(request.outDir, dirname(found), outputName(found, target)) });
    }
  }
  refuseClashes(jobs);
  return { target, jobs, skipped };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a missing input is converted like any other and fails with its own error, named
  }
}

/** The files under `folder`, as paths relative to it, sorted; hidden entries and `outDir` are passed over. */
function filesInside(folder: string, outDir: string): string[] {
  const found: string[] = [];
  const walk = (relativeFolder: string): void => {
    const entries = readdirSync(join(folder, relativeFolder), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(relativeFolder, entry.name);
      if (entry.isDirectory() && resolve(folder, path) !== outDir) walk(path);
      else if (entry.isFile()) found.push(path);
    }
  };
  walk('');
  return found;
}

/** The input's name with its format extension (the longest a format claims, else its last one) replaced by the target's. */
function outputName(input: string, target: FormatAdapter): string {
  const name = basename(input);
  const lower = name.toLowerCase();
  const claimed = adaptersForFileName(name)
    .flatMap((adapter) => adapter.extensions)
    .filter((extension) => lower.endsWith(extension) && lower.length > extension.length)
    .sort((a, b) => b.length - a.length)[0];
  const stem = name.slice(0, name.length - (claimed?.length ?? extname(name).length));
  return stem + (target.extensions[0] ?? '');
}

function refuseClashes(jobs: readonly BatchJob[]): void {
  const inputs = new Set(jobs.map((job) => resolve(job.input)));
  const byOutput = new Map<string, string>();
  const clashes: string[] = [];
  for (const job of jobs) {
    const output = resolve(job.output);
    const earlier = byOutput.get(output);
    if (earlier !== undefined) clashes.push(`${earlier} and ${job.input} would both write ${job.output}`);
    else if (inputs.has(output)) clashes.push(`${job.input} would write ${job.output}, which is an input`);
    byOutput.set(output, earlier ?? job.input);
  }
  if (clashes.length === 0) return;
  const more = clashes.length > 3 ? ` (and ${clashes.length - 3} more)` : '';
  throw new ConvertOutputClashError(`${clashes.slice(0, 3).join('; ')}${more}; nothing was written`);
}
