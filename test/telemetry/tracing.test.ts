import { context, ROOT_CONTEXT, SpanStatusCode, trace } from '@opentelemetry/api';
import { InvalidInputError } from '../../src/errors/annot-error.js';
import { ATTR_ERROR_CODE, ATTR_PROCESSOR, ATTR_TIER } from '../../src/telemetry/attributes.js';
import * as attributes from '../../src/telemetry/attributes.js';
import { isTracingActive, withProcessorSpan, withSpan } from '../../src/telemetry/tracing.js';
import { recordSpans, type SpanRecorder } from './span-recorder.js';

describe('withSpan with an OpenTelemetry SDK registered', () => {
  let recorder: SpanRecorder;
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(() => recorder.stop());

  it('records a span with the attributes given, leaving out the undefined ones, under the annot tracer', async () => {
    const result = await withSpan('store.query', { [ATTR_TIER]: 'words', 'annot.relation': undefined }, () => 42);
    expect(result).toBe(42);
    const span = recorder.one('store.query');
    expect(span.attributes).toEqual({ [ATTR_TIER]: 'words' });
    expect(span.instrumentationScope.name).toBe('annot');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('makes spans opened inside, across awaits, children of the outer one', async () => {
    await withSpan('outer', {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await withSpan('inner', {}, () => undefined);
    });
    const outer = recorder.one('outer');
    expect(recorder.childrenOf(outer).map((span) => span.name)).toEqual(['inner']);
    expect(recorder.one('inner').spanContext().traceId).toBe(outer.spanContext().traceId);
  });

  it('records a throw as an exception event with status ERROR and our error code, and rethrows it unchanged', async () => {
    const failure = new InvalidInputError('tier: expected a name');
    await expect(withSpan('store.apply', {}, () => Promise.reject(failure))).rejects.toBe(failure);
    const span = recorder.one('store.apply');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'tier: expected a name' });
    expect(span.attributes[ATTR_ERROR_CODE]).toBe('ANNOT_INVALID_INPUT');
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
    expect(span.events[0].attributes?.['exception.message']).toBe('tier: expected a name');
  });

  it('names a processor run "processor <name>" with the processor attribute, for the registry to wrap runs in', async () => {
    await withProcessorSpan('low_confidence_review', (span) => span.setAttribute(ATTR_TIER, 'review'));
    expect(recorder.one('processor low_confidence_review').attributes).toEqual({ [ATTR_PROCESSOR]: 'low_confidence_review', [ATTR_TIER]: 'review' });
  });

  it('reports tracing as active', () => {
    expect(isTracingActive()).toBe(true);
  });
});

describe('withSpan without an OpenTelemetry SDK', () => {
  it('takes the no-op path: a plain call with a span that records nothing and no context switch', async () => {
    expect(isTracingActive()).toBe(false);
    const seen = await withSpan('store.query', { [ATTR_TIER]: 'words' }, (span) => {
      span.setAttribute(ATTR_TIER, 'ignored');
      return { recording: span.isRecording(), active: trace.getActiveSpan(), sameContext: context.active() === ROOT_CONTEXT };
    });
    expect(seen).toEqual({ recording: false, active: undefined, sameContext: true });
  });

  it('stops recording into a provider once it is unregistered', async () => {
    const recorder = recordSpans();
    await withSpan('before', {}, () => undefined);
    await recorder.stop();
    await withSpan('after', {}, () => undefined);
    expect(recorder.spans().map((span) => span.name)).toEqual(['before']);
  });

  it('still rethrows what the function throws', async () => {
    const failure = new Error('boom');
    await expect(withSpan('x', {}, () => Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe('the attribute convention', () => {
  it('puts every annot key under "annot." in lower snake case, and HTTP keys in the semantic conventions', () => {
    const keys = Object.entries(attributes).filter(([name]) => name.startsWith('ATTR_')).map(([, key]) => key as string);
    const http = new Set(['http.request.method', 'http.route', 'http.response.status_code', 'url.path', 'error.type']);
    for (const key of keys) {
      if (http.has(key)) continue;
      expect(key).toMatch(/^annot(\.[a-z][a-z_]*)+$/);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });
});
