/**
 * One bedside alarm's life end to end, through the real pipeline, as a hospital sees it (issue 31's
 * acceptance): a device posts SpO2 over `POST /api/v1/vitals` (device token) → Kafka (topics of this
 * file) → the ingest with its live stage (the onset delay, the raise and the clear) → PostgreSQL (a
 * database of this file's own: the escalator and the watchdog scan every patient, and the watchdog's
 * stall rule reads the newest row of the whole log) → the projector's read model, escalator and
 * device watchdog (run as functions, as test/integration/alarm-jobs does) → a gateway read over
 * REST, FHIR R4 (DetectedIssue), MCP (the official SDK client) and SSE; each acknowledgement's audit
 * row names the acting user. Site settings (VITALIS_ALARMS, the same for all three): a high-priority
 * alarm escalates 2 s after its raise, a monitor is disconnected after 4 s of silence.
 *
 *  1. onset delay: 88 % at 0, 4 and 8 s (device clock) lists no alarm; at 10 s it is raised, high, latching;
 *  2. escalate: nobody acknowledges, the escalator (now past due) escalates it: REST, FHIR and SSE show it;
 *  3. acknowledge: an app acting for itself is refused 403 over REST; a signed-in nurse acknowledges over MCP;
 *  4. resolve: 96 % and, 10 s later (the end delay), 97 % end the condition: resolved (REST), final (FHIR);
 *  5. latching: a second episode nobody acknowledged ends and stays active as latched; the condition
 *     comes back and ends again before anyone acknowledged it: the same alarm (one recurrence), latched
 *     again, until a doctor acknowledges it over REST, then it is resolved;
 *  6. disconnect: another patient's monitor stops while the first keeps sending (no whole-ward stall):
 *     the watchdog raises device-disconnected (technical) on REST and FHIR; its readings again clear it.
 * No timing is asserted: every wait polls an HTTP surface with a generous deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { parseAlarmSettings } from '@vitalis/clinical';
import { createLogger } from '@vitalis/log';
import { createRedis, type Redis } from '@vitalis/redis';
import { createLiveStage, type LiveStage } from '../../../apps/ingest/src/live/stage';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { escalateDueAlarms } from '../../../apps/projector/src/alarm-escalation';
import { createDeviceWatchdog, type DeviceWatchdog } from '../../../apps/projector/src/device-watchdog';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { catchUp } from '../../../apps/projector/src/projections/runner';
import { clientCredentialsToken, initialAccessToken, registerClient } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { REDIRECT_URI, type CodeClient } from '../auth/support';
import { openSse, streamUrl, type SseClient } from '../live/support';
import { connect, userTokenFor, type Connected } from '../mcp/support';
import { privateTopics, startTestIngest, testKafka, uid, waitFor } from '../vitals/support';
import { api, newPatient } from './support';

const SITE_ALARMS = JSON.stringify({ conditions: { 'device-disconnected': { onset_delay_s: 4 } }, escalation_s: { high: 2 } });
const settings = parseAlarmSettings(SITE_ALARMS);
const SPO2 = '59408-5';
const HR = '8867-4';
const LONG = 60_000;

const kafka = testKafka('alarm-lifecycle');
let db: PrivateDatabase;
let admin: Admin;
let topics: Awaited<ReturnType<typeof privateTopics>>;
let redis: Redis;
let live: LiveStage;
let ingest: IngestWorker;
let gw: RunningGateway;
let call: ReturnType<typeof api>;
let device: { authorization: string };
let app: { authorization: string; clientId: string };
let nurse: { headers: { authorization: string }; token: string; clientId: string };
let doctor: { headers: { authorization: string }; token: string; clientId: string };
let sse: SseClient | undefined;
let mcp: Connected | undefined;

/** A signed-in demo user (authorization code through the login and consent pages), with a code client registered in this file's database. */
async function signIn(user: 'nurse' | 'doctor') {
  const res = await fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('system', db.url)}` },
    body: JSON.stringify({
      client_name: `Ward app ${user} <lifecycle test>`,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: [REDIRECT_URI],
      scope: 'read:vitals',
    }),
  });
  expect(res.status).toBe(201);
  const { token, clientId } = await userTokenFor(gw.url, user, ['read:vitals'], (await res.json()) as CodeClient);
  return { headers: { authorization: `Bearer ${token}` }, token, clientId };
}

beforeAll(async () => {
  db = await privateDatabase('alarm_life', 12);
  admin = kafka.admin();
  await admin.connect();
  topics = await privateTopics(admin, 3);
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-alarm-lifecycle' });
  await redis.connect();
  live = createLiveStage({
    pool: db.pool,
    redis,
    topic: topics.topic,
    logger: createLogger('test-ingest-live', 'error'),
    alarms: settings,
  });
  ingest = await startTestIngest(kafka, db.pool, { topic: topics.topic, dlqTopic: topics.dlqTopic, afterCommit: live.afterCommit });
  gw = await startGateway({ DATABASE_URL: db.url, VITALS_TOPIC: topics.topic, LIVE_TOPIC: topics.topic, VITALIS_ALARMS: SITE_ALARMS });
  call = api(gw);
  device = {
    authorization: `Bearer ${await clientCredentialsToken(gw.url, await registerClient(gw.url, ['write:vitals'], 'bedside monitor gateway', 'device', db.url))}`,
  };
  const nurseApp = await registerClient(gw.url, ['read:vitals'], 'ward app acting for itself', 'nurse', db.url);
  app = { authorization: `Bearer ${await clientCredentialsToken(gw.url, nurseApp)}`, clientId: nurseApp.client_id };
  nurse = await signIn('nurse');
  doctor = await signIn('doctor');
}, 120_000);

afterAll(async () => {
  sse?.close();
  await mcp?.close().catch(() => undefined);
  await gw?.close();
  await ingest?.stop();
  live?.stop();
  redis?.disconnect();
  await topics?.drop();
  await admin?.disconnect();
  await db?.drop();
}, 120_000);

// ---- helpers: a device posting, the surfaces read back ----------------------------------------

interface Reading {
  patient: string;
  device: string;
  seq: number;
  at: string;
  code: string;
  value: number;
}

async function post(...readings: Reading[]): Promise<void> {
  const res = await call('POST', '/api/v1/vitals', device, {
    observations: readings.map((r) => ({
      patient_id: r.patient,
      device_id: r.device,
      seq: r.seq,
      effective_at: r.at,
      code: r.code,
      value: r.value,
      unit: r.code === SPO2 ? '%' : '/min',
    })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
}

/** Waits until the latest-vitals endpoint shows `r` stored. */
async function stored(r: Reading): Promise<void> {
  await waitFor(
    () => call('GET', `/api/v1/vitals/latest?patient=${r.patient}&code=${r.code}`, nurse.headers),
    (res) =>
      res.status === 200 && (res.body.data as { seq: number; device_id: string }[]).some((o) => o.device_id === r.device && o.seq >= r.seq),
    LONG,
    `reading ${r.device}#${r.seq} stored`,
  );
}

