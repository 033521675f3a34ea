/**
 * W3C Trace Context (`traceparent`, `tracestate`) in and out of the carriers Vitalis uses: HTTP
 * request headers, Kafka record headers (@vitalis/kafka trace-headers.ts) and the live fan-out
 * message (@vitalis/live wire.ts). The one propagator is @opentelemetry/core's.
 */
import { ROOT_CONTEXT, trace, type Context, type SpanContext, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const w3c = new W3CTraceContextPropagator();

/** A header-like value: a string, bytes (Kafka), or several (a repeated header: the first counts). */
export type CarrierValue = string | Buffer | readonly (string | Buffer)[] | undefined;

const getter: TextMapGetter<Record<string, CarrierValue>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const v = carrier[key];
    const one = Array.isArray(v) ? v[0] : (v as string | Buffer | undefined);
    return one === undefined ? undefined : String(one);
  },
};

/** The remote context a carrier names (ROOT_CONTEXT when it names none, or a malformed one). */
export function extractContext(carrier: Record<string, CarrierValue> | undefined): Context {
  return carrier ? w3c.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
}

/** The remote span context a carrier names, or undefined. */
export function remoteSpanContext(carrier: Record<string, CarrierValue> | undefined): SpanContext | undefined {
  return carrier ? trace.getSpanContext(extractContext(carrier)) : undefined;
}

/** `traceparent` (and `tracestate` when there is one) of `ctx`'s span, as carrier entries. */
export function traceHeadersOf(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  w3c.inject(ctx, out, { set: (carrier, key, value) => (carrier[key] = value) });
  return out;
}

/** Just the `traceparent` of `ctx`'s span (the live fan-out carries only that), or undefined. */
export const traceparentOf = (ctx: Context): string | undefined => traceHeadersOf(ctx).traceparent;

/** The context a bare `traceparent` names (ROOT_CONTEXT when absent or malformed). */
export const contextOfTraceparent = (traceparent: string | undefined): Context =>
  traceparent ? extractContext({ traceparent }) : ROOT_CONTEXT;
