import { context, ProxyTracerProvider, SpanStatusCode, trace, INVALID_SPAN_CONTEXT, type Attributes, type Span, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { AnnotError } from '../errors/annot-error.js';
import { readPackageSchema } from '../schemas/package-schemas.js';
import { redactUrlCredentials } from '../text/secret-redaction.js';
import { ATTR_ERROR_CODE, ATTR_PROCESSOR, type SpanAttributeValues } from './attributes.js';

/** The instrumentation scope annot's spans are recorded under. */
export const TRACER_NAME = 'annot';

/**
 * The span handed to code running without a registered SDK: records nothing, so callers may set
 * attributes on it unconditionally.
 */
const NON_RECORDING_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * annot's tracer, or undefined while no OpenTelemetry SDK is registered. Asked afresh each time
 * (the SDK caches its tracers): a tracer kept from an earlier registration would keep recording
 * into a provider that has since been replaced or disabled.
 */
export function activeTracer(): Tracer | undefined {
  const provider = trace.getTracerProvider();
  // The API's global provider is a proxy with no delegate until an SDK registers one.
  if (provider instanceof ProxyTracerProvider) return provider.getDelegateTracer(TRACER_NAME, annotVersion());
  return provider.getTracer(TRACER_NAME, annotVersion());
}

/** Whether spans are being recorded, i.e. an OpenTelemetry SDK is registered. */
export function isTracingActive(): boolean {
  return activeTracer() !== undefined;
}

/**
 * Runs `fn` inside a span named `name`, the span being the active one so that spans opened
 * within (across awaits) become its children. A throw is recorded on the span as an exception
 * event with status ERROR (and the `ANNOT_...` code of our own errors) and rethrown unchanged.
 * Without a registered SDK this is a plain call of `fn` with a span that records nothing: no
 * context switch, no allocation beyond the check. Attributes that cost something to spell may be
 * given as a function, called only when the span records.
 */
export async function withSpan<T>(
  name: string,
  attributes: SpanAttributeValues | (() => SpanAttributeValues),
  fn: (span: Span) => Promise<T> | T,
  options: SpanOptions = {},
): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return fn(NON_RECORDING_SPAN);
  const values = typeof attributes === 'function' ? attributes() : attributes;
  return tracer.startActiveSpan(name, { ...options, attributes: { ...options.attributes, ...definedAttributes(values) } }, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The span of one processor run, `processor <name>`, for the processor registry's `runProcessor`
 * to wrap the run in: `return withProcessorSpan(name, () => processor.run(...))`. The writes the
 * processor makes through the service show up as its `store.apply` children.
 */
export function withProcessorSpan<T>(name: string, fn: (span: Span) => Promise<T> | T, attributes: SpanAttributeValues = {}): Promise<T> {
  return withSpan(`processor ${name}`, { ...attributes, [ATTR_PROCESSOR]: name }, fn);
}

/** Marks a span as failed by `error`: an `exception` event, status ERROR with its message, and our error code when it has one. */
export function recordFailure(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  // Recorded redacted: a span exporter sends what it is given to another machine.
  const message = redactUrlCredentials(error instanceof Error ? error.message : String(error));
  span.recordException(error instanceof Error ? { name: error.name, message, stack: error.stack === undefined ? undefined : redactUrlCredentials(error.stack) } : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  if (error instanceof AnnotError) span.setAttribute(ATTR_ERROR_CODE, error.code);
}

/** Runs `fn` with `span` as the active span, so the spans `fn` opens are its children. */
export function withActiveSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** The attributes without their undefined values (OpenTelemetry would drop them with a warning). */
export function definedAttributes(attributes: SpanAttributeValues): Attributes {
  const defined: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) defined[key] = value as Attributes[string];
  }
  return defined;
}

let cachedVersion: string | undefined;

/** The package version, as the tracer's scope version (read once). */
function annotVersion(): string {
  if (cachedVersion === undefined) {
    try {
      cachedVersion = String((readPackageSchema('../package.json') as { version?: unknown }).version ?? '0.0.0');
    } catch {
      cachedVersion = '0.0.0';
    }
  }
  return cachedVersion;
}
