import type { JobStatus } from './queue.js';
import type { ProcessorInfo } from './registry.js';

/** `annot process --list` as text: each processor, then its params with their types and defaults. */
export function describeProcessors(processors: readonly ProcessorInfo[]): string {
  const lines: string[] = [];
  for (const processor of processors) {
    lines.push(`${processor.name}  ${processor.description}`);
    const properties = (processor.params_schema.properties ?? {}) as Record<string, { type?: string | string[]; default?: unknown; description?: string }>;
    for (const [key, property] of Object.entries(properties)) {
      const type = Array.isArray(property.type) ? property.type.join('|') : (property.type ?? 'any');
      const fallback = property.default === undefined ? 'optional' : `default ${JSON.stringify(property.default)}`;
      lines.push(`  --param ${key}=<${type}>  (${fallback})  ${property.description ?? ''}`.trimEnd());
    }
  }
  return lines.join('\n');
}

/** `annot process --status` as text, one `field: value` a line; the failure reason is never hidden. */
export function describeJobStatus(status: JobStatus): string {
  const lines = [
    `job ${status.id} on ${status.queue}: ${status.state}`,
    `processor: ${status.processor}`,
    `store: ${status.store ?? '(the worker\'s --store)'}`,
    `attempts: ${status.attempts_made} of ${status.attempts}`,
    `enqueued: ${status.enqueued_at}`,
  ];
  if (status.processed_by !== null) lines.push(`worker: ${status.processed_by}`);
  if (status.finished_at !== null) lines.push(`finished: ${status.finished_at}`);
  if (status.progress !== null && status.progress !== undefined && status.progress !== 0) lines.push(`progress: ${JSON.stringify(status.progress)}`);
  if (status.failed_reason !== null) lines.push(`${status.state === 'failed' ? 'failed' : 'last attempt failed'}: ${status.failed_reason}`);
  if (status.result !== null) lines.push(`result: ${JSON.stringify(status.result)}`);
  return lines.join('\n');
}
