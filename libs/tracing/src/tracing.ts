/**
 * OpenTelemetry traces for every Vitalis app: one `Tracing` per app (a tracer provider of its own,
 * never the API's global one: a test process runs several gateways and workers side by side, as
 * with the metrics registries), created in main.ts from the standard OTEL_* settings
 * (@vitalis/config `tracingShape`) and handed to what creates spans.
 *
 * Off by default: without an OTLP endpoint `createTracing` returns TRACING_OFF, and every call
 * site tests `tracing.enabled` before it builds a span, a link or a header, so the hot path pays
 * one property read. With an endpoint: spans go to OTLP/HTTP (protobuf) in batches
 * (BatchSpanProcessor); tests hand an in-memory exporter instead (exported as each span ends).
 *
 * Context is passed explicitly (a parent `Context` argument), never through a global context
 * manager: the few places that start spans (the HTTP hook, the Kafka send, the ingest batch, the
 * live delivery) all hold their parent in hand.
 *
 * What a span may carry: route patterns, topic names, partitions, offsets, counts, transports.
 * Never a patient id, a name, a token or a raw URL (docs/operations.md#traces; a test greps the
 * exported spans for the ids, names and tokens it used).
 */
import { trace, type Tracer } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';

/** The settings createTracing reads (@vitalis/config `tracingShape`). */
export interface TracingSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  OTEL_SDK_DISABLED?: boolean;
  OTEL_SERVICE_NAME?: string | undefined;
  OTEL_TRACES_SAMPLER?: string;
  OTEL_TRACES_SAMPLER_ARG?: number;
}

export interface Tracing {
  /** false: no span is started anywhere (call sites test this first). */
  readonly enabled: boolean;
  readonly tracer: Tracer;
  /** Exports what has ended (tests; shutdown). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** Tracing off: the API's no-op tracer behind `enabled: false`. */
export const TRACING_OFF: Tracing = Object.freeze({
  enabled: false,
  tracer: trace.getTracerProvider().getTracer('vitalis-off'),
  forceFlush: async () => {},
  shutdown: async () => {},
});

export interface TracingOptions {
  /** The app (gateway, ingest, projector, simulator): the default service name is vitalis-<app>. */
  app: string;
  version?: string;
  /**
   * Where spans go instead of OTLP (tests: an InMemorySpanExporter), exported as each span ends.
   * Given, tracing is on whatever the settings say.
   */
  exporter?: SpanExporter;
}

/** The OTLP traces URL the settings name, or undefined (tracing off). */
export function otlpTracesUrl(settings: TracingSettings): string | undefined {
  if (settings.OTEL_SDK_DISABLED) return undefined;
  if (settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = settings.OTEL_EXPORTER_OTLP_ENDPOINT;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export function createTracing(settings: TracingSettings, options: TracingOptions): Tracing {
  const url = otlpTracesUrl(settings);
  if (!options.exporter && !url) return TRACING_OFF;
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': settings.OTEL_SERVICE_NAME ?? `vitalis-${options.app}`,
      ...(options.version ? { 'service.version': options.version } : {}),
    }),
    sampler: samplerOf(settings),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer(`@vitalis/${options.app}`, options.version);
  return {
    enabled: true,
    tracer,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** OTEL_TRACES_SAMPLER / _ARG, as the SDK specification names them (default parentbased_always_on). */
export function samplerOf(settings: TracingSettings): Sampler {
  const ratio = settings.OTEL_TRACES_SAMPLER_ARG ?? 1;
  switch (settings.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}
