import type { SpanAttributeValues } from './attributes.js';

/** What code inside a lazily opened span may do with it. */
export interface SpanHandle {
  setAttribute(key: string, value: string | number | boolean): unknown;
}

const NO_SPAN: SpanHandle = { setAttribute: () => undefined };

/**
 * withSpan (tracing.ts) for paths that must start fast and small, such as `annot convert`:
 * @opentelemetry/api costs about 8 MB of memory to load, so it is loaded only when an SDK has
 * registered itself, which the API records in one global under a well-known symbol (the API's
 * own `opentelemetry.js.api.<major>` key; an SDK registers a tracer provider there). Without one
 * `fn` runs with a span that records nothing, as withSpan does.
 */
export async function withSpanIfTracing<T>(name: string, attributes: SpanAttributeValues, fn: (span: SpanHandle) => Promise<T> | T): Promise<T> {
  if (!tracerRegistered()) return fn(NO_SPAN);
  const { withSpan } = await import('./tracing.js');
  return withSpan(name, attributes, fn);
}

const OPENTELEMETRY_API_1 = Symbol.for('opentelemetry.js.api.1');

function tracerRegistered(): boolean {
  const registry = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[OPENTELEMETRY_API_1];
  return registry?.trace !== undefined;
}