const alarms = async (patient: string, state = 'active') => {
  const res = await call('GET', `/api/v1/alarms?patient=${patient}&state=${state}`, nurse.headers);
  expect(res.status).toBe(200);
  return res.body.alarms as any[];
};
const fhir = async (path: string) => {
  const res = await call('GET', `/fhir/R4${path}`, { ...nurse.headers, accept: 'application/fhir+json' });
  expect(res.status).toBe(200);
  return res.body;
};
const issues = async (patient: string) =>
  ((await fhir(`/DetectedIssue?patient=${patient}&status=preliminary,final`)).entry ?? []).map((e: any) => e.resource);
const ackAudit = async (alarmId: string) =>
  (
    await db.pool.query<{ outcome: string; actor_subject: string; actor_client_id: string; via: string | null }>(
      `SELECT outcome, actor_subject, actor_client_id, detail->>'via' AS via FROM audit_events WHERE action = 'alarm.acknowledge' AND resource_id = $1 ORDER BY id`,
      [alarmId],
    )
  ).rows;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the lifecycle ------------------------------------------------------------------------------

describe('a bedside alarm through the real pipeline, over REST, FHIR, MCP and the audit trail', () => {
  let patient = '';
  const monitor = `mon-A-${uid()}`;
  // the device's clock: five minutes ago (an accepted effective_at), whole seconds
  const t0 = Math.floor((Date.now() - 300_000) / 1_000) * 1_000;
  let seq = 0;
  const spo2 = (s: number, value: number): Reading => ({
    patient,
    device: monitor,
    seq: ++seq,
    at: new Date(t0 + s * 1_000).toISOString(),
    code: SPO2,
    value,
  });
  let first = ''; // the first episode's alarm id
  let acknowledgedAt = '';

  it(
    'onset delay: 88 % for 0, 4 and 8 s lists no alarm; held for 10 s it is raised, high priority, latching',
    { timeout: LONG * 2 },
    async () => {
      patient = await newPatient(gw);
      sse = await openSse(streamUrl(gw, { patient }), nurse.headers);
      expect(sse.status).toBe(200);

      const early = [spo2(0, 88), spo2(4, 88), spo2(8, 88)];
      for (const r of early) await post(r);
      await stored(early[2]!);
      // the live stage publishes a batch's observations after it appended their alerts: once the
      // stream has carried all three, the ingest has judged them
      await waitFor(
        async () => sse!.events.filter((e) => e.event === 'observation').length,
        (n) => n >= 3,
        LONG,
        'the three early readings on the stream',
      );
      expect(sse.events.filter((e) => e.event === 'alert')).toEqual([]);
      expect(await alarms(patient, 'all')).toEqual([]);
      expect(await issues(patient)).toEqual([]);

      const onset = spo2(10, 88);
      await post(onset);
      const [raised] = await waitFor(
        () => alarms(patient),
        (a) => a.length > 0,
        LONG,
        'the spo2-low alarm listed',
      );
      expect(raised).toMatchObject({
        patient_id: patient,
        rule: 'spo2-low',
        kind: 'physiological',
        priority: 'high',
        latching: true,
        state: 'raised',
        raised_at: onset.at,
        device_id: monitor,
        acknowledged_by: null,
        escalated_to: null,
        resolved_at: null,
      });
      first = raised.alarm_id;
      await waitFor(
        async () => sse!.events.filter((e) => e.event === 'alert'),
        (a) => a.length > 0,
        LONG,
        'the raise on the stream',
      );
      expect(sse.events.filter((e) => e.event === 'alert').map((e) => [e.data.alert_id, e.data.rule, e.data.state])).toEqual([
        [first, 'spo2-low', 'raised'],
      ]);
    },
  );

  it(
    'escalate: unacknowledged past its due time, the projector escalates it; REST, FHIR and the stream show it',
    { timeout: LONG * 2 },
    async () => {
      expect(first).not.toBe('');
      // the projector: its read model catches up, the escalator runs (its clock past the 2 s due time)
      await waitFor(
        async () => {
          await catchUp(db.pool, alarmsProjection);
          return escalateDueAlarms(db.pool, redis, settings, { now: new Date() });
        },
        (run) => run.escalated.includes(first),
        LONG,
        'the escalator escalating the alarm',
      );

      const [listed] = await alarms(patient);
      expect(listed).toMatchObject({ alarm_id: first, state: 'raised', escalated_to: 'charge nurse', escalated_at: expect.any(String) });
      const [issue] = await issues(patient);
      expect(issue).toMatchObject({ id: first, status: 'preliminary', severity: 'high' });
      expect(issue.mitigation).toEqual([
        expect.objectContaining({
          action: expect.objectContaining({ coding: [expect.objectContaining({ code: 'escalated' })], text: 'Escalated to charge nurse' }),
        }),
      ]);
      await waitFor(
        async () => sse!.events.find((e) => e.event === 'alarm' && e.data.event === 'VitalsAlertEscalated'),
        (n) => n !== undefined,
        LONG,
        'the escalation notice on the stream',
      );
      expect(sse!.events.find((e) => e.event === 'alarm')!.data).toMatchObject({ alert_id: first, patient_id: patient });
    },
  );

  it(
    'acknowledge: an app acting for itself is refused over REST; a signed-in nurse acknowledges over MCP; the audit names her',
    { timeout: LONG * 2 },
    async () => {
      const refused = await call('POST', `/api/v1/alarms/${first}/acknowledge`, app, {});
      expect(refused.status).toBe(403);
      expect((await alarms(patient))[0]).toMatchObject({ alarm_id: first, state: 'raised', acknowledged_by: null });

      mcp = await connect(gw.url, nurse.token);
      const ack = (await mcp.client.callTool({
        name: 'acknowledge_alarm',
        arguments: { alarm_id: first, note: 'probe repositioned, oxygen on' },
      })) as any;
      expect(ack.isError).toBeFalsy();
      expect(ack.structuredContent.alarm).toMatchObject({ alarm_id: first, state: 'acknowledged' });

      const [listed] = await alarms(patient);
      expect(listed).toMatchObject({
        alarm_id: first,
        state: 'acknowledged',
        note: 'probe repositioned, oxygen on',
        acknowledged_at: expect.any(String),
        acknowledged_by: { user: 'usr-demo-nurse', name: 'Demo Nurse', client_id: nurse.clientId },
        escalated_to: 'charge nurse',
      });
      acknowledgedAt = listed.acknowledged_at;
      // MCP reads the same
      const viaMcp = (await mcp.client.callTool({ name: 'list_alarms', arguments: { patient_id: patient } })) as any;
      expect(viaMcp.structuredContent.alarms).toEqual([
        expect.objectContaining({
          alarm_id: first,
          state: 'acknowledged',
          acknowledged_by: expect.objectContaining({ user: 'usr-demo-nurse' }),
        }),
      ]);
      const [issue] = await issues(patient);
      expect(issue.mitigation.map((m: any) => m.action.coding[0].code).sort()).toEqual(['acknowledged', 'escalated']);
      expect(issue.mitigation.find((m: any) => m.action.coding[0].code === 'acknowledged').author).toMatchObject({
        identifier: { value: 'usr-demo-nurse' },
        display: 'Demo Nurse',
      });

      expect(
        await waitFor(
          () => ackAudit(first),
          (rows) => rows.length >= 2,
          LONG,
          'the audit rows',
        ),
      ).toEqual([
        { outcome: 'failure', actor_subject: app.clientId, actor_client_id: app.clientId, via: null },
        { outcome: 'success', actor_subject: 'usr-demo-nurse', actor_client_id: nurse.clientId, via: 'mcp' },
      ]);
    },
  );

  it(
    'resolve: 96 % for its end delay ends the condition; the acknowledged alarm is resolved (REST) and final (FHIR)',
    { timeout: LONG * 2 },
    async () => {
      await post(spo2(30, 96));
      await post(spo2(40, 97)); // absent for 10 s of device time: the end is decided on this reading
      const resolved = await waitFor(
        () => alarms(patient, 'all'),
        (a) => a.some((x) => x.alarm_id === first && x.state === 'resolved'),
        LONG,
        'the alarm resolved',
      );
      // resolved at the later of the condition's end (device clock, minutes ago here) and the acknowledgement
      expect(resolved.find((x) => x.alarm_id === first)).toMatchObject({
        state: 'resolved',
        condition_ended_at: new Date(t0 + 40_000).toISOString(),
        acknowledged_at: acknowledgedAt,
        resolved_at: acknowledgedAt,
        acknowledged_by: { user: 'usr-demo-nurse' },
      });
      expect(await alarms(patient)).toEqual([]);
      expect(await fhir(`/DetectedIssue/${first}`)).toMatchObject({ resourceType: 'DetectedIssue', id: first, status: 'final' });
    },
  );

  it(
    'latching: a second episode nobody acknowledged ends and stays latched, comes back as the same alarm, until a doctor acknowledges it over REST',
    { timeout: LONG * 2 },
    async () => {
      await post(spo2(45, 89));
      await post(spo2(55, 87)); // held 10 s: raised
      await post(spo2(60, 97), spo2(70, 97)); // ended for 10 s: nobody acknowledged it, it latches
      const [latched] = await waitFor(
        () => alarms(patient),
        (a) => a.some((x) => x.state === 'latched'),
        LONG,
        'the second alarm latched',
      );
      expect(latched).toMatchObject({
        rule: 'spo2-low',
        state: 'latched',
        raised_at: new Date(t0 + 55_000).toISOString(),
        condition_ended_at: new Date(t0 + 70_000).toISOString(),
        acknowledged_by: null,
        resolved_at: null,
        recurrences: 0,
      });
      expect(latched.alarm_id).not.toBe(first);
      const second = latched.alarm_id as string;

      // the condition comes back before anyone acknowledged it: the same alarm, raised again, not a third one
      await post(spo2(75, 88), spo2(85, 88));
      const [back] = await waitFor(
        () => alarms(patient),
        (a) => a.some((x) => x.state === 'raised'),
        LONG,
        'the latched alarm raised again',
      );
      expect(back).toMatchObject({
        alarm_id: second,
        state: 'raised',
        raised_at: new Date(t0 + 55_000).toISOString(),
        condition_since: new Date(t0 + 85_000).toISOString(),
        recurrences: 1,
        condition_ended_at: null,
      });
      await post(spo2(90, 97), spo2(100, 97));
      await waitFor(
        () => alarms(patient),
        (a) => a.some((x) => x.state === 'latched'),
        LONG,
        'latched again',
      );
      // still on every screen: the active list, the FHIR search (preliminary), a while later too
      await sleep(1_000);
      expect((await alarms(patient)).map((a) => [a.alarm_id, a.state])).toEqual([[second, 'latched']]);
      expect((await fhir(`/DetectedIssue/${second}`)).status).toBe('preliminary');

      const ack = await call('POST', `/api/v1/alarms/${second}/acknowledge`, doctor.headers, {
        note: 'saw the desaturation, patient asleep',
      });
      expect(ack.status).toBe(200);
      expect(ack.body).toMatchObject({
        alarm_id: second,
        state: 'resolved',
        acknowledged_by: { user: 'usr-demo-doctor', name: 'Dr. Demo Doctor' },
      });
      expect(await alarms(patient)).toEqual([]);
      expect((await alarms(patient, 'resolved')).map((a) => a.alarm_id).sort()).toEqual([first, second].sort());
      expect(await fhir(`/DetectedIssue/${second}`)).toMatchObject({ status: 'final' });
      expect(
        await waitFor(
          () => ackAudit(second),
          (rows) => rows.length >= 1,
          LONG,
          'the audit row',
        ),
      ).toEqual([{ outcome: 'success', actor_subject: 'usr-demo-doctor', actor_client_id: doctor.clientId, via: 'rest' }]);
    },
  );

  it(
    "disconnect: another patient's monitor falls silent while the ward sends; the watchdog raises device-disconnected; its readings again clear it",
    { timeout: LONG * 3 },
    async () => {
      const other = await newPatient(gw);
      const silent = `mon-B-${uid()}`;
      let otherSeq = 0;
      const hr = (p: string, d: string, s: number): Reading => ({
        patient: p,
        device: d,
        seq: s,
        at: new Date(Date.now() - 1_000).toISOString(),
        code: HR,
        value: 72,
      });

      // the first patient's monitor keeps sending, so the ward is not an all-patients stall
      let keepAlive = true;
      const sending = (async () => {
        while (keepAlive) {
          await post(hr(patient, monitor, ++seq));
          await sleep(400);
        }
      })();
      const watchdog: DeviceWatchdog = createDeviceWatchdog(db.pool, redis, settings);
      const runWatchdog = async () => {
        await catchUp(db.pool, alarmsProjection);
        return watchdog.run();
      };
      try {
        const last = hr(other, silent, ++otherSeq);
        await post(last);
        await stored(last);
        await stored(hr(patient, monitor, seq));

        const [disconnected] = await waitFor(
          async () => {
            await runWatchdog();
            return alarms(other);
          },
          (a) => a.length > 0,
          LONG,
          'the device-disconnected alarm listed',
        );
        expect(disconnected).toMatchObject({
          patient_id: other,
          rule: 'device-disconnected',
          kind: 'technical',
          priority: 'medium',
          latching: false,
          state: 'raised',
          device_id: silent,
        });
        expect(disconnected.message).toContain(silent);
        const [issue] = await issues(other);
        expect(issue).toMatchObject({
          id: disconnected.alarm_id,
          status: 'preliminary',
          severity: 'moderate',
          code: { coding: [expect.objectContaining({ code: 'device-disconnected' })] },
        });

        // the monitor sends again: cleared (not latching: resolved)
        await post(hr(other, silent, ++otherSeq));
        const all = await waitFor(
          async () => {
            await runWatchdog();
            return alarms(other, 'all');
          },
          (a) => a.some((x) => x.alarm_id === disconnected.alarm_id && x.state === 'resolved'),
          LONG,
          'the device-disconnected alarm resolved',
        );
        expect(all.find((x) => x.alarm_id === disconnected.alarm_id)).toMatchObject({ state: 'resolved', resolved_at: expect.any(String) });
        expect(await alarms(other)).toEqual([]);
        expect((await fhir(`/DetectedIssue/${disconnected.alarm_id}`)).status).toBe('final');
      } finally {
        keepAlive = false;
        await sending;
      }
    },
  );
});
