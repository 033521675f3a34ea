/**
 * Bedside alarms over REST v1 (issue 31, item 3), against a real gateway: alarms raised and cleared
 * in the patient's alert stream the way the ingest does, then listed, read and acknowledged by
 * signed-in clinicians (authorization code). An app acting for itself (client credentials) is
 * refused with a 403 problem whatever its role; a second acknowledgement is a 409 naming who and
 * when; a resolved alarm cannot be acknowledged; a latched alarm stays active until acknowledged.
 * Every read and acknowledgement is in the audit trail with the acting user, the live SSE stream
 * carries an `alarm` event on acknowledgement, and the time-to-acknowledge histogram counts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition, readStream } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { METRIC } from '@vitalis/metrics';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { scrape, total } from '../../helpers/prometheus';
import { openSse } from '../live/support';
import { caller } from '../records/support';
import { acknowledgeAlarm, ALARM_READS, alarmsDepsOf } from '../../../apps/gateway/src/alarms/service';
import { api, appHeaders, clear, newPatient, raise, signIn, type SignedIn } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  gw = await startGateway({}, { metrics: true });
  call = api(gw);
  [doctor, nurse] = await Promise.all([signIn(gw, 'doctor'), signIn(gw, 'nurse')]);
}, 60_000);
afterAll(() => gw?.close());

const ids = (body: { alarms: { alarm_id: string }[] }) => body.alarms.map((a) => a.alarm_id);
const auditRows = async (alarmId: string, action: string) =>
  (
    await gw.deps.pool.query<{
      outcome: string;
      actor_subject: string;
      actor_client_id: string;
      scope: string;
      detail: Record<string, unknown>;
    }>(
      'SELECT outcome, actor_subject, actor_client_id, scope, detail FROM audit_events WHERE resource_type = $1 AND resource_id = $2 AND action = $3 ORDER BY id',
      ['Alarm', alarmId, action],
    )
  ).rows;
const acknowledgedHistogram = async (priority: string) =>
  total((await scrape(gw.metricsUrl!)).samples, `${METRIC.alarmTimeToAcknowledge}_count`, { priority });

describe('bedside alarms over REST', () => {
  it("lists a patient's alarms by state: a latched alarm stays active until acknowledged, a cleared non-latching one is resolved", async () => {
    const patient = await newPatient(gw);
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000).toISOString();
    const spo2 = await raise(gw, patient, 'spo2-low', { raisedAt: at(0) }); // high, latching
    const hr = await raise(gw, patient, 'hr-high', { raisedAt: at(1) }); // high, latching: its condition ends below, unacknowledged
    const rr = await raise(gw, patient, 'rr-high', { raisedAt: at(2) }); // medium, not latching: resolved when it clears
    const temp = await raise(gw, patient, 'temp-high', { raisedAt: at(3) }); // low
    await clear(gw, patient, 'hr-high');
    await clear(gw, patient, 'rr-high');

    const active = await call('GET', `/api/v1/alarms?patient=${patient}`, nurse.headers);
    expect(active.status).toBe(200);
    // highest priority first, then the newest raise
    expect(ids(active.body)).toEqual([hr.id, spo2.id, temp.id]);
    expect(active.body.count).toBe(3);
    const latched = active.body.alarms.find((a: any) => a.alarm_id === hr.id);
    expect(latched).toMatchObject({
      patient_id: patient,
      rule: 'hr-high',
      label: 'Heart rate high',
      kind: 'physiological',
      priority: 'high',
      latching: true,
      state: 'latched',
      raised_at: hr.raisedAt,
      due_at: expect.any(String),
      condition_ended_at: expect.any(String),
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: null,
      device_id: `mon-${patient}`,
    });
    expect(active.body.alarms.find((a: any) => a.alarm_id === spo2.id)).toMatchObject({ state: 'raised', condition_ended_at: null });

    expect(ids((await call('GET', `/api/v1/alarms?patient=${patient}&state=resolved`, nurse.headers)).body)).toEqual([rr.id]);
    expect(ids((await call('GET', `/api/v1/alarms?patient=${patient}&state=latched`, nurse.headers)).body)).toEqual([hr.id]);
    expect(ids((await call('GET', `/api/v1/alarms?patient=${patient}&state=all`, nurse.headers)).body)).toEqual([
      hr.id,
      spo2.id,
      rr.id,
      temp.id,
    ]);
    // resolved before `since`: out of the window
    expect(
      ids(
        (
          await call(
            'GET',
            `/api/v1/alarms?patient=${patient}&state=all&since=${new Date(Date.now() + 60_000).toISOString()}`,
            nurse.headers,
          )
        ).body,
      ),
    ).toEqual([hr.id, spo2.id, temp.id]);

    // the ward view: the active alarms across the patients a nurse reaches include this patient's
    await catchUpTo(gw.deps.pool, alarmsProjection, await headPosition(gw.deps.pool)); // the ward list reads the alarm read model
    const ward = await call('GET', '/api/v1/alarms?limit=500', nurse.headers);
    expect(ward.status).toBe(200);
    expect(ids(ward.body)).toEqual(expect.arrayContaining([hr.id, spo2.id, temp.id]));
    expect(ids(ward.body)).not.toContain(rr.id);

    // one alarm
    const one = await call('GET', `/api/v1/alarms/${spo2.id}`, doctor.headers);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(active.body.alarms.find((a: any) => a.alarm_id === spo2.id));
    const missing = await call('GET', '/api/v1/alarms/no-such-alarm', doctor.headers);
    expect(missing.status).toBe(404);
    expect(missing.contentType).toMatch(/^application\/problem\+json/);

    // the reads are audited with the reader
    const reads = await auditRows(spo2.id, 'alarm.read');
    expect(reads).toEqual([
      expect.objectContaining({
        outcome: 'success',
        actor_subject: 'usr-demo-doctor',
        actor_client_id: doctor.clientId,
        scope: 'read:vitals',
      }),
    ]);
  });

  it(
    'a signed-in clinician acknowledges (who, name, app, when, note); an app acting for itself is refused 403; again: 409 naming who; the stream, the audit trail, SSE and the histogram have it',
    { timeout: 60_000 },
    async () => {
      const patient = await newPatient(gw);
      const raisedAt = new Date(Date.now() - 30_000).toISOString();
      const alarm = await raise(gw, patient, 'spo2-low', { raisedAt });
      const watcher = await openSse(`${gw.url}/api/v1/vitals/stream?patient=${patient}`, nurse.headers);
      const before = await acknowledgedHistogram('high');
      try {
        expect(watcher.status).toBe(200);
        // an app of the doctor role acting for itself (client credentials): a person must acknowledge
        const app = await appHeaders(gw, 'doctor');
        expect((await call('GET', `/api/v1/alarms/${alarm.id}`, app)).status).toBe(200); // reading is the role's
        const refused = await call('POST', `/api/v1/alarms/${alarm.id}/acknowledge`, app, {});
        expect(refused.status).toBe(403);
        expect(refused.contentType).toMatch(/^application\/problem\+json/);
        expect(refused.body.detail).toMatch(/^A signed-in clinician must acknowledge a bedside alarm/);
        // a role that may not (a receptionist app has no read:vitals: the route's scope refuses it first)
        expect(
          (await call('POST', `/api/v1/alarms/${alarm.id}/acknowledge`, await appHeaders(gw, 'reception', ['write:patients']), {})).status,
        ).toBe(403);

        const ack = await call('POST', `/api/v1/alarms/${alarm.id}/acknowledge`, doctor.headers, { note: 'repositioned the probe' });
        expect(ack.status).toBe(200);
        expect(ack.body).toMatchObject({
          alarm_id: alarm.id,
          state: 'acknowledged',
          note: 'repositioned the probe',
          acknowledged_at: expect.any(String),
          resolved_at: null,
          acknowledged_by: { user: 'usr-demo-doctor', name: 'Dr. Demo Doctor', client_id: doctor.clientId },
        });
        // in the patient's alert stream, with who
        const events = await readStream(gw.deps.pool, alertStream(patient));
        expect(events.map((e) => e.type)).toEqual(['VitalsAlertRaised', 'VitalsAlertAcknowledged']);
        expect(events[1]!.data).toMatchObject({
          alert_id: alarm.id,
          by: { user: 'usr-demo-doctor', name: 'Dr. Demo Doctor', client_id: doctor.clientId },
          at: ack.body.acknowledged_at,
          note: 'repositioned the probe',
        });

        // again, by the nurse: 409 naming who acknowledged and when
        const again = await call('POST', `/api/v1/alarms/${alarm.id}/acknowledge`, nurse.headers, {});
        expect(again.status).toBe(409);
        expect(again.contentType).toMatch(/^application\/problem\+json/);
        expect(again.body.detail).toContain('Dr. Demo Doctor');
        expect(again.body).toMatchObject({
          state: 'acknowledged',
          acknowledged_by: { user: 'usr-demo-doctor' },
          acknowledged_at: ack.body.acknowledged_at,
        });

        // the live stream: an `alarm` event (no id) naming the acknowledgement
        let notice;
        for (let n = 1; !notice; n++) notice = (await watcher.waitForEvents(n, 'the alarm event')).find((e) => e.event === 'alarm');
        expect(notice).toMatchObject({
          id: undefined,
          event: 'alarm',
          data: {
            event: 'VitalsAlertAcknowledged',
            patient_id: patient,
            alert_id: alarm.id,
            by: { user: 'usr-demo-doctor', name: 'Dr. Demo Doctor' },
          },
        });

        // the audit trail: the app's refusal (no user), the doctor's acknowledgement, the nurse's conflict
        const rows = await auditRows(alarm.id, 'alarm.acknowledge');
        expect(rows.map((r) => [r.outcome, r.actor_subject, r.detail.reason ?? null])).toEqual([
          ['failure', expect.stringMatching(/^cli_/), 'no user'],
          ['success', 'usr-demo-doctor', null],
          ['failure', 'usr-demo-nurse', 'already-acknowledged'],
        ]);
        expect(rows[1]).toMatchObject({
          actor_client_id: doctor.clientId,
          scope: 'read:vitals',
          detail: { patient, rule: 'spo2-low', priority: 'high', was: 'raised', via: 'rest' },
        });

        // time to acknowledge: one more high-priority observation
        expect(await acknowledgedHistogram('high')).toBe(before + 1);
      } finally {
        watcher.close();
      }
    },
  );

  it('a latched alarm is acknowledged into resolved (it leaves the active list); a resolved one is a 409', async () => {
    const patient = await newPatient(gw);
    const latched = await raise(gw, patient, 'sys-low'); // latching
    await clear(gw, patient, 'sys-low');
    const gone = await raise(gw, patient, 'sys-high'); // not latching
    await clear(gw, patient, 'sys-high');

    const ack = await call('POST', `/api/v1/alarms/${latched.id}/acknowledge`, nurse.headers, null);
    expect(ack.status).toBe(200);
    expect(ack.body).toMatchObject({
      state: 'resolved',
      acknowledged_by: { user: 'usr-demo-nurse', name: 'Demo Nurse' },
      resolved_at: ack.body.acknowledged_at,
    });
    expect((await call('GET', `/api/v1/alarms?patient=${patient}`, nurse.headers)).body.alarms).toEqual([]);

    const resolved = await call('POST', `/api/v1/alarms/${gone.id}/acknowledge`, doctor.headers, {});
    expect(resolved.status).toBe(409);
    expect(resolved.body).toMatchObject({ state: 'resolved', resolved_at: expect.any(String) });
    expect(resolved.body.detail).toMatch(/is resolved/);
    expect((await call('POST', '/api/v1/alarms/no-such-alarm/acknowledge', doctor.headers, {})).status).toBe(404);
  });

  it('a change of the stream between the read and the append (a clear) is decided again on the new state', async () => {
    const patient = await newPatient(gw);
    const alarm = await raise(gw, patient, 'hr-low');
    let reads = 0;
    // the first read of the stream is followed by a clear, as if the ingest appended it meanwhile
    const racing = {
      ...ALARM_READS,
      async ofPatient(db: Parameters<typeof ALARM_READS.ofPatient>[0], id: string) {
        const state = await ALARM_READS.ofPatient(db, id);
        if (reads++ === 0) await clear(gw, patient, 'hr-low');
        return state;
      },
    };
    const asUser = caller({
      subject: 'usr-demo-nurse',
      clientId: 'cli_ward',
      roles: ['nurse'],
      scopes: ['read:vitals'],
      authMethod: 'authorization_code',
    });
    const acked = await acknowledgeAlarm(alarmsDepsOf(gw.deps), asUser, alarm.id, undefined, 'rest', racing);
    expect(reads).toBeGreaterThanOrEqual(2);
    // decided on the stream with the clear: latched → acknowledged → resolved, one acknowledgement appended
    expect(acked).toMatchObject({
      state: 'resolved',
      conditionEndedAt: expect.any(String),
      acknowledgedBy: { user: 'usr-demo-nurse', name: 'Demo Nurse', client_id: 'cli_ward' },
    });
    expect((await readStream(gw.deps.pool, alertStream(patient))).map((e) => e.type)).toEqual([
      'VitalsAlertRaised',
      'VitalsAlertCleared',
      'VitalsAlertAcknowledged',
    ]);
  });

  it('who may read: a nurse and a doctor yes; a role without read:vitals, or a patient, no', async () => {
    const patient = await newPatient(gw);
    const alarm = await raise(gw, patient, 'news2-high');
    expect((await call('GET', `/api/v1/alarms?patient=${patient}`, await appHeaders(gw, 'nurse'))).status).toBe(200);
    expect((await call('GET', `/api/v1/alarms/${alarm.id}`, await appHeaders(gw, 'lab', ['read:diagnostics']))).status).toBe(403);
    expect((await call('GET', `/api/v1/alarms?patient=${patient}`, await appHeaders(gw, 'admin', ['read:patients']))).status).toBe(403);
    expect((await call('GET', `/api/v1/alarms?patient=${patient}`, {})).status).toBe(401);
  });
});
