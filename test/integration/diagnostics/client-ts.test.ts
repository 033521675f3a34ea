/**
 * The TypeScript client's diagnostics calls (libs/client-ts `api.diagnostics`) against a real
 * gateway: order, post, update with etagOf (a stale one is a typed 412), amend, history, an
 * illegal transition as a typed 409 naming the state, a critical result on `vitals.live` (alerts
 * on), and its acknowledgement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, StaticToken, VitalisClient, etagOf, type LiveVitalsEvent } from '@vitalis/client';
import { headPosition } from '@vitalis/eventstore';
import { registerClient } from '../../helpers/auth';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { diagnosticReportsProjection } from '../../../apps/projector/src/projections/definitions';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { LOINC, newPatient, quantityObs, reportBody, userSession } from './support';

let gw: RunningGateway;
let doctor: VitalisClient;
let lab: VitalisClient;
/** The demo doctor signed in: the client with a user's token (who acknowledges). */
let doctorUser: VitalisClient;

beforeAll(async () => {
  gw = await startGateway();
  const d = await registerClient(gw.url, ['read:diagnostics', 'write:diagnostics', 'read:vitals'], 'client-ts-doctor', 'doctor');
  const l = await registerClient(gw.url, ['read:diagnostics', 'write:diagnostics'], 'client-ts-lab', 'lab');
  doctor = VitalisClient.withClientCredentials(gw.url, d.client_id, d.client_secret);
  lab = VitalisClient.withClientCredentials(gw.url, l.client_id, l.client_secret);
  doctorUser = new VitalisClient({
    baseUrl: gw.url,
    auth: new StaticToken((await userSession(gw, 'doctor', ['read:diagnostics', 'write:diagnostics'])).token),
  });
});
afterAll(() => gw?.close());

describe('client-ts diagnostics', () => {
  it('orders, results, amends, reads the history, and sees and acknowledges a critical result live', async () => {
    const patient = await newPatient(gw);
    expect((await doctor.diagnostics.catalog()).tests.map((t) => t.code)).toContain('2524-7');
    const order = await doctor.diagnostics.order({
      resourceType: 'ServiceRequest',
      intent: 'order',
      priority: 'urgent',
      subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: LOINC, code: '51990-0' }] },
    });
    expect(order).toMatchObject({ status: 'active', priority: 'urgent' });
    expect((await doctor.diagnostics.getOrder(order.id)).id).toBe(order.id);
    await expect(
      lab.diagnostics.order({
        resourceType: 'ServiceRequest',
        subject: { reference: `Patient/${patient}` },
        code: { coding: [{ system: LOINC, code: '51990-0' }] },
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);

    const live: LiveVitalsEvent[] = [];
    const abort = new AbortController();
    const reading = (async () => {
      for await (const e of doctor.vitals.live({ patient, alerts: true, signal: abort.signal })) live.push(e);
    })().catch(() => {});
    await new Promise((r) => setTimeout(r, 500)); // the stream is open before the result is posted

    const prelim = await lab.diagnostics.postReport(reportBody(order.id, 'preliminary', [quantityObs('2823-3', 4.0, 'mmol/L')]));
    const stale = lab.diagnostics.updateReport(prelim.id, reportBody(order.id, 'final', [quantityObs('2823-3', 6.6, 'mmol/L')]), '"9"');
    await expect(stale).rejects.toMatchObject({ status: 412 });
    const final = await lab.diagnostics.updateReport(
      prelim.id,
      reportBody(order.id, 'final', [quantityObs('2823-3', 6.6, 'mmol/L')]),
      etagOf(prelim),
    );
    expect(final.status).toBe('final');
    const illegal = await lab.diagnostics.cancelReport(prelim.id).catch((e: unknown) => e);
    expect(illegal).toBeInstanceOf(ConflictError);
    expect((illegal as ConflictError).problem).toMatchObject({ current_status: 'final' });
    expect((await doctor.diagnostics.getOrder(order.id)).status).toBe('completed');

    const deadline = Date.now() + 30_000;
    while (!live.some((e) => e.type === 'critical-result')) {
      if (Date.now() > deadline) throw new Error(`no critical-result on the live stream: ${JSON.stringify(live)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const notice = live.find((e) => e.type === 'critical-result');
    expect(notice).toMatchObject({
      type: 'critical-result',
      critical: { event: 'CriticalResultRaised', report_id: prelim.id, patient_id: patient },
    });

    // an app acting for itself may not acknowledge (a typed 403); the signed-in doctor does
    await expect(doctor.diagnostics.acknowledge(prelim.id, 'seen')).rejects.toBeInstanceOf(ForbiddenError);
    const ack = await doctorUser.diagnostics.acknowledge(prelim.id, 'seen');
    expect(ack).toMatchObject({
      state: 'acknowledged',
      note: 'seen',
      acknowledged_by: 'usr-demo-doctor',
      acknowledged_by_name: 'Dr. Demo Doctor',
    });
    await catchUpTo(gw.deps.pool, diagnosticReportsProjection, await headPosition(gw.deps.pool)); // the list reads the projection
    const history = await doctor.diagnostics.criticalResults({ patient, state: 'acknowledged' });
    expect(history.critical_results.map((c) => [c.report_id, c.acknowledged_by_name])).toEqual([[prelim.id, 'Dr. Demo Doctor']]);
    const amended = await lab.diagnostics.amendReport(
      prelim.id,
      { status: 'corrected', reason: 'haemolysis', contained: [quantityObs('2823-3', 4.4, 'mmol/L')] },
      etagOf(await lab.diagnostics.getReport(prelim.id)),
    );
    expect(amended.status).toBe('corrected');
    const revisions = await doctor.diagnostics.reportHistory(prelim.id);
    expect(revisions.revisions.map((r) => r.status)).toEqual(['preliminary', 'final', 'corrected']);
    abort.abort();
    await reading;
  });
});
