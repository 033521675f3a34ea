/**
 * An alert on the live stream proposes tests (issue 21 item 3): a raised NEWS2 alert creates draft
 * ServiceRequests (intent proposal: lactate and a blood gas) that a doctor activates or revokes over
 * REST; the proposer is idempotent (a second run, or the same batch again, proposes nothing twice),
 * ignores cleared alerts, the lifecycle's acknowledgements and escalations, and rules without
 * proposals (sys-low), and its proposals are valid FHIR.
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
  eventId: crypto.randomUUID(),
  type: state === 'raised' ? 'VitalsAlertRaised' : 'VitalsAlertCleared',
  data: {
    alert_id: uid(),
    rule,
    state,
    patient_id: patientId,
    priority: 'high',
    severity: 'high',
    kind: 'physiological',
    latching: true,
    label: rule,
    message: `${rule} test`,
    value: 8,
    due_at: null,
    triggered_by: {},
    flag: {},
  },
});
/** An acknowledgement or escalation of a raised alarm (the gateway's and the projector's events): it names the rule too. */
const lifecycle = (raised: ReturnType<typeof alert>, type: 'VitalsAlertAcknowledged' | 'VitalsAlertEscalated') => ({
  eventId: crypto.randomUUID(),
  type,
  data: {
    alert_id: raised.data.alert_id,
    patient_id: raised.data.patient_id,
    rule: raised.data.rule,
    at: '2026-01-01T00:01:00.000Z',
    ...(type === 'VitalsAlertAcknowledged' ? { by: { user: 'nurse-1', client_id: 'card' } } : { to: 'charge nurse', priority: 'high' }),
  },
});

describe('alert proposals', () => {
  it('a raised NEWS2 alert proposes a lactate and a blood gas; a doctor activates one and revokes the other', async () => {
    const patient = await newPatient(gw);
    const raised = alert(patient, 'news2-high', 'raised');
    const acknowledged = lifecycle(raised, 'VitalsAlertAcknowledged');
    const escalated = lifecycle(raised, 'VitalsAlertEscalated');
    const noProposals = alert(patient, 'sys-low', 'raised');
    await append(gw.deps.pool, alertStream(patient), 0, [
      raised,
      escalated,
      acknowledged,
      alert(patient, 'news2-high', 'cleared'),
      alert(patient, 'unknown-rule', 'raised'),
      noProposals,
    ]);
    await proposeTestsForAlerts(gw.deps.pool);
    await proposeTestsForAlerts(gw.deps.pool);
    const lactate = proposalId(raised.eventId, '2524-7');
    const gas = proposalId(raised.eventId, '24336-0');
    for (const id of [lactate, gas])
      expect(
        (await readStream(gw.deps.pool, serviceRequestStream(id))).map((e) => e.type),
        id,
      ).toEqual(['ServiceRequestCreated']);
    for (const e of [acknowledged, escalated, noProposals]) {
      for (const code of ['2524-7', '24336-0', '34534-8'])
        expect(await readStream(gw.deps.pool, serviceRequestStream(proposalId(e.eventId, code))), `${e.type} ${code}`).toEqual([]);
    }

    const proposal = await call('GET', `/orders/${lactate}`, doctor);
    expect(proposal.body).toMatchObject({
      resourceType: 'ServiceRequest',
      status: 'draft',
      intent: 'proposal',
      priority: 'urgent',
      subject: { reference: `Patient/${patient}` },
      code: { coding: [{ code: '2524-7' }] },
      requester: { identifier: { value: 'vitalis-alerts:news2-high' } },
      reasonCode: [{ text: 'Alert news2-high: news2-high test' }],
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
