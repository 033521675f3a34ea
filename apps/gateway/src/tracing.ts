/**
 * The gateway's traces (@vitalis/tracing, off by default): a SERVER span per request, named by
 * the route pattern (fastify's `routeOptions.url`, e.g. POST /api/v1/vitals), never the raw URL,
 * whose path may carry a patient id and whose query string anything; the caller's `traceparent`
 * is its parent (its `tracestate` is dropped). Routes that start spans of their own (the Kafka send of POST /api/v1/vitals) take
 * their parent from `requestTraceContext`. A streamed response (SSE, WebSocket) ends its span
 * when the connection closes.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { extractContext, SPAN_ATTR, type Tracing } from '@vitalis/tracing';

const spans = new WeakMap<FastifyRequest, Span>();

/** The request's span as a parent context (ROOT_CONTEXT when tracing is off). */
export const requestTraceContext = (req: FastifyRequest): Context => {
  const span = spans.get(req);
  return span ? trace.setSpan(ROOT_CONTEXT, span) : ROOT_CONTEXT;
};

export function traceHttp(app: FastifyInstance, tracing: Tracing): void {
  if (!tracing.enabled) return;
  const end = (req: FastifyRequest, status: number) => {
    const span = spans.get(req);
    if (!span) return;
    spans.delete(req);
    span.setAttribute(SPAN_ATTR.httpStatus, status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.url;
    const span = tracing.tracer.startSpan(
      route ? `${req.method} ${route}` : req.method,
      {
        kind: SpanKind.SERVER,
        attributes: { [SPAN_ATTR.httpMethod]: req.method, ...(route ? { [SPAN_ATTR.httpRoute]: route } : {}) },
      },
      // the caller's traceparent only: its tracestate (free-form vendor data) would otherwise ride
      // in every Kafka record and every exported span
      extractContext({ traceparent: req.headers.traceparent }),
    );
    spans.set(req, span);
    // a hijacked (streamed) or aborted response has no onResponse: the connection's end is the span's
    // (a WebSocket upgrade's response is never written: its socket's end, 101)
    if (req.headers.upgrade) req.raw.socket.once('close', () => end(req, 101));
    else reply.raw.once('close', () => end(req, reply.raw.statusCode));
  });
  app.addHook('onResponse', async (req, reply) => end(req, reply.statusCode));
}
