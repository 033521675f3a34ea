/**
 * An ingest stall end to end (issue 31, item 2): what the operator's health and the clinician's
 * screen say while readings are not being stored, and after.
 *
 * A database of the test's own (test/helpers/private-database.ts) whose vitals_observations gets a
 * trigger failing every write with a non-data error while it is switched on (the database "unwell":
 * the ingest retries and never dead-letters; test/helpers/append-log-stall.ts). A real ingest
 * worker on private topics, a real gateway (thresholds in seconds), the vitals-telemetry-monitor
 * card in headless Chromium.
 *  1. readings taken 16 minutes ago are stored; nothing waits: health `ok` (an idle ward), no banner;
 *  2. the switch on, new readings on partition 1 cannot be stored: within 30 s health turns
 *     `degraded` naming partition 1, the card shows "Data delayed — the newest stored reading is
 *     16 min old; …" (role=alert, readable contrast; screenshot test/artifacts/ui-data-delayed.png),
 *     and the ingest's gauge vitalis_vitals_newest_observation_age_seconds reads the same age;
 *  3. the switch off, the waiting readings are stored: health `ok`, the banner goes away.
 * Not destructive for the shared servers (nothing is stopped); here because it changes the schema
 * under a running ingest and drives a browser for a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { createVitalsProducer, type VitalsProducer } from '@vitalis/kafka';
import type { Browser } from 'playwright-core';
import { METRIC, createIngestMetrics, createRegistry } from '@vitalis/metrics';
import type { IngestWorker } from '../../apps/ingest/src/worker';
import { startGateway, type RunningGateway } from '../helpers/gateway';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import { contrastIssues, eventually, launchBrowser, openPage, screenshot, type TestPage } from '../helpers/browser';
import { installAppendLogStall, type AppendLogStall } from '../helpers/append-log-stall';
import { privateDatabase, type PrivateDatabase } from '../helpers/private-database';
import { countStored, numeric, privateTopics, startTestIngest, testKafka, uid, waitFor } from '../integration/vitals/support';

const kafka = testKafka('data-delayed');
const metrics = createIngestMetrics(createRegistry('ingest-data-delayed-test'));
const groupId = `vitalis-test-delayed-${uid()}`;
const patient = `pat-delayed-${uid()}`;
const device = `mon-${uid()}`;
let db: PrivateDatabase;
let admin: Admin;
let producer: VitalsProducer;
let topics: Awaited<ReturnType<typeof privateTopics>>;
let worker: IngestWorker | undefined;
let gw: RunningGateway;
let browser: Browser;
let tp: TestPage;
let token: string;
let seq = 0;
let stall: AppendLogStall;

beforeAll(async () => {
  db = await privateDatabase('delayed');
  stall = await installAppendLogStall(db.pool);
  admin = kafka.admin();
  await admin.connect();
  topics = await privateTopics(admin, 3);
  producer = createVitalsProducer(kafka, { retries: 'unbounded' });
  await producer.connect();
  worker = await startTestIngest(kafka, db.pool, {
    topic: topics.topic,
    dlqTopic: topics.dlqTopic,
    groupId,
    metrics,
    lagPollMs: 250,
    maxWaitTimeInMs: 100,
  });
  gw = await startGateway({
    DATABASE_URL: db.url,
    VITALS_TOPIC: topics.topic,
    LIVE_TOPIC: topics.topic,
    INGEST_GROUP_ID: groupId,
    HEALTH_STALL_AFTER_MS: '5000',
    HEALTH_DATA_AGE_AFTER_MS: '3000',
  });
  // read:vitals only: the monitor then shows the patient's vitals without asking for the name
  token = await clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:vitals'], 'vitalis-delayed-test', 'system', db.url));
  browser = await launchBrowser();
  tp = await openPage(browser);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stall?.stop().catch(() => {});
  await gw?.close();
  await worker?.stop();
  await producer?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await db?.drop();
});

/** Readings of the test's patient (HR, SpO2) at `at`, all on partition 1. */
const produce = (at: Date) =>
  producer.send({
    topic: topics.topic,
    acks: -1,
    messages: [
      {
        partition: 1,
        key: patient,
        value: JSON.stringify(numeric(patient, device, seq++, at, { code: '8867-4', value: 84, unit: '/min' })),
      },
      { partition: 1, key: patient, value: JSON.stringify(numeric(patient, device, seq++, at, { code: '59408-5', value: 96, unit: '%' })) },
    ],
  });

