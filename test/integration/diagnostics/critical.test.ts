/**
 * Critical results cannot be missed (issue 21 item 4), over real HTTP: a critical result reaches
 * a live SSE subscriber holding read:diagnostics (and not one without), shows on the triage board,
 * is in the event store, escalates when nobody acknowledges it (DIAGNOSTICS_ESCALATION_SECONDS=1
 * here), and is cleared by a signed-in clinician's acknowledgement (who: the user, their name and
 * the app; when; audited), never by an app acting for itself (403), and stays readable in the
 * acknowledged history (the list's state filter, the board's recent history). The escalation
 * survives restarts: the gateway that raised it is gone and a freshly started projector process
 * escalates it from the durable due time.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition, readStream } from '@vitalis/eventstore';
import { diagnosticReportStream } from '@vitalis/records';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { openSse, openWs } from '../live/support';
import { connect } from '../mcp/support';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { diagnosticReportsProjection, triageProjection } from '../../../apps/projector/src/projections/definitions';
import { escalateDueCriticalResults } from '../../../apps/projector/src/diagnostics-escalation';
import { api, json, newPatient, orderBody, quantityObs, reportBody, roleHeaders, userSession } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;
let lab: Record<string, string>;
let nurse: Record<string, string>;
/** The demo doctor, signed in (authorization code): a token that names the user. */
let doctorUser: Awaited<ReturnType<typeof userSession>>;

