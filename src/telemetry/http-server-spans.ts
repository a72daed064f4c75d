import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { AnnotError } from '../errors/annot-error.js';
import {
  ATTR_CLOCK,
  ATTR_ERROR_CODE,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from './attributes.js';
import { activeTracer, definedAttributes, recordFailure } from './tracing.js';

/** The header every mutation answers with (see src/server/route-context.ts). */
const CLOCK_HEADER = 'x-service-clock';

interface RequestSpan {
  readonly span: Span;
  /** The context route handlers run in, so the spans they open are the request span's children. */
  readonly context: Context;
  error?: unknown;
}

/** Request spans in flight; a request that ends (or is abandoned) leaves with its entry. */
const requestSpans = new WeakMap<FastifyRequest, RequestSpan>();

/**
 * One server span per HTTP request, named `<METHOD> <route>` after the route template
 * (`GET /annotations/:id`; just the method for a request no route matched, so ids never make
 * span names), with OpenTelemetry's HTTP attributes and the mutation's Lamport clock. A caller's
 * `traceparent` makes it part of the caller's trace. Install before registering routes: the
 * handlers registered afterwards run inside the request's span.
 *
 * fastify hooks cannot make a span active for the stages after them, so the span is opened in
 * onRequest, each route handler is wrapped to run in its context, and onResponse closes it.
 * With no OpenTelemetry SDK registered when the server is built, none of this is installed.
 */
export function traceHttpRequests(app: FastifyInstance): void {
  // Telemetry is opt-in at start-up (`annot serve` registers the SDK before it builds the server):
  // without one, no hook is added and an untraced server pays nothing per request for it.
  if (activeTracer() === undefined) return;
  app.addHook('onRequest', (request, _reply, done) => {
    // Asked per request too: an SDK shut down since records nothing more.
    const tracer = activeTracer();
    if (tracer) {
      const route = request.routeOptions.url;
      const parent = propagation.extract(context.active(), request.headers);
      const span = tracer.startSpan(
        route === undefined ? request.method : `${request.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: definedAttributes({ [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: route, [ATTR_URL_PATH]: request.url.split('?')[0] }),
        },
        parent,
      );
      requestSpans.set(request, { span, context: trace.setSpan(parent, span) });
    }
    done();
  });

  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function tracedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const traced = requestSpans.get(request);
      return traced ? context.with(traced.context, handler, this, request, reply) : handler.call(this, request, reply);
    } as RouteHandlerMethod;
  });

  app.addHook('onError', (request, _reply, error, done) => {
    const traced = requestSpans.get(request);
    if (traced) traced.error = error;
    done();
  });

  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply);
    done();
  });

  app.addHook('onRequestAbort', (request, done) => {
    const traced = requestSpans.get(request);
    if (traced) {
      requestSpans.delete(request);
      traced.span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      traced.span.end();
    }
    done();
  });
}

function endRequestSpan(request: FastifyRequest, reply: FastifyReply): void {
  const traced = requestSpans.get(request);
  if (!traced) return;
  requestSpans.delete(request);
  const { span, error } = traced;
  const status = reply.statusCode;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  const clock = Number(reply.getHeader(CLOCK_HEADER) ?? reply.raw.getHeader(CLOCK_HEADER));
  if (Number.isSafeInteger(clock)) span.setAttribute(ATTR_CLOCK, clock);
  // Semantic conventions: a 4xx is the client's mistake, not a failed server span; a 5xx is.
  if (status >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(status));
    if (error !== undefined) recordFailure(span, error);
    else span.setStatus({ code: SpanStatusCode.ERROR });
  } else if (error instanceof AnnotError) {
    span.setAttribute(ATTR_ERROR_CODE, error.code);
  }
  span.end();
}
