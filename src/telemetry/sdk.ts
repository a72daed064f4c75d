import { trace } from '@opentelemetry/api';

/** Stops the SDK: exports the spans still buffered, then unregisters it. Idempotent. */
export type OtelShutdown = () => Promise<void>;

/** The service name spans are reported under unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names one. */
export const DEFAULT_SERVICE_NAME = 'annot';

/**
 * Registers the OpenTelemetry Node SDK as the global tracer provider, for `annot serve --otel`.
 * Where spans go is the standard `OTEL_*` variables' business, read by the SDK itself:
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), `..._HEADERS`,
 * `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (`http/protobuf` by default, `http/json`, `grpc`),
 * `OTEL_TRACES_EXPORTER`, `OTEL_TRACES_SAMPLER`, `OTEL_SERVICE_NAME`, `OTEL_SDK_DISABLED`...
 * Only traces: annot records no metrics or logs, so the SDK is not left polling an exporter for
 * them. The SDK packages are imported here, on this path only, so nothing else pays for loading them.
 */
export async function startOtelSdk(): Promise<OtelShutdown> {
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: serviceNameFromEnv() === undefined ? DEFAULT_SERVICE_NAME : undefined,
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      try {
        await sdk.shutdown();
      } finally {
        trace.disable();
      }
    })();
    return stopping;
  };
}

function serviceNameFromEnv(): string | undefined {
  const named = process.env.OTEL_SERVICE_NAME?.trim();
  if (named) return named;
  const fromResource = /(?:^|,)\s*service\.name\s*=\s*([^,]+)/.exec(process.env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  return fromResource?.[1].trim() || undefined;
}
