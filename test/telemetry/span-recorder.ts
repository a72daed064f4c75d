import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export interface SpanRecorder {
  /** The spans ended so far, in the order they ended. */
  spans(): ReadableSpan[];
  /** The one ended span with this name (fails the test when there are none or several). */
  one(name: string): ReadableSpan;
  /** The spans whose parent is `parent`. */
  childrenOf(parent: ReadableSpan): ReadableSpan[];
  /** Unregisters the SDK (tracer provider, context manager, propagator), leaving the API's no-op behind; spans() stays readable. */
  stop(): Promise<void>;
}

/**
 * Registers a real OpenTelemetry SDK for one test: a Node tracer provider (with its
 * AsyncLocalStorage context manager and W3C propagator) exporting every span, as it ends, into
 * memory.
 */
export function recordSpans(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  const spans = () => exporter.getFinishedSpans();
  return {
    spans,
    one(name) {
      const named = spans().filter((span) => span.name === name);
      if (named.length !== 1) throw new Error(`expected one span named "${name}", found ${named.length} among ${spans().map((span) => span.name).join(', ') || 'none'}`);
      return named[0];
    },
    childrenOf(parent) {
      return spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
    },
    async stop() {
      // The provider is left running (SimpleSpanProcessor buffers nothing): a span anything still
      // recorded into it after this would show in spans().
      await provider.forceFlush();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
