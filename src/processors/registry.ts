import type { ValidateFunction } from 'ajv';
import { withProcessorSpan } from '../telemetry/tracing.js';
import { AnnotError } from '../errors/annot-error.js';
import { createAjv, issuesFromAjv } from '../schemas/ajv.js';
import type { AnnotationService } from '../service/annotation-service.js';
import { densityChangePoints } from './density-change-points.js';
import { ProcessorFailedError, ProcessorParamsError, UnknownProcessorError } from './errors.js';
import { lowConfidenceReview } from './low-confidence-review.js';
import type { Processor, ProcessorProgress, ProcessorResult } from './processor.js';

/** Options of runProcessor. */
export interface RunProcessorOptions {
  /** Default `processor:<name>`. */
  readonly actor?: string;
  /** Told about the processor's progress. */
  readonly onProgress?: (progress: ProcessorProgress) => void;
  /** Aborting stops the processor at its next check. */
  readonly signal?: AbortSignal;
}

/** What `listProcessors` tells about a processor: enough to show `annot process --list` and to build a form. */
export interface ProcessorInfo {
  /** The processor's name. */
  readonly name: string;
  /** What it does, in one line. */
  readonly description: string;
  /** The JSON Schema of its parameters. */
  readonly params_schema: Readonly<Record<string, unknown>>;
}

const processors = new Map<string, Processor>();
const validators = new WeakMap<Processor, ValidateFunction>();
const ajv = createAjv();

/** Registers a processor under its name; registering the same name again replaces it. */
export function registerProcessor(processor: Processor): void {
  if (typeof processor?.name !== 'string' || !/^[a-z][a-z0-9_]*$/.test(processor.name)) {
    throw new TypeError(`registerProcessor: a processor name is lower_snake_case, got ${JSON.stringify(processor?.name)}`);
  }
  // Compiled now, so a broken params schema fails at registration and not at the first run.
  validators.set(processor, ajv.compile(processor.paramsSchema));
  processors.set(processor.name, processor);
}

/** Removes a processor (custom ones, in tests and benchmarks); false when none had the name. */
export function unregisterProcessor(name: string): boolean {
  return processors.delete(name);
}

/** The registered processors by name. */
export function listProcessors(): ProcessorInfo[] {
  return [...processors.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((processor) => ({ name: processor.name, description: processor.description, params_schema: processor.paramsSchema }));
}

/** The registered processor of this name (UnknownProcessorError, with a did-you-mean, when none is). */
export function getProcessor(name: string): Processor {
  const processor = processors.get(name);
  if (!processor) throw new UnknownProcessorError(name, [...processors.keys()].sort());
  return processor;
}

/**
 * The params a run of `name` gets: the given ones with the schema's defaults filled in,
 * checked against the params schema and the processor's own checks. Throws
 * ProcessorParamsError naming every offending param; the queue calls this before enqueueing,
 * so a job with bad params is refused at once rather than failing on a worker.
 */
export function resolveProcessorParams(name: string, params: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const processor = getProcessor(name);
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new ProcessorParamsError(name, [{ path: 'params', message: 'expected an object of named params', keyword: 'type' }]);
  }
  const resolved: Record<string, unknown> = { ...withDefaults(processor.paramsSchema, params) };
  const validate = validators.get(processor) as ValidateFunction;
  if (!validate(resolved)) throw new ProcessorParamsError(name, issuesFromAjv(validate.errors, 'params'));
  const issues = processor.checkParams?.(resolved) ?? [];
  if (issues.length > 0) throw new ProcessorParamsError(name, issues);
  return resolved;
}

/**
 * Runs a processor in this process against the service's store and returns its result. Our
 * own errors (bad params, unknown tiers, refused writes) come out as they are; anything else a
 * processor throws is a ProcessorFailedError naming the processor, with the original as cause.
 */
export async function runProcessor(
  name: string,
  service: AnnotationService,
  params: Readonly<Record<string, unknown>> = {},
  options: RunProcessorOptions = {},
): Promise<ProcessorResult> {
  const processor = getProcessor(name);
  const resolved = resolveProcessorParams(name, params);
  const signal = options.signal ?? new AbortController().signal;
  signal.throwIfAborted();
  try {
    return await withProcessorSpan(name, () =>
      processor.run(service, resolved, {
        actor: options.actor ?? `processor:${name}`,
        onProgress: options.onProgress ?? (() => {}),
        signal,
      }),
    );
  } catch (error) {
    if (error instanceof AnnotError || signal.aborted) throw error;
    throw new ProcessorFailedError(`processor "${name}" failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function withDefaults(schema: Readonly<Record<string, unknown>>, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { default?: unknown }>;
  const filled: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.default !== undefined) filled[key] = property.default;
  }
  return { ...filled, ...params };
}

registerProcessor(lowConfidenceReview);
registerProcessor(densityChangePoints);
