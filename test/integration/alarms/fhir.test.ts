/**
 * Bedside alarms as FHIR R4 DetectedIssues (ADR 0020), over HTTP: search by patient and status and
 * read by id, the acknowledgement as a mitigation naming the clinician, resolved alarms `final`,
 * the CapabilityStatement listing them; every resource valid per the independent validator (HAPI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { append, headPosition, readStream } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { decideAlarm, foldAlarms } from '@vitalis/records';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { alarmsProjection } from '../../../apps/projector/src/projections/definitions';
import { api, appHeaders, clear, newPatient, raise, signIn, type SignedIn } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: SignedIn;
let nurse: SignedIn;

beforeAll(async () => {
  gw = await startGateway();
  call = api(gw);
  [doctor, nurse] = await Promise.all([signIn(gw, 'doctor'), signIn(gw, 'nurse')]);
}, 60_000);
afterAll(() => gw?.close());

const fhir = (path: string, headers: Record<string, string>) =>
  call('GET', `/fhir/R4${path}`, { ...headers, accept: 'application/fhir+json' });
const resources = (bundle: any) => (bundle.entry ?? []).map((e: any) => e.resource);

describe('alarms as FHIR DetectedIssue', () => {
  it(
    'search and read: preliminary while active, final once resolved; the acknowledgement and the escalation are mitigations; all valid FHIR R4',
    { timeout: 300_000 },
    async () => {
      const patient = await newPatient(gw);
      const at = (s: number) => new Date(Date.now() - 120_000 + s * 1_000).toISOString();
      const spo2 = await raise(gw, patient, 'spo2-low', { raisedAt: at(0), value: 84 }); // high → severity high
      const rr = await raise(gw, patient, 'rr-high', { raisedAt: at(1), value: 27 }); // medium → moderate
      const temp = await raise(gw, patient, 'temp-high', { raisedAt: at(2), value: 39.4 }); // low
      await clear(gw, patient, 'temp-high', at(30)); // not latching: resolved
      const ack = await call('POST', `/api/v1/alarms/${spo2.id}/acknowledge`, doctor.headers, { note: 'oxygen started' });
      expect(ack.status).toBe(200);
      // nobody acknowledged the respiratory rate: escalated, as the projector's escalator does past its due time
      const folded = foldAlarms(await readStream(gw.deps.pool, alertStream(patient)));
      const escalation = decideAlarm(
        { type: 'escalate', to: 'charge nurse', now: new Date(Date.now() + 3_600_000).toISOString() },
        folded.alarms.get(rr.id),
      );
      expect(escalation.ok).toBe(true);
      if (escalation.ok)
        await append(
          gw.deps.pool,
          alertStream(patient),
          folded.version,
          escalation.events.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown> })),
        );

      const active = await fhir(`/DetectedIssue?patient=Patient/${patient}`, nurse.headers);
      expect(active.status).toBe(200);
      expect(active.contentType).toMatch(/^application\/fhir\+json/);
      expect(active.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      const issues = resources(active.body);
      expect(issues.map((r: any) => [r.id, r.status, r.severity])).toEqual([
        [spo2.id, 'preliminary', 'high'],
        [rr.id, 'preliminary', 'moderate'],
      ]);
      expect(active.body.entry[0].fullUrl).toBe(`${gw.url}/fhir/R4/DetectedIssue/${spo2.id}`);

      const read = await fhir(`/DetectedIssue/${spo2.id}`, nurse.headers);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(issues[0]);
      expect(read.body).toMatchObject({
        resourceType: 'DetectedIssue',
        id: spo2.id,
        status: 'preliminary',
        severity: 'high',
        code: { coding: [{ system: 'urn:vitalis:alert-rule', code: 'spo2-low', display: 'SpO2 low' }], text: 'SpO2 low' },
        patient: { reference: `Patient/${patient}` },
        identifiedDateTime: spo2.raisedAt,
        author: { reference: `Device/mon-${patient}` },
        detail: 'SpO2 low: 84',
        mitigation: [
          {
            action: {
              coding: [{ system: 'urn:vitalis:alarm-action', code: 'acknowledged', display: 'Acknowledged' }],
              text: 'Acknowledged: oxygen started',
            },
            date: ack.body.acknowledged_at,
            author: {
              type: 'Practitioner',
              identifier: { system: 'urn:vitalis:subject', value: 'usr-demo-doctor' },
              display: 'Dr. Demo Doctor',
            },
          },
        ],
      });
      expect(issues[1].mitigation).toEqual([
        {
          action: {
            coding: [{ system: 'urn:vitalis:alarm-action', code: 'escalated', display: 'Escalated' }],
            text: 'Escalated to charge nurse',
          },
          date: expect.any(String),
        },
      ]);
      expect(resources((await fhir(`/DetectedIssue?patient=${patient}&status=final`, nurse.headers)).body)[0]).not.toHaveProperty(
        'mitigation',
      );

      const resolved = await fhir(`/DetectedIssue?patient=${patient}&status=final`, nurse.headers);
      expect(resources(resolved.body).map((r: any) => [r.id, r.status, r.severity])).toEqual([[temp.id, 'final', 'low']]);
      const both = await fhir(`/DetectedIssue?patient=${patient}&status=preliminary,final`, nurse.headers);
      expect(resources(both.body).map((r: any) => r.id)).toEqual([spo2.id, rr.id, temp.id]);
      // _lastUpdated is a filter before the page is cut: with _count=1 the first match is the escalated
      // one (its last change, the escalation, is an hour ahead), not an empty page after the acknowledged spo2
      const later = encodeURIComponent(new Date(Date.now() + 1_800_000).toISOString());
      const changedLater = await fhir(`/DetectedIssue?patient=${patient}&_lastUpdated=gt${later}&_count=1`, nurse.headers);
      expect(changedLater.status).toBe(200);
      expect(resources(changedLater.body).map((r: any) => r.id)).toEqual([rr.id]);
      // a status nothing has: an empty searchset (FHIR arrays are never empty: no entry)
      const none = await fhir(`/DetectedIssue?patient=${patient}&status=amended`, nurse.headers);
      expect(none.status).toBe(200);
      expect(none.body.entry).toBeUndefined();

      // a ward view: no patient, the active ones across the patients the caller reaches
      await catchUpTo(gw.deps.pool, alarmsProjection, await headPosition(gw.deps.pool)); // the ward list reads the alarm read model
      // (the ones changed since this test began: a long-lived database holds many more active alarms than a page)
      const ward = await fhir(`/DetectedIssue?_lastUpdated=ge${encodeURIComponent(at(-1))}&_count=500`, nurse.headers);
      expect(ward.status).toBe(200);
      expect(resources(ward.body).map((r: any) => r.id)).toEqual(expect.arrayContaining([spo2.id, rr.id]));

      await expectValidFhir([active.body, read.body, resolved.body, both.body, none.body, ...resources(both.body)]);
    },
  );

  it('the CapabilityStatement lists DetectedIssue (read, search by patient and status); a refused caller gets an OperationOutcome', async () => {
    const cs = (await fhir('/metadata', {})).body;
    const entry = cs.rest[0].resource.find((r: any) => r.type === 'DetectedIssue');
    expect(entry.interaction.map((i: any) => i.code)).toEqual(['read', 'search-type']);
    expect(entry.searchParam.map((p: any) => p.name)).toEqual(['patient', 'status', '_lastUpdated', '_count']);

    const patient = await newPatient(gw);
    const alarm = await raise(gw, patient, 'hr-low');
    const refused = await fhir(`/DetectedIssue/${alarm.id}`, await appHeaders(gw, 'lab', ['read:diagnostics']));
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    const missing = await fhir('/DetectedIssue/no-such-alarm', nurse.headers);
    expect(missing.status).toBe(404);
    expect(missing.body.resourceType).toBe('OperationOutcome');
  });
});
