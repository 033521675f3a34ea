/**
 * Traces across the path (issue 25 item 2), over real HTTP, Kafka, PostgreSQL and Redis: a gateway
 * and an in-process ingest worker with its live stage, both exporting to an in-memory exporter.
 * One POST /api/v1/vitals sent with a `traceparent` is one trace: the gateway's request span, its
 * Kafka send, the ingest's record-batch span and its live publish share the caller's trace id, and
 * the SSE, WebSocket and MCP subscribers' delivery spans link to the publish. Nothing exported (span names, attribute
 * keys and values, links, the resource) nor any metrics scrape carries the patient ids, the
 * patient's name or the tokens the test used; every attribute key is one of SPAN_ATTR. With traces
 * on, the live path still carries each event id's replay bytes.
 */
import { randomBytes } from 'node:crypto';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Admin } from 'kafkajs';
import type { VitalisKafka } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { createIngestMetrics, createRegistry, startMetricsServer, type MetricsServer } from '@vitalis/metrics';
import { createRedis, type Redis } from '@vitalis/redis';
import { createTracing, SPAN_ATTR, type Tracing } from '@vitalis/tracing';
import { createLiveStage, type LiveStage } from '../../../apps/ingest/src/live/stage';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { pumpSse } from '../../helpers/sse';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openWs, streamUrl } from '../live/support';
import { connect as connectMcp, liveEvents } from '../mcp/support';
import { numeric, privateTopics, startTestIngest, testKafka, testPool, uid, waitFor } from '../vitals/support';

let kafka: VitalisKafka;
let admin: Admin;
let pool: Pool;
let redis: Redis;
let topics: Awaited<ReturnType<typeof privateTopics>>;
let stage: LiveStage;
let worker: IngestWorker;
let ingestMetricsServer: MetricsServer;
let gw: RunningGateway;
const exporter = new InMemorySpanExporter();
let gatewayTracing: Tracing;
let ingestTracing: Tracing;

beforeAll(async () => {
  kafka = testKafka('tracing');
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-tracing' });
  await redis.connect();
  topics = await privateTopics(admin, 3);
  // Both apps export to one in-memory exporter, under their own service names (as two processes would).
  gatewayTracing = createTracing({}, { app: 'gateway', exporter });
  ingestTracing = createTracing({}, { app: 'ingest', exporter });
  const registry = createRegistry('ingest');
  const metrics = createIngestMetrics(registry);
  stage = createLiveStage({
    pool,
    redis,
    topic: topics.topic,
    logger: createLogger('test-live', 'error'),
    metrics,
    tracing: ingestTracing,
  });
  worker = await startTestIngest(kafka, pool, {
    topic: topics.topic,
    dlqTopic: topics.dlqTopic,
    maxWaitTimeInMs: 50,
    afterCommit: stage.afterCommit,
    metrics,
    tracing: ingestTracing,
  });
  ingestMetricsServer = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
  // POST /api/v1/vitals writes to the private topic, whose live channel the gateway serves
  gw = await startGateway({ VITALS_TOPIC: topics.topic, LIVE_TOPIC: topics.topic }, { metrics: true, tracing: gatewayTracing });
});

afterAll(async () => {
  await gw?.close();
  await ingestMetricsServer?.close();
  await worker?.stop();
  stage?.stop();
  await topics?.drop();
  await admin?.disconnect();
  redis?.disconnect();
  await pool?.end();
  await gatewayTracing?.shutdown();
  await ingestTracing?.shutdown();
});