beforeAll(async () => {
  gw = await startGateway({ DIAGNOSTICS_ESCALATION_SECONDS: '1' });
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics', 'read:vitals', 'read:patients', 'write:triage']);
  lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
  nurse = await roleHeaders(gw, 'nurse', ['read:diagnostics', 'read:patients', 'read:vitals']);
  doctorUser = await userSession(gw, 'doctor', ['read:diagnostics', 'write:diagnostics', 'read:patients']);
});
const admitted: string[] = [];
afterAll(async () => {
  // leave the shared board as we found it
  for (const p of admitted)
    await fetch(`${gw.url}/api/v1/triage/${p}/discharge`, { method: 'POST', headers: doctor }).catch(() => undefined);
  await gw?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const eventTypes = async (reportId: string) => (await readStream(gw.deps.pool, diagnosticReportStream(reportId))).map((e) => e.type);

async function board(headers: Record<string, string>, patient: string): Promise<any> {
  const head = await headPosition(gw.deps.pool);
  await catchUpTo(gw.deps.pool, triageProjection, head);
  await catchUpTo(gw.deps.pool, diagnosticReportsProjection, head);
  const res = await fetch(`${gw.url}/api/v1/triage`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: any[] }).entries.find((e) => e.patient_id === patient);
}

/** A patient on the ED board with an active troponin order; returns the ids. */
async function admittedWithOrder(code = '10839-9'): Promise<{ patient: string; orderId: string }> {
  const patient = await newPatient(gw);
  const admit = await fetch(`${gw.url}/api/v1/triage`, {
    method: 'POST',
    headers: { ...doctor, ...json },
    body: JSON.stringify({ patient_id: patient, esi: 2, complaint: 'chest pain' }),
  });
  expect(admit.status).toBe(201);
  admitted.push(patient);
  const order = await call('POST', '/orders', doctor, orderBody(patient, code));
  return { patient, orderId: order.body.id };
}

describe('critical results', () => {
  it('reach an SSE subscriber and the board, escalate when nobody acknowledges, and clear on acknowledgement', async () => {
    const { patient, orderId } = await admittedWithOrder();
    const watcher = await openSse(`${gw.url}/api/v1/vitals/stream?patient=${patient}`, doctor);
    const vitalsOnly = await openSse(`${gw.url}/api/v1/vitals/stream?patient=${patient}`, await roleHeaders(gw, 'nurse', ['read:vitals']));
    try {
      expect(watcher.status).toBe(200);
      expect(vitalsOnly.status).toBe(200);
      const posted = await call(
        'POST',
        '/reports',
        lab,
        reportBody(orderId, 'final', [quantityObs('10839-9', 2.5, 'ng/mL')], undefined, {
          conclusion: 'Troponin above the decision limit.',
        }),
      );
      expect(posted.status).toBe(201);
      const reportId = posted.body.id as string;
      expect(posted.body.contained[0].interpretation[0].coding[0].code).toBe('HH');

      // live, to the subscriber with read:diagnostics
      const [raised] = await watcher.waitForEvents(1, 'the critical-result event');
      expect(raised).toMatchObject({
        id: undefined,
        event: 'critical-result',
        data: {
          event: 'CriticalResultRaised',
          report_id: reportId,
          patient_id: patient,
          critical_id: `${reportId}.1`,
          due_at: expect.any(String),
        },
      });
      expect(raised!.data.results).toEqual([expect.objectContaining({ code: '10839-9', value: 2.5, unit: 'ng/mL', interpretation: 'HH' })]);
      // in the event store, committed with the report
      expect(await eventTypes(reportId)).toEqual(['DiagnosticReportRegistered', 'CriticalResultRaised']);
      // on the board (clinical readers of diagnostics), open
      const onBoard = await board(nurse, patient);
      expect(onBoard.critical_results).toEqual([
        expect.objectContaining({ report_id: reportId, code: '10839-9', state: 'open', escalated_at: null }),
      ]);
      const list = await call('GET', `/critical-results?patient=${patient}`, nurse);
      expect(list.body.critical_results.map((c: any) => [c.report_id, c.state])).toEqual([[reportId, 'open']]);

      // nobody acknowledges: past the due time the escalator escalates it, once
      await sleep(1_100);
      const run = await escalateDueCriticalResults(gw.deps.pool, gw.deps.redis);
      expect(run.escalated).toContain(reportId);
      expect((await escalateDueCriticalResults(gw.deps.pool, gw.deps.redis)).escalated).not.toContain(reportId);
      const events = await watcher.waitForEvents(2, 'the escalation');
      expect(events[1]).toMatchObject({
        event: 'critical-result',
        data: { event: 'CriticalResultEscalated', report_id: reportId, patient_id: patient },
      });
      expect((await board(nurse, patient)).critical_results).toEqual([
        expect.objectContaining({ report_id: reportId, state: 'escalated', escalated_at: expect.any(String) }),
      ]);

      // only a clinician who orders (doctor) acknowledges: the lab and a nurse are refused
      expect((await call('POST', `/reports/${reportId}/acknowledge`, lab, {})).status).toBe(403);
      expect((await call('POST', `/reports/${reportId}/acknowledge`, nurse, {})).status).toBe(403);
      // and a person: a doctor-role app acting for itself (client credentials) is refused, saying so
      const machine = await call('POST', `/reports/${reportId}/acknowledge`, doctor, {});
      expect(machine.status).toBe(403);
      expect(machine.body).toMatchObject({ status: 403, required_scope: 'write:diagnostics' });
      expect(machine.body.detail).toMatch(/^A signed-in clinician must acknowledge a critical result: this token names no user/);
      const ack = await call('POST', `/reports/${reportId}/acknowledge`, doctorUser.headers, { note: 'cardiology called' });
      expect(ack.status).toBe(200);
      expect(ack.body).toMatchObject({
        report_id: reportId,
        state: 'acknowledged',
        acknowledged_by: 'usr-demo-doctor',
        acknowledged_by_name: 'Dr. Demo Doctor',
        acknowledged_with: doctorUser.clientId,
        acknowledged_at: expect.any(String),
        note: 'cardiology called',
        report_status: 'final',
      });
      expect(ack.body.results).toEqual([
        expect.objectContaining({
          code: '10839-9',
          name: 'Troponin I',
          value: 2.5,
          unit: 'ng/mL',
          interpretation: 'HH',
          crossed: { side: 'high', limit: 0.04 },
        }),
      ]);
      const again = await call('POST', `/reports/${reportId}/acknowledge`, doctorUser.headers, {});
      expect(again.status).toBe(409);
      expect(again.body.current_status).toBe('critical result acknowledged');
      // one row per result in one answer: the projection has not seen the acknowledgement yet (no catch-up since), the stream has
      const both = await call('GET', `/critical-results?patient=${patient}&state=open,escalated,acknowledged`, nurse);
      expect(both.body.critical_results.map((c: { report_id: string; state: string }) => [c.report_id, c.state])).toEqual([
        [reportId, 'acknowledged'],
      ]);
      expect((await watcher.waitForEvents(3, 'the acknowledgement'))[2]).toMatchObject({
        data: { event: 'CriticalResultAcknowledged', report_id: reportId, by: ack.body.acknowledged_by },
      });
      expect(await eventTypes(reportId)).toEqual([
        'DiagnosticReportRegistered',
        'CriticalResultRaised',
        'CriticalResultEscalated',
        'CriticalResultAcknowledged',
      ]);
      const after = await board(nurse, patient);
      expect(after.critical_results).toEqual([]);
      // history kept: on the board's acknowledged list and in the list's acknowledged state, with who and when
      expect(after.acknowledged_critical_results).toEqual([
        expect.objectContaining({
          report_id: reportId,
          state: 'acknowledged',
          acknowledged_by_name: 'Dr. Demo Doctor',
          acknowledged_at: ack.body.acknowledged_at,
        }),
      ]);
      expect((await call('GET', `/critical-results?patient=${patient}`, nurse)).body.critical_results).toEqual([]);
      const history = await call('GET', `/critical-results?patient=${patient}&state=acknowledged`, nurse);
      expect(history.body.critical_results).toEqual([
        expect.objectContaining({
          report_id: reportId,
          acknowledged_by: 'usr-demo-doctor',
          acknowledged_by_name: 'Dr. Demo Doctor',
          acknowledged_with: doctorUser.clientId,
          escalated_at: expect.any(String),
        }),
      ]);
      const later = new Date(Date.parse(ack.body.acknowledged_at) + 1).toISOString();
      expect(
        (await call('GET', `/critical-results?patient=${patient}&state=acknowledged&since=${encodeURIComponent(later)}`, nurse)).body
          .critical_results,
      ).toEqual([]);
      expect((await call('GET', `/critical-results?patient=${patient}&state=nope`, nurse)).status).toBe(400);
      const { rows } = await gw.deps.pool.query(
        `SELECT outcome, scope, actor_subject, actor_client_id, detail FROM audit_events WHERE resource_id = $1 AND action = 'diagnostics.critical.acknowledge' ORDER BY id`,
        [reportId],
      );
      // the lab's refusal (scope without the role), the doctor app's (no user), the acknowledgement naming the user, the second try
      // (the nurse, without the scope, was refused by the guard)
      expect(rows.map((r) => [r.outcome, r.scope, r.detail.reason ?? null])).toEqual([
        ['failure', 'write:diagnostics', 'forbidden'],
        ['failure', 'write:diagnostics', 'no user'],
        ['success', 'write:diagnostics', null],
        ['failure', 'write:diagnostics', 'nothing to acknowledge'],
      ]);
      // the audit row names the user (ids only: the trail holds no names)
      expect(rows[2]).toMatchObject({
        actor_subject: 'usr-demo-doctor',
        actor_client_id: doctorUser.clientId,
        detail: { acknowledged_by: 'usr-demo-doctor', client: doctorUser.clientId },
      });
      // the subscriber without read:diagnostics saw none of it
      expect(vitalsOnly.events.filter((e) => e.event === 'critical-result')).toEqual([]);
      // a board reader without read:diagnostics does not get the field
      expect(await board(await roleHeaders(gw, 'nurse', ['read:patients']), patient)).not.toHaveProperty('critical_results');
    } finally {
      watcher.close();
      vitalsOnly.close();
    }
  });

  it('a result within its limits raises nothing; an acknowledged report that turns critical again raises a new one', async () => {
    const { patient, orderId } = await admittedWithOrder('51990-0');
    const normal = await call('POST', '/reports', lab, reportBody(orderId, 'preliminary', [quantityObs('2823-3', 5.5, 'mmol/L')]));
    expect(normal.body.contained[0].interpretation[0].coding[0].code).toBe('H');
    expect(await eventTypes(normal.body.id)).toEqual(['DiagnosticReportRegistered']);
    expect((await call('POST', `/reports/${normal.body.id}/acknowledge`, doctorUser.headers, {})).body).toMatchObject({
      status: 409,
      current_status: 'critical result none',
    });
    const low = await call(
      'PUT',
      `/reports/${normal.body.id}`,
      { ...lab, 'if-match': normal.etag! },
      reportBody(orderId, 'final', [quantityObs('2823-3', 2.1, 'mmol/L')]),
    );
    expect(low.body.contained[0].interpretation[0].coding[0].code).toBe('LL');
    expect((await call('POST', `/reports/${normal.body.id}/acknowledge`, doctorUser.headers, {})).status).toBe(200);
    const amended = await call('POST', `/reports/${normal.body.id}/amend`, lab, {
      reason: 'repeat sample',
      contained: [quantityObs('2823-3', 6.4, 'mmol/L')],
    });
    expect(amended.status).toBe(200);
    expect(await eventTypes(normal.body.id)).toEqual([
      'DiagnosticReportRegistered',
      'DiagnosticReportUpdated',
      'CriticalResultRaised',
      'CriticalResultAcknowledged',
      'DiagnosticReportAmended',
      'CriticalResultRaised',
    ]);
    const now = await board(doctor, patient);
    expect(now.critical_results).toEqual([
      expect.objectContaining({ critical_id: `${normal.body.id}.2`, state: 'open', report_status: amended.body.status }),
    ]);
    // the first one, acknowledged before the second was raised, stays in the history
    expect(now.acknowledged_critical_results).toEqual([
      expect.objectContaining({ critical_id: `${normal.body.id}.1`, state: 'acknowledged', acknowledged_by_name: 'Dr. Demo Doctor' }),
    ]);
  });

  it(
    'escalation survives restarts: the raising gateway is gone, a freshly started projector escalates from the durable due time',
    { timeout: 120_000 },
    async () => {
      const other = await startGateway({ DIAGNOSTICS_ESCALATION_SECONDS: '1' });
      let reportId: string;
      try {
        const { orderId } = await admittedWithOrder('2524-7');
        const otherLab = await roleHeaders(other, 'lab', ['read:diagnostics', 'write:diagnostics']);
        const posted = await api(other)('POST', '/reports', otherLab, reportBody(orderId, 'final', [quantityObs('2524-7', 5.2, 'mmol/L')]));
        expect(posted.status).toBe(201);
        reportId = posted.body.id;
      } finally {
        await other.close(); // the gateway that raised it is gone: no timer of it can escalate anything
      }
      expect(await eventTypes(reportId)).toEqual(['DiagnosticReportRegistered', 'CriticalResultRaised']);
      const projector = spawn(process.execPath, ['--import', 'tsx', 'apps/projector/src/main.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: testEnv.DATABASE_URL,
          REDIS_URL: testEnv.REDIS_URL,
          LOG_LEVEL: 'warn',
          DIAGNOSTICS_ESCALATION_INTERVAL_MS: '200',
          NODE_ENV: 'test',
          ALARM_ESCALATION: 'false',
          DEVICE_WATCHDOG: 'false',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      try {
        const deadline = Date.now() + 90_000;
        while (!(await eventTypes(reportId)).includes('CriticalResultEscalated')) {
          if (Date.now() > deadline) throw new Error('the projector did not escalate the critical result');
          await sleep(200);
        }
      } finally {
        projector.kill('SIGTERM');
        await new Promise((r) => projector.once('exit', r));
      }
      expect(await eventTypes(reportId)).toEqual(['DiagnosticReportRegistered', 'CriticalResultRaised', 'CriticalResultEscalated']);
    },
  );

  it('reach WebSocket and MCP subscribers too (no resume id: a notice)', async () => {
    const { patient, orderId } = await admittedWithOrder('2524-7');
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, doctor);
    const mcp = await connect(gw.url, doctor.authorization!.slice('Bearer '.length));
    const updates: any[] = [];
    mcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n));
    try {
      ws.send({ type: 'subscribe', sub: 's1', patients: [patient] });
      await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');
      await mcp.client.subscribeResource({ uri: `vitalis://patients/${patient}/vitals` });
      const posted = await call('POST', '/reports', lab, reportBody(orderId, 'final', [quantityObs('2524-7', 7.5, 'mmol/L')]));
      const reportId = posted.body.id as string;
      const [viaWs] = (await ws.waitFor((m) => m.some((x) => x.type === 'critical-result'), 'the WebSocket critical-result')).filter(
        (x) => x.type === 'critical-result',
      );
      expect(viaWs).toMatchObject({
        type: 'critical-result',
        sub: 's1',
        event: 'CriticalResultRaised',
        data: { report_id: reportId, patient_id: patient },
      });
      expect(viaWs).not.toHaveProperty('id');
      const deadline = Date.now() + 30_000;
      const live = () => updates.map((u) => u.params?._meta?.['vitalis/live']).filter((l) => l?.type === 'critical-result');
      while (live().length === 0) {
        if (Date.now() > deadline) throw new Error('no MCP critical-result notification');
        await sleep(50);
      }
      expect(live()[0]).toMatchObject({ type: 'critical-result', event: 'CriticalResultRaised', data: { report_id: reportId } });
    } finally {
      ws.socket.close();
      await mcp.close();
    }
  });
});
