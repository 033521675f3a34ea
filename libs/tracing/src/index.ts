export { createTracing, otlpTracesUrl, samplerOf, TRACING_OFF, type Tracing, type TracingOptions, type TracingSettings } from './tracing';
export { contextOfTraceparent, extractContext, remoteSpanContext, traceHeadersOf, traceparentOf, type CarrierValue } from './propagation';
export { inSpan, MAX_LINKS, SPAN_ATTR, spanFailed } from './attributes';
