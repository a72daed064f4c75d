import type { AnnotationService } from '../service/annotation-service.js';
import type { ValidationIssue } from '../schemas/validation-issue.js';

/** How far a run has got: `done` of `total` items of its current phase (`total` null when unknown). */
export interface ProcessorProgress {
  readonly phase: string;
  readonly done: number;
  readonly total: number | null;
}

export interface ProcessorContext {
  /** Who the run's op-log entries and provenance name: `processor:<name>` unless the caller said otherwise. */
  readonly actor: string;
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
  readonly name: string;
  readonly description: string;
  readonly paramsSchema: Readonly<Record<string, unknown>>;
  checkParams?(params: Readonly<Record<string, unknown>>): ValidationIssue[];
  run(service: AnnotationService, params: Readonly<Record<string, unknown>>, context: ProcessorContext): Promise<ProcessorResult>;
}
