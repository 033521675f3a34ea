/**
 * An alert on the live stream proposes tests (issue 21 item 3): a raised NEWS2 alert creates draft
 * ServiceRequests (intent proposal: lactate and a blood gas) that a doctor activates or revokes over
 * REST; the proposer is idempotent (a second run, or the same batch again, proposes nothing twice),
 * ignores cleared alerts and rules without proposals, and its proposals are valid FHIR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { append, readStream } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { serviceRequestStream } from '@vitalis/records';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { proposalId, proposeTestsForAlerts } from '../../../apps/projector/src/diagnostics-proposals';
import { api, newPatient, roleHeaders, uid } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway();
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  await proposeTestsForAlerts(gw.deps.pool); // starts its checkpoint (at the head) if this database never ran it
});
afterAll(() => gw?.close());

const alert = (patientId: string, rule: string, state: 'raised' | 'cleared') => ({
  eventId: crypto.randomUUID(), type: state === 'raised' ? 'VitalsAlertRaised' : 'VitalsAlertCleared',
  data: { alert_id: uid(), rule, state, patient_id: patientId, severity: 'high', message: `${rule} test`, value: 8, triggered_by: {}, flag: {} },
});

describe('alert proposals', () => {
  it('a raised NEWS2 alert proposes a lactate and a blood gas; a doctor activates one and revokes the other', async () => {
    const patient = await newPatient(gw);
    const raised = alert(patient, 'news2-high', 'raised');
    await append(gw.deps.pool, alertStream(patient), 0, [raised, alert(patient, 'news2-high', 'cleared'), alert(patient, 'unknown-rule', 'raised')]);
    await proposeTestsForAlerts(gw.deps.pool);
    await proposeTestsForAlerts(gw.deps.pool);
    const lactate = proposalId(raised.eventId, '2524-7');
    const gas = proposalId(raised.eventId, '24336-0');
    for (const id of [lactate, gas]) expect((await readStream(gw.deps.pool, serviceRequestStream(id))).map((e) => e.type), id).toEqual(['ServiceRequestCreated']);

    const proposal = await call('GET', `/orders/${lactate}`, doctor);
    expect(proposal.body).toMatchObject({
      resourceType: 'ServiceRequest', status: 'draft', intent: 'proposal', priority: 'urgent', subject: { reference: `Patient/${patient}` },
      code: { coding: [{ code: '2524-7' }] }, requester: { identifier: { value: 'vitalis-alerts:news2-high' } }, reasonCode: [{ text: 'Alert news2-high: news2-high test' }],
    });
    await expectValidFhir(proposal.body);
    expect((await call('POST', `/orders/${lactate}/activate`, { ...doctor, 'if-match': '"1"' }, {})).body.status).toBe('active');
    expect((await call('POST', `/orders/${gas}/cancel`, doctor, { reason: 'clinically not indicated' })).body.status).toBe('revoked');
  });

  it('an alert of an unknown patient proposes nothing', async () => {
    const ghost = `pat-ghost-${uid()}`;
    const raised = alert(ghost, 'hr-high', 'raised');
    await append(gw.deps.pool, alertStream(ghost), 0, [raised]);
    await proposeTestsForAlerts(gw.deps.pool);
    expect(await readStream(gw.deps.pool, serviceRequestStream(proposalId(raised.eventId, '34534-8')))).toEqual([]);
  });
});