interface Health {
  status: string;
  pipeline: {
    status: string;
    delayed: boolean;
    lag: number;
    stalled_partitions: number[];
    delayed_partitions: number[];
    newest_observation_at: string | null;
    newest_observation_age_s: number | null;
  };
}
const health = async () => (await (await fetch(`${gw.url}/api/v1/health`)).json()) as Health;
const banner = () => tp.page.locator('main > #data-delayed');
/** Waits for the card's next reading of the health (its banner state is then current). */
const nextHealthPoll = () => tp.page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/health', { timeout: 30_000 });
const newestAgeGauge = async () =>
  ((await metrics.registry.getSingleMetric(METRIC.newestObservationAge)?.get())?.values ?? [])[0]?.value ?? Number.NaN;

describe('an ingest stall: health and the cards say so, and recover', () => {
  const sixteenMinutesAgo = new Date(Date.now() - 16 * 60_000 - 20_000);

  it('readings 16 minutes old stored and nothing waiting: health ok (an idle ward), the monitor shows no banner', async () => {
    await produce(sixteenMinutesAgo);
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 2,
      60_000,
      'the old readings stored',
    );
    const idle = await waitFor(health, (h) => h.pipeline.lag === 0, 30_000, 'the group caught up');
    expect(idle.status).toBe('ok');
    expect(idle.pipeline).toMatchObject({ status: 'ok', delayed: false, newest_observation_at: expect.any(String) });
    expect(idle.pipeline.newest_observation_age_s).toBeGreaterThanOrEqual(16 * 60);

    const polled = nextHealthPoll();
    await tp.page.goto(`${gw.url}/ui/vitals-telemetry-monitor#${new URLSearchParams({ token, patient })}`, { waitUntil: 'load' });
    await polled;
    await eventually(
      () =>
        tp.page
          .locator('.tile[data-code="8867-4"] .value')
          .innerText()
          .catch(() => ''),
      (t) => t === '84',
      'the stored heart rate on the monitor',
    );
    expect(await banner().count()).toBe(0);
  });

  it('writes failing: within 30 s health is degraded naming partition 1, and the monitor shows "Data delayed" with the reading\'s age', async () => {
    await stall.start();
    await produce(new Date());

    const delayed = await waitFor(health, (h) => h.pipeline.delayed, 30_000, 'health to name the delayed partition');
    expect(delayed.status).toBe('degraded');
    expect(delayed.pipeline.delayed_partitions).toEqual([1]);
    expect(delayed.pipeline.lag).toBeGreaterThanOrEqual(2);
    expect(delayed.pipeline.newest_observation_age_s).toBeGreaterThanOrEqual(16 * 60);
    // a stall (no progress for HEALTH_STALL_AFTER_MS) names it too, once it has lasted that long
    const stalled = await waitFor(health, (h) => h.pipeline.status === 'stalled', 30_000, 'the partition stalled');
    expect(stalled.pipeline.stalled_partitions).toEqual([1]);
    expect(await countStored(db.pool, { patient })).toMatchObject({ rows: 2 }); // nothing new stored

    await eventually(
      () => banner().count(),
      (n) => n === 1,
      'the "Data delayed" banner',
    );
    const text = await banner().innerText();
    expect(text).toMatch(/^Data delayed — the newest stored reading is 1[67] min old; vitals on this screen may not be current$/);
    expect(await banner().getAttribute('role')).toBe('alert');
    // it is the first thing in the card's <main>, and readable
    expect(await tp.page.locator('main > :first-child').getAttribute('id')).toBe('data-delayed');
    expect((await contrastIssues(tp.page)).filter((i) => i.text.startsWith('Data delayed'))).toEqual([]);
    await screenshot(tp.page, 'ui-data-delayed');

    // the ingest's gauge (the VitalisVitalsDataDelayed alert) reads the same newest reading
    const gauge = await waitFor(newestAgeGauge, (v) => v >= 16 * 60, 30_000, 'the newest-observation age gauge');
    const now = await health();
    expect(Math.abs(gauge - now.pipeline.newest_observation_age_s!)).toBeLessThanOrEqual(5);
  });

  it('writes taken again: the waiting readings are stored, health is ok, the banner goes away', async () => {
    await stall.stop();
    await waitFor(
      () => countStored(db.pool, { patient }),
      (c) => c.rows === 4,
      60_000,
      'the waiting readings stored',
    );
    const ok = await waitFor(health, (h) => h.status === 'ok' && h.pipeline.lag === 0, 30_000, 'health ok again');
    expect(ok.pipeline).toMatchObject({ status: 'ok', delayed: false, stalled_partitions: [], delayed_partitions: [] });
    expect(ok.pipeline.newest_observation_age_s).toBeLessThan(60);
    await eventually(
      () => banner().count(),
      (n) => n === 0,
      'the banner to go away',
    );
    await nextHealthPoll();
    expect(await banner().count()).toBe(0);
    expect(tp.errors).toEqual([]);
  });
});
