import type { AnnotationService } from '../service/annotation-service.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** How far a run has got: `done` of `total` items of its current phase (`total` null when unknown). */
export interface ProcessorProgress {
  /** The phase it is in (`scan`, `count`, `write`...). */
  readonly phase: string;
  /** How much of the phase is done. */
  readonly done: number;
  /** How much there is to do in the phase, when known. */
  readonly total: number | null;
}

/** What a running processor is given beside the service and its parameters. */
export interface ProcessorContext {
  /** Who the run's op-log entries and provenance name: `processor:<name>` unless the caller said otherwise. */
  readonly actor: string;
  /** Where it reports its progress. */
  readonly onProgress: (progress: ProcessorProgress) => void;
  /** Aborted when the caller gives up; a processor checks it between steps and stops before writing. */
  readonly signal: AbortSignal;
}

/** A run's outcome: a JSON object the CLI prints and the queue keeps as the job's return value. */
export type ProcessorResult = Record<string, unknown>;

/**
 * A named piece of background work over one store. Its params are described by a JSON Schema
 * (an object schema whose properties may carry `default`s), so the CLI, the queue and the
 * library check them the same way before anything runs; `checkParams` adds the checks a schema
 * cannot express. Every change `run` makes goes through the service, so it is in the op-log.
 */
export interface Processor {
  /** The name a processor is run by (`annot process NAME`). */
  readonly name: string;
  /** What it does, in one line. */
  readonly description: string;
  /** The JSON Schema of its parameters. */
  readonly paramsSchema: Readonly<Record<string, unknown>>;
  /** Checks of its parameters beyond the schema; each problem with its path. */
  checkParams?(params: Readonly<Record<string, unknown>>): ValidationIssue[];
  /** Runs it on the service's store, with checked parameters. */
  run(service: AnnotationService, params: Readonly<Record<string, unknown>>, context: ProcessorContext): Promise<ProcessorResult>;
}
