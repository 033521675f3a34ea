/**
 * Every diagnostics resource the API returns is valid FHIR R4, checked by the independent
 * validator (test/helpers/fhir-validator.ts: HAPI FHIR, not the project's own schemas):
 * ServiceRequest (order, proposal, revoked), DiagnosticReport with contained Observations
 * (numeric with ranges and L/H/LL/HH, a narrative finding with AA, no results), every revision of
 * the history, and the search Bundles.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { headPosition } from '@vitalis/eventstore';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { diagnosticReportsProjection, serviceRequestsProjection } from '../../../apps/projector/src/projections/definitions';
import { api, LOINC, newPatient, orderBody, quantityObs, reportBody, roleHeaders } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;
let lab: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway();
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
});
afterAll(() => gw?.close());

describe('diagnostics resources are valid FHIR R4 (independent validator)', () => {
  it('orders, reports, observations, history and bundles', { timeout: 300_000 }, async () => {
    const patient = await newPatient(gw);
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '51990-0'))).body;
    const proposal = (
      await call('POST', '/orders', doctor, orderBody(patient, '2524-7', { intent: 'proposal', note: [{ text: 'NEWS2 rising' }] }))
    ).body;
    const revoked = (await call('POST', `/orders/${proposal.id}/cancel`, doctor, { reason: 'not needed' })).body;
    const ecgOrder = (await call('POST', '/orders', doctor, orderBody(patient, '34534-8', { priority: 'asap' }))).body;
    const xray = (await call('POST', '/orders', doctor, orderBody(patient, '36643-5', { priority: 'routine' }))).body;
    await expectValidFhir([order, proposal, revoked, ecgOrder, xray]);

    const prelim = await call(
      'POST',
      '/reports',
      lab,
      reportBody(order.id, 'preliminary', [
        quantityObs('2823-3', 6.9, 'mmol/L'),
        quantityObs('2951-2', 131, 'mmol/L'),
        quantityObs('2345-7', 30, 'mg/dL'),
        quantityObs('2075-0', 101, 'mmol/L'),
      ]),
    );
    const final = await call(
      'PUT',
      `/reports/${prelim.body.id}`,
      { ...lab, 'if-match': prelim.etag! },
      reportBody(order.id, 'final', [quantityObs('2823-3', 6.9, 'mmol/L')], undefined, {
        conclusion: 'Critical hyperkalaemia, called to ward.',
      }),
    );
    const amended = await call('POST', `/reports/${prelim.body.id}/amend`, lab, {
      status: 'amended',
      reason: 'units note',
      contained: [quantityObs('2823-3', 6.8, 'mmol/L')],
    });
    const ecg = await call(
      'POST',
      '/reports',
      lab,
      reportBody(
        ecgOrder.id,
        'final',
        [
          {
            resourceType: 'Observation',
            code: { coding: [{ system: LOINC, code: '8601-7' }] },
            valueString: 'ST elevation V1-V4',
            interpretation: [{ coding: [{ code: 'AA' }] }],
          },
        ],
        undefined,
        { conclusion: 'Anterior STEMI.' },
      ),
    );
    const registered = await call('POST', '/reports', lab, reportBody(xray.id, 'registered', []));
    await expectValidFhir([prelim.body, final.body, amended.body, ecg.body, registered.body]);

    const history = await call('GET', `/reports/${prelim.body.id}/history`, doctor);
    await expectValidFhir(history.body.revisions.map((r: { report: unknown }) => r.report));

    const head = await headPosition(gw.deps.pool);
    await catchUpTo(gw.deps.pool, serviceRequestsProjection, head);
    await catchUpTo(gw.deps.pool, diagnosticReportsProjection, head);
    await expectValidFhir((await call('GET', `/orders?patient=${patient}`, doctor)).body);
    await expectValidFhir((await call('GET', `/reports?patient=${patient}`, doctor)).body);
  });
});
