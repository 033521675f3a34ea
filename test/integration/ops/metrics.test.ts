/**
 * Prometheus metrics against real servers: a gateway (metrics on their own loopback listener, as
 * main.ts serves them on METRICS_PORT) and an ingest worker with its live stage on a private VitalisKafka
 * topic. After real traffic (a token, a refused token, a patient registered and searched by name,
 * an SSE subscription receiving an observation and an alert, a vitals read) each scrape holds the
 * named series with plausible values, and no label value carries a patient id, a name or a token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalisKafka, type VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import {
  METRIC,
  createIngestMetrics,
  createRegistry,
  observePool,
  observeProjections,
  observeRedis,
  startMetricsServer,
  type MetricsServer,
} from '@vitalis/metrics';
import { projectionPositions } from '../../../apps/projector/src/projections/runner';
import { createRedis, type Redis } from '@vitalis/redis';
import { createLiveStage, type LiveStage } from '../../../apps/ingest/src/live/stage';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { has, scrape, total, type Sample } from '../../helpers/prometheus';
import { openSse, streamUrl } from '../live/support';
import { numeric, privateTopics, startTestIngest, testKafka, testPool, uid, waitFor } from '../vitals/support';

let kafka: VitalisKafka;
let admin: Admin;
let pool: Pool;
let redis: Redis;
let producer: VitalsProducer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
let stage: LiveStage;
let worker: IngestWorker;
let ingestMetricsServer: MetricsServer;
let gw: RunningGateway;

beforeAll(async () => {
  kafka = testKafka('metrics');
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-metrics' });
  await redis.connect();
  topics = await privateTopics(admin, 3);
  // The ingest wired as apps/ingest/src/main.ts wires it.
  const registry = createRegistry('ingest');
  observePool(registry, pool);
  observeRedis(registry, redis);
  const metrics = createIngestMetrics(registry);
  stage = createLiveStage({ pool, redis, topic: topics.topic, logger: createLogger('test-live', 'error'), metrics });
  worker = await startTestIngest(kafka, pool, {
    topic: topics.topic,
    dlqTopic: topics.dlqTopic,
    maxWaitTimeInMs: 50,
    afterCommit: stage.afterCommit,
    metrics,
    lagPollMs: 300,
  });
  ingestMetricsServer = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
  producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
  gw = await startGateway({ LIVE_TOPIC: topics.topic }, { metrics: true });
});

afterAll(async () => {
  await gw?.close();
  await ingestMetricsServer?.close();
  await worker?.stop();
  stage?.stop();
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  redis?.disconnect();
  await pool?.end();
});

/** Every label value must be from a closed set: never a patient id, a name, a token or a client's credentials. */
function expectNoSecretsInLabels(samples: Sample[], secrets: string[]): void {
  const values = [...new Set(samples.flatMap((s) => Object.values(s.labels)))];
  expect(values.length).toBeGreaterThan(0);
  for (const value of values) {
    expect(value, `label value ${value}`).not.toMatch(/pat-[A-Za-z0-9]|sbx-[A-Za-z0-9]|eyJ/);
    for (const secret of secrets) expect(value.toLowerCase(), `label value ${value}`).not.toContain(secret.toLowerCase());
  }
}

