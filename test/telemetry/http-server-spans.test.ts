import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { startTestServer, wordInput, WORDS_TIER, type TestServer } from '../server/http-client.js';
import { recordSpans, type SpanRecorder } from './span-recorder.js';

describe('HTTP request spans, over a real server on 127.0.0.1', () => {
  let recorder: SpanRecorder;
  let t: TestServer;
  beforeEach(async () => {
    recorder = recordSpans();
    t = await startTestServer();
    expect((await t.call('POST', '/tiers', { json: WORDS_TIER })).status).toBe(201);
  });
  afterEach(async () => {
    await t.close();
    await recorder.stop();
  });

  it('records POST /annotations as a server span with method, route, status 201 and the clock, over a store.apply child', async () => {
    const answer = await t.call('POST', '/annotations', { json: wordInput('hello', 0, 500) });
    expect(answer.status).toBe(201);
    const request = recorder.one('POST /annotations');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/annotations',
      'http.response.status_code': 201,
      'url.path': '/annotations',
      'annot.clock': 2,
    });
    const children = recorder.childrenOf(request);
    expect(children.map((span) => span.name)).toEqual(['store.apply']);
    expect(children[0].attributes).toEqual({
      'annot.store.kind': 'memory',
      'annot.mutation.count': 1,
      'annot.mutation.kinds': ['add_annotation'],
      'annot.clock': 2,
    });
    expect(children[0].spanContext().traceId).toBe(request.spanContext().traceId);
  });

  it('records a window query as GET /annotations over a store.query child with the window, relation and count', async () => {
    await t.call('POST', '/annotations', { json: wordInput('a', 0, 500) });
    await t.call('POST', '/annotations', { json: wordInput('b', 2000, 2500) });
    const answer = await t.call('GET', '/annotations?start=0.1&end=1&tier=words');
    expect(answer.json).toHaveLength(1);
    const request = recorder.one('GET /annotations');
    expect(request.attributes).toMatchObject({ 'http.route': '/annotations', 'http.response.status_code': 200 });
    expect(request.attributes['annot.clock']).toBeUndefined();
    const [query] = recorder.childrenOf(request);
    expect(query.name).toBe('store.query');
    expect(query.attributes).toEqual({
      'annot.store.kind': 'memory',
      'annot.tier': 'words',
      'annot.relation': 'intersects',
      'annot.window.start': '0.1',
      'annot.window.end': '1',
      'annot.annotation.count': 1,
    });
  });

  it('names spans after the route template, never the path with its id', async () => {
    const { json } = await t.call('POST', '/annotations', { json: wordInput('hello', 0, 500) });
    await t.call('GET', `/annotations/${json.id}`);
    const request = recorder.one('GET /annotations/:id');
    expect(request.attributes).toMatchObject({ 'http.route': '/annotations/:id', 'url.path': `/annotations/${json.id}`, 'http.response.status_code': 200 });
  });

  it('names a request no route matched by its method alone, and does not mark a 4xx as a failed span', async () => {
    expect((await t.call('GET', '/nowhere/42')).status).toBe(404);
    const request = recorder.one('GET');
    expect(request.attributes['http.route']).toBeUndefined();
    expect(request.attributes).toMatchObject({ 'http.response.status_code': 404, 'annot.error.code': 'ANNOT_ROUTE_NOT_FOUND' });
    expect(request.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a refused mutation: the 4xx on the request span, the failure on the store.apply span', async () => {
    const answer = await t.call('POST', '/annotations', { json: { ...wordInput('x', 0, 1), tier: 'ghost' } });
    expect(answer.status).toBe(422);
    const request = recorder.one('POST /annotations');
    expect(request.attributes).toMatchObject({ 'http.response.status_code': 422, 'annot.error.code': answer.json.error.code });
    expect(request.attributes['annot.clock']).toBeUndefined();
    const [apply] = recorder.childrenOf(request);
    expect(apply.status.code).toBe(SpanStatusCode.ERROR);
    expect(apply.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('joins the caller\'s trace when the request carries a traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await t.call('GET', '/tiers', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const request = recorder.one('GET /tiers');
    expect(request.spanContext().traceId).toBe(traceId);
    expect(request.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });
});

describe('HTTP requests without an OpenTelemetry SDK', () => {
  it('records no spans: a provider that was registered earlier sees nothing once it is gone', async () => {
    const recorder = recordSpans();
    const t = await startTestServer();
    try {
      await t.call('GET', '/health');
      expect(recorder.spans().map((span) => span.name)).toEqual(['GET /health']);
      await recorder.stop();
      expect((await t.call('POST', '/tiers', { json: WORDS_TIER })).status).toBe(201);
      expect((await t.call('POST', '/annotations', { json: wordInput('hello', 0, 500) })).status).toBe(201);
      expect((await t.call('GET', '/annotations?start=0&end=1')).json).toHaveLength(1);
      expect(recorder.spans().map((span) => span.name)).toEqual(['GET /health']);
    } finally {
      await t.close();
    }
  });
});