interface RawEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An SSE stream whose events keep their data as sent (the bytes, no JSON round trip). */
async function rawStream(url: string, headers: Record<string, string>) {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  const events: RawEvent[] = [];
  void pumpSse(res.body!, createParser({ onEvent: (e: EventSourceMessage) => events.push({ id: e.id, event: e.event, data: e.data }) }));
  return {
    events,
    until: (n: number, what: string) =>
      waitFor(
        async () => events.length,
        (have) => have >= n,
        45_000,
        what,
      ).then(() => events.slice(0, n)),
    close: () => ctrl.abort(),
  };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const spans = () => exporter.getFinishedSpans();
/** The one finished span `pick` selects (waited for: a request's span ends after its response is sent). */
const one = async (pick: (s: ReadableSpan) => boolean, what: string): Promise<ReadableSpan> => {
  const found = await waitFor(
    async () => spans().filter(pick),
    (f) => f.length > 0,
    10_000,
    what,
  );
  expect(found, what).toHaveLength(1);
  return found[0]!;
};

describe('traces', () => {
  const patient = `pat-trace-${uid()}`;
  const family = `Tracefamily${uid()}`;
  let client: RegisteredClient;
  let token: string;
  let registeredId = '';

  it('one POST is one trace: request, Kafka send, ingest batch and live publish share its trace id; the SSE, WebSocket and MCP deliveries link to the publish', async () => {
    client = await registerClient(gw.url, ['write:vitals', 'read:vitals', 'read:patients', 'write:patients']);
    token = await clientCredentialsToken(gw.url, client);
    const auth = { authorization: `Bearer ${token}` };
    // a patient with a name, read by a path that carries its id and a query that carries the name
    const created = await fetch(`${gw.url}/api/v1/patients`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'Patient', name: [{ family, given: ['Ada'] }], birthDate: '1980-02-03', gender: 'female' }),
    });
    expect(created.status).toBe(201);
    registeredId = ((await created.json()) as { id: string }).id;
    expect((await fetch(`${gw.url}/api/v1/patients?name=${family}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${gw.url}/api/v1/patients/${registeredId}`, { headers: auth })).status).toBe(200);

    const sse = await rawStream(streamUrl(gw, { patient }), auth);
    // and a WebSocket subscriber of the same patient
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, auth);
    await ws.waitFor((m) => m.some((x) => x.type === 'ready'), 'ready');
    ws.send({ type: 'subscribe', sub: 'w', patients: [patient] });
    await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');
    // and an MCP session subscribed to the patient's vitals resource
    const mcp = await connectMcp(gw.url, token);
    const updates: any[] = [];
    mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n));
    await mcp.client.subscribeResource({ uri: `vitalis://patients/${patient}/vitals` });
    const traceId = hex(16);
    const callerSpanId = hex(8);
    const posted = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      // a tracestate is the caller's free-form data (here: a patient id): never carried on
      headers: {
        ...auth,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
        tracestate: `vendor=${patient}`,
      },
      // an observation and one that raises an alert at once (systolic 230 mmHg: sys-high, no onset delay): three events in one publish
      body: JSON.stringify({
        observations: [
          numeric(patient, `${patient}-dev`, 0, new Date()),
          numeric(patient, `${patient}-dev`, 1, new Date(), { code: '8480-6', value: 230, unit: 'mm[Hg]' }),
        ],
      }),
    });
    expect(posted.status).toBe(202);
    const live = await sse.until(3, 'two observations and an alert');
    expect(live.map((e) => e.event).sort()).toEqual(['alert', 'observation', 'observation']);

    // the request span: named by its route, the child of the caller's span
    const request = await one((s) => s.name === 'POST /api/v1/vitals', 'the request span');
    expect(request.kind).toBe(SpanKind.SERVER);
    expect(request.spanContext().traceId).toBe(traceId);
    expect(request.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(request.attributes).toMatchObject({ [SPAN_ATTR.httpRoute]: '/api/v1/vitals', [SPAN_ATTR.httpStatus]: 202 });
    expect(request.resource.attributes['service.name']).toBe('vitalis-gateway');
    expect(request.spanContext().traceState).toBeUndefined();
    // its Kafka send, one span for the batch
    const send = await one((s) => s.name === `send ${topics.topic}`, 'the Kafka send span');
    expect(send.kind).toBe(SpanKind.PRODUCER);
    expect(send.spanContext().traceId).toBe(traceId);
    expect(send.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(send.attributes).toMatchObject({ [SPAN_ATTR.messagingDestination]: topics.topic, [SPAN_ATTR.messagingBatchCount]: 2 });
    // the ingest's record batch: the child of the send (its only producer), linked to it too
    const processed = await one(
      (s) => s.name === `process ${topics.topic}` && s.spanContext().traceId === traceId,
      'the ingest batch span',
    );
    expect(processed.kind).toBe(SpanKind.CONSUMER);
    expect(processed.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
    expect(processed.links.map((l) => l.context.spanId)).toEqual([send.spanContext().spanId]);
    expect(processed.attributes[SPAN_ATTR.messagingBatchCount]).toBe(2);
    expect(processed.resource.attributes['service.name']).toBe('vitalis-ingest');
    // the live publish after the commit, under the batch
    const publish = await one(
      (s) => s.name === `publish vitalis:live:${topics.topic}` && s.spanContext().traceId === traceId,
      'the live publish span',
    );
    expect(publish.parentSpanContext?.spanId).toBe(processed.spanContext().spanId);
    expect(publish.attributes[SPAN_ATTR.messagingBatchCount]).toBe(3);
    // the SSE delivery: a span of its own, linked to the publish, so the POST's trace id reaches the frames
    const delivery = await waitFor(
      async () => spans().filter((s) => s.name === 'deliver sse' && s.links.some((l) => l.context.traceId === traceId)),
      (found) => found.length > 0,
      10_000,
      'the SSE delivery span',
    );
    expect(delivery[0]!.links.map((l) => l.context.spanId)).toContain(publish.spanContext().spanId);
    expect(delivery.reduce((n, s) => n + Number(s.attributes[SPAN_ATTR.liveEvents]), 0)).toBe(3);
    expect(delivery[0]!.attributes[SPAN_ATTR.liveTransport]).toBe('sse');
    sse.close();
    // the WebSocket's delivery too
    await ws.waitFor(
      (m) => m.filter((x) => x.sub === 'w' && (x.type === 'observation' || x.type === 'alert')).length === 3,
      'three events on the WebSocket',
    );
    const wsDelivery = await waitFor(
      async () => spans().filter((s) => s.name === 'deliver ws' && s.links.some((l) => l.context.spanId === publish.spanContext().spanId)),
      (found) => found.length > 0,
      10_000,
      'the WebSocket delivery span',
    );
    expect(wsDelivery[0]!.links[0]!.context.traceId).toBe(traceId);
    ws.socket.close();
    // and the MCP session's
    await waitFor(
      async () => liveEvents(updates).length,
      (n) => n === 3,
      45_000,
      'three events as MCP resource updates',
    );
    const mcpDelivery = await waitFor(
      async () => spans().filter((s) => s.name === 'deliver mcp' && s.links.some((l) => l.context.spanId === publish.spanContext().spanId)),
      (found) => found.length > 0,
      10_000,
      'the MCP delivery span',
    );
    expect(mcpDelivery[0]!.links[0]!.context.traceId).toBe(traceId);
    await mcp.close();
    // the upgrade request's span ends with the socket
    await one((s) => s.name === 'GET /api/v1/vitals/ws', 'the WebSocket request span');

    // with traces on, the live path still carries the replay's bytes for each event id
    const replay = await rawStream(streamUrl(gw, { patient }), { ...auth, 'last-event-id': live[0]!.id! });
    const replayed = await replay.until(2, 'the two events after the first, replayed');
    replay.close();
    expect(replayed).toEqual(live.slice(1));
  });

  it('a POST without a traceparent starts a trace of its own that reaches the ingest', async () => {
    const other = `pat-trace-${uid()}`;
    const auth = { authorization: `Bearer ${token}` };
    const posted = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ observations: [numeric(other, `${other}-dev`, 0, new Date())] }),
    });
    expect(posted.status).toBe(202);
    const request = await one((s) => s.name === 'POST /api/v1/vitals' && s.parentSpanContext === undefined, 'the request span, a root');
    const traceId = request.spanContext().traceId;
    await waitFor(
      async () => spans().filter((s) => s.name === `publish vitalis:live:${topics.topic}` && s.spanContext().traceId === traceId).length,
      (n) => n === 1,
      30_000,
      'the publish of the new trace',
    );
  });

  it('a caller that did not sample its trace (flags 00) gets nothing exported for it, deliveries included', async () => {
    const quiet = `pat-trace-${uid()}`;
    const auth = { authorization: `Bearer ${token}` };
    const sse = await rawStream(streamUrl(gw, { patient: quiet }), auth);
    const traceId = hex(16);
    const posted = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', traceparent: `00-${traceId}-${hex(8)}-00` },
      body: JSON.stringify({ observations: [numeric(quiet, `${quiet}-dev`, 0, new Date())] }),
    });
    expect(posted.status).toBe(202);
    await sse.until(1, 'the observation');
    sse.close();
    await gatewayTracing.forceFlush();
    await ingestTracing.forceFlush();
    expect(spans().filter((s) => s.spanContext().traceId === traceId || s.links.some((l) => l.context.traceId === traceId))).toEqual([]);
  });

  it('no exported span and no metrics scrape carries a patient id, a name or a token; span attributes are SPAN_ATTR only', async () => {
    await gatewayTracing.forceFlush();
    await ingestTracing.forceFlush();
    const exported = spans();
    expect(exported.length).toBeGreaterThan(8);
    // the path of GET /api/v1/patients/<id> is named by its pattern
    expect(exported.some((s) => s.name === 'GET /api/v1/patients/:id')).toBe(true);
    const secrets = [patient, family, registeredId, token, client.client_id, client.client_secret];
    const allowed = new Set<string>(Object.values(SPAN_ATTR));
    for (const span of exported) {
      for (const key of Object.keys(span.attributes)) expect(allowed, `attribute ${key} of ${span.name}`).toContain(key);
      const text = JSON.stringify({
        name: span.name,
        attributes: span.attributes,
        links: span.links.map((l) => l.attributes ?? {}),
        events: span.events,
        resource: span.resource.attributes,
        status: span.status,
        traceState: span.spanContext().traceState?.serialize(),
        linkStates: span.links.map((l) => l.context.traceState?.serialize()),
      });
      expect(text, span.name).not.toMatch(/pat-[A-Za-z0-9]|eyJ/);
      for (const secret of secrets) expect(text.toLowerCase(), span.name).not.toContain(secret.toLowerCase());
    }
    for (const url of [gw.metricsUrl!, ingestMetricsServer.url]) {
      const scrape = await (await fetch(url)).text();
      expect(scrape.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(scrape.toLowerCase(), url).not.toContain(secret.toLowerCase());
      expect(scrape).not.toMatch(/pat-[A-Za-z0-9]|eyJ/);
    }
  });
});