describe('metrics scrape', () => {
  let client: RegisteredClient;
  let token: string;
  const family = `Metricsfamily${uid()}`;
  const livePatient = `pat-metrics-${uid()}`;
  let registeredId = '';

  it('the gateway serves HTTP, token, live, pool and Redis series by route pattern, and no PHI or token in a label', async () => {
    client = await registerClient(gw.url, ['read:patients', 'write:patients', 'read:vitals']);
    token = await clientCredentialsToken(gw.url, client);
    const auth = { authorization: `Bearer ${token}` };
    // a refused token request: a wrong secret
    const refused = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'wrong-secret' }),
    });
    expect(refused.status).toBe(401);
    // a grant type that is not ours (and an Object.prototype key): a 400, counted as `unsupported`, never by its name
    const unsupported = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'constructor' }),
    });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ error: 'unsupported_grant_type' });

    const created = await fetch(`${gw.url}/api/v1/patients`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'Patient', name: [{ family, given: ['Ada'] }], birthDate: '1980-02-03', gender: 'female' }),
    });
    expect(created.status).toBe(201);
    registeredId = ((await created.json()) as { id: string }).id;
    expect((await fetch(`${gw.url}/api/v1/patients?name=${family}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${gw.url}/api/v1/patients/${registeredId}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${gw.url}/no/such/route/${registeredId}`, { headers: auth })).status).toBe(404);

    // live: an observation and a sys-high alert (systolic 230 mmHg: medium priority, no onset delay) to an SSE subscriber
    const sse = await openSse(streamUrl(gw, { patient: livePatient }), auth);
    expect(sse.status).toBe(200);
    await producer.send({
      topic: topics.topic,
      acks: -1,
      messages: [
        numeric(livePatient, `${livePatient}-dev`, 0, new Date()),
        numeric(livePatient, `${livePatient}-dev`, 1, new Date(), { code: '8480-6', value: 230, unit: 'mm[Hg]' }),
      ].map((v) => ({ key: livePatient, value: JSON.stringify(v) })),
    });
    const events = await sse.waitForEvents(3, 'two observations and an alert');
    expect(events.map((e) => e.event).sort()).toEqual(['alert', 'observation', 'observation']);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await fetch(`${gw.url}/api/v1/vitals?${new URLSearchParams({ patient: livePatient, from, to })}`, { headers: auth })).status,
    ).toBe(200);

    const { text, samples } = await scrape(gw.metricsUrl!);
    sse.close();
    // only on the metrics listener: not on the API's port, and nothing else on the metrics one
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(404);
    expect((await fetch(gw.metricsUrl!.replace(/\/metrics$/, '/other'))).status).toBe(404);

    // HTTP by route pattern, never the raw URL
    expect(total(samples, METRIC.httpRequests, { method: 'GET', route: '/api/v1/patients', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, METRIC.httpRequests, { method: 'GET', route: '/api/v1/patients/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, METRIC.httpRequests, { method: 'POST', route: '/api/v1/patients', status: '201' })).toBe(1);
    expect(total(samples, METRIC.httpRequests, { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(total(samples, METRIC.httpRequests, { method: 'GET', route: '/api/v1/vitals', status: '200' })).toBe(1);
    expect(
      total(samples, `${METRIC.httpDuration}_count`, { method: 'GET', route: '/api/v1/patients', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      total(samples, `${METRIC.httpDuration}_bucket`, { method: 'GET', route: '/api/v1/patients', status_class: '2xx', le: '+Inf' }),
    ).toBeGreaterThanOrEqual(1);
    expect(total(samples, `${METRIC.httpDuration}_sum`, { route: '/api/v1/patients' })).toBeGreaterThan(0);
    // tokens: issued and refused, by grant type and reason
    expect(total(samples, METRIC.tokensIssued, { grant_type: 'client_credentials' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, METRIC.tokensRefused, { grant_type: 'client_credentials', reason: 'invalid_client' })).toBe(1);
    expect(total(samples, METRIC.tokensRefused, { grant_type: 'unsupported', reason: 'unsupported_grant_type' })).toBe(1);
    expect(has(samples, METRIC.tokensRefused, { grant_type: 'constructor' })).toBe(false);
    // live: subscribers by transport, delivered events, device-to-subscriber and alert delivery latency
    expect(has(samples, METRIC.liveSubscribers, { transport: 'sse' })).toBe(true);
    expect(total(samples, METRIC.liveSubscribers, { transport: 'sse' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, METRIC.liveDelivered)).toBeGreaterThanOrEqual(3);
    expect(has(samples, METRIC.liveLagged)).toBe(true);
    expect(total(samples, `${METRIC.liveDeviceToSubscriber}_count`)).toBeGreaterThanOrEqual(2);
    expect(total(samples, `${METRIC.liveDeviceToSubscriber}_bucket`, { le: '+Inf' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, `${METRIC.alertDelivery}_count`, { severity: 'medium' })).toBeGreaterThanOrEqual(1);
    expect(has(samples, METRIC.auditWriteFailures)).toBe(true);
    // infrastructure and process
    expect(total(samples, METRIC.pgPool, { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(has(samples, METRIC.pgPool, { state: 'waiting' })).toBe(true);
    expect(total(samples, METRIC.redisUp)).toBe(1);
    expect(total(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.filter((s) => s.name === METRIC.redisUp).every((s) => s.labels.app === 'gateway')).toBe(true);

    expectNoSecretsInLabels(samples, [family, livePatient, registeredId, token, client.client_id, client.client_secret]);
    for (const secret of [family, livePatient, registeredId, token, client.client_secret]) expect(text).not.toContain(secret);
  });

  it('the ingest serves rows, batches, transaction time, consumer lag per partition and live-stage series', async () => {
    await waitFor(
      async () => total((await scrape(ingestMetricsServer.url)).samples, METRIC.ingestRowsStored),
      (n) => n >= 2,
      30_000,
      'two rows stored',
    );
    // the lag poll has read the committed offsets: every partition of the topic is reported, all caught up
    const { text, samples } = await waitFor(
      () => scrape(ingestMetricsServer.url),
      (s) =>
        s.samples.filter((x) => x.name === METRIC.kafkaConsumerLag && x.labels.topic === topics.topic).length === 3 &&
        total(s.samples, METRIC.kafkaConsumerLag, { topic: topics.topic }) === 0,
      30_000,
      'the lag of the three partitions at 0',
    );
    expect(total(samples, METRIC.ingestMessages)).toBeGreaterThanOrEqual(2);
    expect(total(samples, METRIC.ingestBatches)).toBeGreaterThanOrEqual(1);
    expect(total(samples, `${METRIC.ingestBatchSize}_count`)).toBe(total(samples, METRIC.ingestBatches));
    expect(total(samples, `${METRIC.ingestTransaction}_count`)).toBeGreaterThanOrEqual(1);
    expect(total(samples, `${METRIC.ingestTransaction}_sum`)).toBeGreaterThan(0);
    expect(total(samples, `${METRIC.ingestDeviceToPublish}_count`)).toBeGreaterThanOrEqual(2);
    expect(total(samples, METRIC.alertsRaised, { priority: 'medium', rule: 'sys-high', state: 'raised' })).toBe(1);
    expect(has(samples, METRIC.ingestDeadLettered)).toBe(true);
    expect(has(samples, METRIC.ingestDuplicates)).toBe(true);
    expect(has(samples, METRIC.ingestPublishFailures)).toBe(true);
    expect(total(samples, METRIC.redisUp)).toBe(1);
    expect(has(samples, METRIC.pgPool, { state: 'idle' })).toBe(true);
    expectNoSecretsInLabels(samples, [livePatient]);
    expect(text).not.toContain(livePatient);
  });

  it("the projector serves the event-store head and each projection's position and lag", async () => {
    // wired as apps/projector/src/main.ts wires it (the projections need not be running: positions are read, not moved)
    const registry = createRegistry('projector');
    observePool(registry, pool);
    observeProjections(registry, () => projectionPositions(pool));
    const server = await startMetricsServer(registry, { host: '127.0.0.1', port: 0 });
    try {
      const { samples } = await scrape(server.url);
      const head = total(samples, METRIC.eventstoreHead);
      expect(head).toBeGreaterThan(0); // the patient registered above is an event
      const positions = samples.filter((x) => x.name === METRIC.projectionPosition);
      expect(positions.map((p) => p.labels.projection).sort()).toEqual([
        'alarms',
        'diagnostic-reports',
        'patients',
        'service-requests',
        'slots',
        'triage',
      ]);
      for (const p of positions) {
        expect(p.value).toBeLessThanOrEqual(head);
        expect(total(samples, METRIC.projectionLag, { projection: p.labels.projection! })).toBe(head - p.value);
      }
      expect(total(samples, METRIC.pgPool, { state: 'total' })).toBeGreaterThanOrEqual(1);
    } finally {
      await server.close();
    }
  });
});
