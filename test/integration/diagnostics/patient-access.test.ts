/**
 * A patient reads only its own final reports (issue 21), over real HTTP with the demo patient user
 * (linked to pat-0001) signed in through the real login and consent pages, holding the SMART scope
 * patient/DiagnosticReport.rs: its own final, amended or corrected reports (200), never a
 * preliminary one, another patient's, an order or the critical-result list (403), and every such
 * read and refusal is in the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headPosition } from '@vitalis/eventstore';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { diagnosticReportsProjection } from '../../../apps/projector/src/projections/definitions';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { DEMO_PASSWORDS, registerCodeClient, userTokens } from '../auth/support';
import { api, newPatient, orderBody, quantityObs, reportBody, roleHeaders } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;
let lab: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway();
  await seedRecords(gw.deps.pool, new Date()); // pat-0001 (the demo patient user's record), idempotent
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
});
afterAll(() => gw?.close());

async function patientHeaders(scope: string): Promise<{ headers: Record<string, string>; granted: string }> {
  const app = await registerCodeClient(gw.url, scope.split(' ') as never, { role: 'patient' });
  const { tokens } = await userTokens(gw.url, app, 'patient', DEMO_PASSWORDS.patient, scope);
  return { headers: { authorization: `Bearer ${tokens.access_token}` }, granted: tokens.scope };
}

async function reportFor(patient: string, status: 'preliminary' | 'final'): Promise<string> {
  const order = await call('POST', '/orders', doctor, orderBody(patient, '58410-2'));
  const report = await call('POST', '/reports', lab, reportBody(order.body.id, status, [quantityObs('718-7', 13.1, 'g/dL')]));
  expect(report.status).toBe(201);
  return report.body.id;
}

describe('a patient user and its diagnostic reports', () => {
  it("reads its own final reports only; never another patient's, a preliminary one, orders or critical results", async () => {
    const own = await reportFor('pat-0001', 'final');
    const ownPreliminary = await reportFor('pat-0001', 'preliminary');
    const other = await reportFor(await newPatient(gw), 'final');
    const { headers, granted } = await patientHeaders('patient/Patient.rs patient/DiagnosticReport.rs');
    expect(granted.split(' ')).toContain('patient/DiagnosticReport.rs');

    const read = await call('GET', `/reports/${own}`, headers);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      resourceType: 'DiagnosticReport',
      id: own,
      status: 'final',
      subject: { reference: 'Patient/pat-0001' },
    });
    expect((await call('GET', `/reports/${own}/history`, headers)).status).toBe(200);
    for (const id of [other, ownPreliminary]) {
      const refused = await call('GET', `/reports/${id}`, headers);
      expect(refused.status, id).toBe(403);
      // the one 403 contract (spec section 7; its header is checked for every route in auth/refusals.test.ts)
      expect(refused.body.type).toMatch(/\/errors\/insufficient-scope$/);
      expect((await call('GET', `/reports/${id}/history`, headers)).status, id).toBe(403);
    }
    await catchUpTo(gw.deps.pool, diagnosticReportsProjection, await headPosition(gw.deps.pool));
    const list = await call('GET', '/reports', headers);
    expect(list.status).toBe(200);
    const ids = list.body.entry.map((e: { resource: { id: string } }) => e.resource.id);
    expect(ids).toContain(own);
    expect(ids).not.toContain(ownPreliminary);
    expect(ids).not.toContain(other);
    expect(
      list.body.entry.every(
        (e: { resource: { subject: { reference: string }; status: string } }) =>
          e.resource.subject.reference === 'Patient/pat-0001' && ['final', 'amended', 'corrected'].includes(e.resource.status),
      ),
    ).toBe(true);
    const otherPatient = other && (await call('GET', `/reports/${other}`, doctor)).body.subject.reference.slice('Patient/'.length);
    expect((await call('GET', `/reports?patient=${otherPatient}`, headers)).status).toBe(403);
    // orders, critical results and writes are not the patient's
    expect((await call('GET', '/orders?patient=pat-0001', headers)).status).toBe(403);
    expect((await call('GET', '/critical-results', headers)).status).toBe(403);
    expect((await call('POST', `/reports/${own}/acknowledge`, headers, {})).status).toBe(403);

    const { rows } = await gw.deps.pool.query(
      `SELECT resource_id, outcome, scope FROM audit_events WHERE action = 'diagnostics.report.read' AND resource_id = ANY($1) ORDER BY id`,
      [[own, other, ownPreliminary]],
    );
    expect(rows.filter((r) => r.resource_id === own)).toContainEqual({
      resource_id: own,
      outcome: 'success',
      scope: 'patient/DiagnosticReport.rs',
    });
    expect(rows.filter((r) => r.resource_id === other && r.scope !== 'read:diagnostics')).toEqual([
      { resource_id: other, outcome: 'failure', scope: 'patient/DiagnosticReport.rs' },
    ]);
  });

  it('without patient/DiagnosticReport.rs it reads no report at all', async () => {
    const own = await reportFor('pat-0001', 'final');
    const { headers } = await patientHeaders('patient/Patient.rs');
    expect((await call('GET', `/reports/${own}`, headers)).status).toBe(403);
    expect((await call('GET', '/reports', headers)).status).toBe(403);
  });
});
