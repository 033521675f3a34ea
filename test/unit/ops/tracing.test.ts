/**
 * @vitalis/tracing and the Kafka trace helpers without the servers: tracing is off unless an OTLP
 * endpoint is set (and the kill switch is not), the OTEL_* settings are validated, the sampler
 * follows OTEL_TRACES_SAMPLER, a record batch's span is the child of its one producer context or a
 * root linked to several (capped), and with an endpoint set spans really leave over OTLP/HTTP
 * (protobuf) to `<endpoint>/v1/traces` (a local HTTP server stands in for the collector).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { AlwaysOffSampler, InMemorySpanExporter, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { ConfigError, parseConfig, tracingShape } from '@vitalis/config';
import { batchOrigin, startBatchSpan } from '@vitalis/kafka';
import { contextOfTraceparent, createTracing, MAX_LINKS, otlpTracesUrl, samplerOf, traceparentOf, TRACING_OFF } from '@vitalis/tracing';

const traceparent = (trace: string, span: string) => `00-${trace.padStart(32, '0')}-${span.padStart(16, '0')}-01`;

describe('tracing settings', () => {
  it('is off by default, on with an endpoint, off again with OTEL_SDK_DISABLED', () => {
    const defaults = parseConfig(tracingShape, {});
    expect(createTracing(defaults, { app: 'gateway' })).toBe(TRACING_OFF);
    expect(TRACING_OFF.enabled).toBe(false);
    // an empty variable (a manifest's placeholder) is unset
    expect(createTracing(parseConfig(tracingShape, { OTEL_EXPORTER_OTLP_ENDPOINT: '' }), { app: 'gateway' })).toBe(TRACING_OFF);
    const on = parseConfig(tracingShape, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    expect(otlpTracesUrl(on)).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesUrl({ ...on, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp' })).toBe('https://traces.example/otlp');
    expect(otlpTracesUrl({ ...on, OTEL_SDK_DISABLED: true })).toBeUndefined();
    expect(parseConfig(tracingShape, { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).OTEL_SDK_DISABLED).toBe(
      true,
    );
  });

  it('refuses a bad endpoint, sampler or ratio by name', () => {
    expect(() => parseConfig(tracingShape, { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL with scheme http: or https:/,
    );
    expect(() => parseConfig(tracingShape, { OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(ConfigError);
    expect(() => parseConfig(tracingShape, { OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });

  it('samples as OTEL_TRACES_SAMPLER says (default: parent-based, always on)', () => {
    expect(samplerOf({})).toBeInstanceOf(ParentBasedSampler);
    expect(samplerOf({}).toString()).toContain('AlwaysOnSampler');
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'always_off' })).toBeInstanceOf(AlwaysOffSampler);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 0.25 })).toBeInstanceOf(TraceIdRatioBasedSampler);
    expect(samplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 0.25 }).toString()).toContain(
      'TraceIdRatioBased{0.25}',
    );
  });
});

describe('record batch spans', () => {
  const a = traceparent('a1', 'b1');
  const b = traceparent('a2', 'b2');
  const headers = (tp?: string) => ({ headers: tp ? { traceparent: Buffer.from(tp) } : {}, offset: '7' });

  it('one producer context: its child, linked to it once; several: a root linked to each', () => {
    const single = batchOrigin([headers(a), headers(a), headers()]);
    expect(single.links.map((l) => l.context.spanId)).toEqual(['00000000000000b1']);
    expect(trace.getSpanContext(single.parent)?.spanId).toBe('00000000000000b1');
    const mixed = batchOrigin([headers(a), headers(b), headers(a)]);
    expect(mixed.links.map((l) => l.context.traceId)).toEqual([a.slice(3, 35), b.slice(3, 35)]);
    expect(trace.getSpanContext(mixed.parent)).toBeUndefined();
    // a malformed header is ignored, not thrown on
    expect(batchOrigin([headers('00-zz-yy-01')]).links).toEqual([]);
  });

  it('links at most MAX_LINKS producer contexts and counts the rest', () => {
    const many = Array.from({ length: MAX_LINKS + 5 }, (_, i) => headers(traceparent(`c${i.toString(16)}`, 'd1')));
    const origin = batchOrigin(many);
    expect(origin.links).toHaveLength(MAX_LINKS);
    expect(origin.dropped).toBe(5);
    expect(trace.getSpanContext(origin.parent)).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing({}, { app: 'ingest', exporter });
    startBatchSpan(tracing, { topic: 't', partition: 2, messages: many })!.end();
    const [span] = exporter.getFinishedSpans();
    expect(span!.kind).toBe(SpanKind.CONSUMER);
    expect(span!.links).toHaveLength(MAX_LINKS);
    expect(span!.attributes).toMatchObject({
      'messaging.batch.message_count': MAX_LINKS + 5,
      'messaging.destination.partition.id': '2',
      'vitalis.links.dropped': 5,
    });
    expect(startBatchSpan(TRACING_OFF, { topic: 't', partition: 2, messages: many })).toBeUndefined();
  });

  it('a traceparent survives the live message round trip', () => {
    expect(traceparentOf(contextOfTraceparent(a))).toBe(a);
    expect(contextOfTraceparent(undefined)).toBe(ROOT_CONTEXT);
  });
});

describe('OTLP export', () => {
  it('sends ended spans as OTLP/HTTP protobuf to <endpoint>/v1/traces', async () => {
    const received: { path: string; type: string; bytes: number }[] = [];
    const collector = createServer((req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        received.push({ path: req.url ?? '', type: req.headers['content-type'] ?? '', bytes });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    try {
      const tracing = createTracing(parseConfig(tracingShape, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }), {
        app: 'gateway',
      });
      expect(tracing.enabled).toBe(true);
      tracing.tracer.startSpan('GET /livez').end();
      await tracing.forceFlush();
      await tracing.shutdown();
      expect(received.length).toBeGreaterThanOrEqual(1);
      expect(received[0]).toMatchObject({ path: '/v1/traces', type: 'application/x-protobuf' });
      expect(received[0]!.bytes).toBeGreaterThan(0);
    } finally {
      collector.close();
    }
  });
});
