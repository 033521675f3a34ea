/**
 * Live vitals over SSE against a real gateway, a real ingest worker (live stage in-process) on a
 * private Kafka topic, real PostgreSQL and Redis: delivery, Last-Event-ID resume without gap or
 * duplicate, ward streams, 401/403 before the stream opens, revocation closing a stream, alerts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { withTransaction } from '@vitalis/db';
import { readStream } from '@vitalis/eventstore';
import { alertStream, encodeBatch, liveChannel } from '@vitalis/live';
import { writeRows, type StoredRow } from '../../../apps/ingest/src/store';
import { numeric, openSse, openWs, startRig, streamUrl, uid, waitFor, type LiveRig } from './support';

let rig: LiveRig;
let auth: { authorization: string };

beforeAll(async () => {
  rig = await startRig('live-sse');
  const client = await registerClient(rig.gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, client)}` };
});
afterAll(async () => {
  await rig?.close();
});

const observations = (patient: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => numeric(patient, `${patient}-dev`, from + i, new Date(Date.now() + i)));

describe('GET /api/v1/vitals/stream', () => {
  it('refuses without a token (401) and without read:vitals (403) before the stream opens', async () => {
    const url = streamUrl(rig.gw, { patient: `pat-${uid()}` });
    const anon = await openSse(url, {});
    expect(anon.status).toBe(401);
    expect(anon.body).toMatchObject({ status: 401 });
    const writer = await registerClient(rig.gw.url, ['write:vitals']);
    const noScope = await openSse(url, { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, writer)}` });
    expect(noScope.status).toBe(403);
    expect(noScope.contentType).toMatch(/^application\/problem\+json/); // 401/403 are RFC 9457 problems (ADR 0011)
    expect(noScope.body).toMatchObject({ status: 403 });
    const bad = await openSse(url, { ...auth, 'last-event-id': 'not-an-id' });
    expect(bad.status).toBe(400);
    const badPatient = await openSse(streamUrl(rig.gw, { patient: 'bad id!' }), auth);
    expect(badPatient.status).toBe(400);
  });

  it('delivers an observation produced to Kafka, then resumes with Last-Event-ID: exactly the 100 missed, in order', async () => {
    const patient = `pat-live-${uid()}`;
    const first = await openSse(streamUrl(rig.gw, { patient }), auth);
    expect(first.status).toBe(200);
    expect(first.contentType).toMatch(/^text\/event-stream/);
    await rig.send(patient, observations(patient, 0, 1));
    const [got] = await first.waitForEvents(1, 'the first observation');
    expect(got).toMatchObject({ event: 'observation', data: { patient_id: patient, seq: 0, code: '8867-4' } });
    expect(got!.id).toMatch(/^\d+-\d+$/);
    first.close();

    await rig.send(patient, observations(patient, 1, 100));
    // the 100 are in the append log before we reconnect (durable before they are streamed)
    await waitFor(
      async () => (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n,
      (n) => n === 101,
    );

    const second = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': got!.id! });
    await second.waitForEvents(100, '100 replayed observations');
    await rig.send(patient, observations(patient, 101, 5)); // and then live, with no gap
    const events = await second.waitForEvents(105, '5 live observations after the replay');
    await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive (no duplicates)
    expect(second.events.map((e) => e.data.seq)).toEqual(Array.from({ length: 105 }, (_, i) => i + 1));
    const ids = events.map((e) => e.id!);
    expect(new Set(ids).size).toBe(105);
    second.close();
    // both subscriptions are in the audit trail as reads of the patient's vitals
    const { rows: audit } = await rig.pool.query(
      `SELECT action, outcome, scope, detail->>'resume' AS resume FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1 ORDER BY id`,
      [patient],
    );
    expect(audit).toEqual([
      { action: 'vitals.stream', outcome: 'success', scope: 'read:vitals', resume: 'false' },
      { action: 'vitals.stream', outcome: 'success', scope: 'read:vitals', resume: 'true' },
      // the resume's replay from the append log (written once the replay is done, before live data)
      { action: 'vitals.replay', outcome: 'success', scope: 'read:vitals', resume: null },
    ]);
    const { rows: replay } = await rig.pool.query(`SELECT detail FROM audit_events WHERE action = 'vitals.replay' AND resource_id = $1`, [
      patient,
    ]);
    expect(replay).toEqual([{ detail: { via: 'sse', from_id: got!.id, events: 100, truncated: false, window_seconds: 300 } }]);
  });

  it('no gap and no duplicate when observations keep arriving while the replay runs', async () => {
    const patient = `pat-race-${uid()}`;
    const first = await openSse(streamUrl(rig.gw, { patient }), auth);
    await rig.send(patient, observations(patient, 0, 1));
    const [got] = await first.waitForEvents(1, 'the first observation');
    first.close();
    await rig.send(patient, observations(patient, 1, 50)); // missed while away
    // reconnect while 20 more batches are being produced: some land before, during and after the replay
    const producing = (async () => {
      for (let b = 0; b < 20; b++) await rig.send(patient, observations(patient, 51 + b * 10, 10));
    })();
    const resumed = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': got!.id! });
    await producing;
    await resumed.waitForEvents(250, 'all 250 after the resume id');
    await new Promise((r) => setTimeout(r, 500));
    expect(resumed.events.map((e) => e.data.seq)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    resumed.close();
  });

  it('a fan-out message seen twice (ingest redelivery after a rebalance) is delivered once', async () => {
    const patient = `pat-dup-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient }), auth);
    await rig.send(patient, observations(patient, 0, 5));
    const events = await sse.waitForEvents(5, 'five observations');
    // replay the same positions on the channel, as a second ingest instance would after a rebalance
    const [partition, last] = events.at(-1)!.id!.split('-').map(Number) as [number, number];
    const first = last - 4;
    await rig.redis.publish(
      liveChannel(rig.topic),
      encodeBatch({
        v: 1,
        partition,
        first,
        last,
        events: events.map((e, i) => ({ kind: 'observation', partition, offset: first + i, k: 0, patient_id: patient, data: e.data })),
      }),
    );
    await rig.send(patient, observations(patient, 5, 1));
    await sse.waitForEvents(6, 'the next observation');
    await new Promise((r) => setTimeout(r, 300));
    expect(sse.events.map((e) => e.data.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    sse.close();
  });

  it('an observation Kafka holds twice (a device re-sent a batch whose answer it never got) is delivered once, at the position the log gives it, live and replayed alike', async () => {
    const patient = `pat-resent-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient }), auth);
    const [o0, o1, o2, o3] = observations(patient, 0, 4);
    await rig.send(patient, [o0!]);
    await sse.waitForEvents(1, 'the first observation');
    // the re-sent copy in a later batch, then a copy inside one batch
    await rig.send(patient, [o0!, o1!]);
    await rig.send(patient, [o2!, o2!, o3!]);
    await sse.waitForEvents(4, 'four observations');
    await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
    sse.close();
    expect(sse.events.map((e) => e.data.seq)).toEqual([0, 1, 2, 3]);
    const { rows } = await rig.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [
      patient,
    ]);
    expect(rows[0]!.n).toBe(4);
    // a subscriber resuming from the first id replays the log: the same events with the same ids
    const resumed = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': sse.events[0]!.id! });
    await resumed.waitForEvents(3, 'the replayed three');
    await new Promise((r) => setTimeout(r, 300));
    resumed.close();
    expect(resumed.events.map((e) => ({ id: e.id, seq: e.data.seq }))).toEqual(
      sse.events.slice(1).map((e) => ({ id: e.id, seq: e.data.seq })),
    );
  });

  it('the hub API (what MCP resources/subscribe uses): callback subscription, resume by id string', async () => {
    const patient = `pat-hub-${uid()}`;
    const got: { id: string; seq: number }[] = [];
    const unsubscribe = rig.gw.app.liveHub.subscribeCallback({ patients: [patient] }, (m) => {
      if (m.type === 'observation') got.push({ id: m.id, seq: m.data.seq });
    });
    await unsubscribe.ready;
    await rig.send(patient, observations(patient, 0, 3));
    await waitFor(
      async () => got.length,
      (n) => n === 3,
      45_000,
      'three via the hub',
    );
    unsubscribe();
    const resumed: number[] = [];
    const again = rig.gw.app.liveHub.subscribeCallback({ patients: [patient], after: got[0]!.id }, (m) => {
      if (m.type === 'observation') resumed.push(m.data.seq);
    });
    await waitFor(
      async () => resumed.length,
      (n) => n === 2,
      45_000,
      'the two after the first',
    );
    expect(resumed).toEqual([1, 2]);
    again();
    expect(() => rig.gw.app.liveHub.subscribeCallback({ patients: [patient], after: 'nope' }, () => {})).toThrow(/not a live stream id/);
  });

  it('serves a ward stream (several patients) with composite ids, and resumes it', async () => {
    const ward = Array.from({ length: 4 }, () => `pat-ward-${uid()}`);
    const sse = await openSse(streamUrl(rig.gw, { patient: ward.join(',') }), auth);
    for (const p of ward) await rig.send(p, observations(p, 0, 3));
    const events = await sse.waitForEvents(12, '3 observations of each of 4 patients');
    for (const p of ward) expect(events.filter((e) => e.data.patient_id === p).map((e) => e.data.seq)).toEqual([0, 1, 2]);
    const cut = events[5]!.id!;
    sse.close();
    for (const p of ward) await rig.send(p, observations(p, 3, 2));
    const resumed = await openSse(streamUrl(rig.gw, { patient: ward.join(',') }), { ...auth, 'last-event-id': cut });
    // everything after event #6 of the first stream: the 6 not yet seen + 8 new ones
    const after = await resumed.waitForEvents(14, 'the rest of the ward');
    await new Promise((r) => setTimeout(r, 500));
    expect(resumed.events).toHaveLength(14);
    const key = (e: { data: { patient_id: string; seq: number } }) => `${e.data.patient_id}/${e.data.seq}`;
    const seen = new Set([...events.slice(0, 6), ...after].map(key));
    expect(seen.size).toBe(20);
    resumed.close();
  });

  it('filters by code', async () => {
    const patient = `pat-code-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient, code: '59408-5', alerts: 'false' }), auth);
    const at = new Date();
    await rig.send(patient, [
      numeric(patient, `${patient}-d`, 1, at),
      numeric(patient, `${patient}-d`, 2, at, { code: '59408-5', value: 97, unit: '%' }),
      numeric(patient, `${patient}-d`, 3, at),
    ]);
    await rig.send(patient, [numeric(patient, `${patient}-d`, 4, at, { code: '59408-5', value: 96, unit: '%' })]);
    await sse.waitForEvents(2, 'two SpO2 observations');
    expect(sse.events.map((e) => [e.data.code, e.data.seq])).toEqual([
      ['59408-5', 2],
      ['59408-5', 4],
    ]);
    sse.close();
  });

  it('closes an open stream when its token is revoked', async () => {
    const client = await registerClient(rig.gw.url, ['read:vitals']);
    const token = await clientCredentialsToken(rig.gw.url, client);
    const patient = `pat-rev-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient }), { authorization: `Bearer ${token}` });
    expect(sse.status).toBe(200);
    const res = await fetch(`${rig.gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token, client_id: client.client_id, client_secret: client.client_secret }),
    });
    expect(res.status).toBe(200);
    await sse.ended; // the server ends the stream (the test would time out otherwise)
    expect(sse.events.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'revoked' } });
    const again = await openSse(streamUrl(rig.gw, { patient }), { authorization: `Bearer ${token}` });
    expect(again.status).toBe(401);
  });

  it('raises an alarm for SpO2 ≤ 91 % held for 10 s (its onset delay): on the stream and in the events table', async () => {
    const patient = `pat-alert-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient }), auth);
    const t0 = Date.now() - 60_000;
    const spo2 = (seq: number, s: number, value: number) =>
      numeric(patient, `${patient}-ox`, seq, new Date(t0 + s * 1000), { code: '59408-5', value, unit: '%' });
    await rig.send(patient, [
      spo2(1, 0, 96),
      spo2(2, 2, 89),
      spo2(3, 7, 87),
      spo2(4, 12, 86),
      spo2(5, 14, 85),
      spo2(6, 20, 95),
      spo2(7, 30, 96),
    ]);
    const events = await sse.waitForEvents(9, '7 observations + raised + cleared (after its 10 s end delay)');
    const alerts = events.filter((e) => e.event === 'alert');
    expect(alerts.map((a) => [a.data.rule, a.data.state, a.data.triggered_by.seq])).toEqual([
      ['spo2-low', 'raised', 4],
      ['spo2-low', 'cleared', 7],
    ]);
    expect(alerts[0]!.data).toMatchObject({
      priority: 'high',
      severity: 'high',
      kind: 'physiological',
      latching: true,
      label: 'SpO2 low',
      value: 86,
    });
    expect(alerts[0]!.data.flag).toMatchObject({
      resourceType: 'Flag',
      status: 'active',
      subject: { reference: `Patient/${patient}` },
      extension: [
        {
          url: 'http://hl7.org/fhir/StructureDefinition/flag-priority',
          valueCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/flag-priority-code', code: 'PH' }] },
        },
      ],
    });
    // the alert sorts right after the observation that raised it
    const idx = events.findIndex((e) => e.event === 'alert');
    expect(events[idx - 1]!.data.seq).toBe(4);
    const stored = await readStream(rig.pool, alertStream(patient));
    expect(stored.map((e) => [e.type, e.streamVersion, e.data.rule])).toEqual([
      ['VitalsAlertRaised', 1, 'spo2-low'],
      ['VitalsAlertCleared', 2, 'spo2-low'],
    ]);
    sse.close();

    // resuming between the observation and its alert replays the alert (alerts are in the append log too)
    const beforeAlert = events[idx - 1]!.id!;
    const resumed = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': beforeAlert });
    const replayed = await resumed.waitForEvents(5, 'alert, 3 observations, clear');
    expect(replayed.map((e) => e.event)).toEqual(['alert', 'observation', 'observation', 'observation', 'alert']);
    resumed.close();
  });

  it('closes an open WebSocket (4401) when its token is revoked', async () => {
    const client = await registerClient(rig.gw.url, ['read:vitals']);
    const token = await clientCredentialsToken(rig.gw.url, client);
    const ws = await openWs(`${rig.gw.url}/api/v1/vitals/ws`, { authorization: `Bearer ${token}` });
    ws.send({ type: 'subscribe', sub: 'r', patients: [`pat-${uid()}`] });
    await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');
    await fetch(`${rig.gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token, client_id: client.client_id, client_secret: client.client_secret }),
    });
    expect(await ws.closed).toMatchObject({ code: 4401, reason: 'token revoked' });
    expect(ws.messages.at(-1)).toMatchObject({ type: 'closed', sub: 'r', reason: 'revoked' });
  });

  it('refills subscribers from the append log when a fan-out message was lost (gap in the offset range)', async () => {
    // A partition the private topic does not have, so the real ingest never touches it.
    const partition = 9;
    const patient = `pat-gap-${uid()}`;
    const sse = await openSse(streamUrl(rig.gw, { patient }), auth);
    const channel = liveChannel(rig.topic);
    const publish = (first: number, last: number) => rig.redis.publish(channel, encodeBatch({ v: 1, partition, first, last, events: [] }));
    await waitFor(
      async () => publish(100, 100),
      (n) => n > 0,
    ); // the gateway is listening; it has seen offset 100
    // rows 101..105 are stored (through the ingest's store) but their message is never published (a lost publish)
    const at = new Date().toISOString();
    const rows = [1, 2, 3, 4, 5].map((i): StoredRow => ({
      patient_id: patient,
      device_id: `${patient}-dev`,
      seq: i,
      code: '8867-4',
      effective_at: at,
      value: 70,
      unit: '/min',
      sample_period_ms: null,
      steps: null,
      kafka_partition: partition,
      kafka_offset: String(100 + i),
    }));
    await withTransaction(rig.pool, (c) => writeRows(c, rig.topic, rows));
    await publish(106, 106); // next batch: the gateway sees 101..105 missing and refills from the log
    const events = await sse.waitForEvents(5, 'the 5 rows of the lost message');
    expect(events.map((e) => [e.id, e.data.seq])).toEqual([1, 2, 3, 4, 5].map((i) => [`${partition}-${100 + i}`, i]));
    sse.close();
  });
});
