/**
 * Diagnostic orders and reports over real HTTP (issue 21): the whole path order → preliminary →
 * final → amended with history; every illegal transition refused with a 409 naming the state; a
 * stale If-Match refused with 412; a redelivered result stored once; bad input refused with a
 * 400/422 problem and nothing stored; callers without the scope or role refused (403); lists from
 * the projections, and a rebuild of them equal to the live tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { headPosition, readStream } from '@vitalis/eventstore';
import { diagnosticReportStream, serviceRequestStream } from '@vitalis/records';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo, rebuild } from '../../../apps/projector/src/projections/runner';
import { diagnosticReportsProjection, serviceRequestsProjection } from '../../../apps/projector/src/projections/definitions';
import { api, newPatient, orderBody, quantityObs, reportBody, roleHeaders, uid } from './support';

let gw: RunningGateway;
let call: ReturnType<typeof api>;
let doctor: Record<string, string>;
let lab: Record<string, string>;
let nurse: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway();
  call = api(gw);
  doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
  nurse = await roleHeaders(gw, 'nurse', ['read:diagnostics', 'read:patients']);
});
afterAll(() => gw?.close());

const auditCount = async (resourceId: string, action: string) =>
  Number(
    (await gw.deps.pool.query('SELECT count(*) AS n FROM audit_events WHERE resource_id = $1 AND action = $2', [resourceId, action]))
      .rows[0].n,
  );

describe('orders', () => {
  it('a doctor orders a test; it is a FHIR ServiceRequest with an ETag; reading is audited', async () => {
    const patient = await newPatient(gw);
    const created = await call('POST', '/orders', doctor, orderBody(patient, '10839-9'));
    expect(created.status).toBe(201);
    expect(created.etag).toBe('"1"');
    expect(created.body).toMatchObject({
      resourceType: 'ServiceRequest',
      status: 'active',
      intent: 'order',
      priority: 'stat',
      subject: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'http://loinc.org', code: '10839-9' }] },
      reasonCode: [{ text: 'chest pain' }],
      performer: [{ display: 'Laboratory' }],
    });
    const id = created.body.id as string;
    const read = await call('GET', `/orders/${id}`, nurse);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    expect(await auditCount(id, 'diagnostics.order.create')).toBe(1);
    expect(await auditCount(id, 'diagnostics.order.read')).toBe(1);
  });

  it('refuses every illegal transition with a 409 naming the current state, and a stale If-Match with 412', async () => {
    const patient = await newPatient(gw);
    const proposal = (await call('POST', '/orders', doctor, orderBody(patient, '2524-7', { intent: 'proposal' }))).body;
    expect(proposal).toMatchObject({ status: 'draft', intent: 'proposal' });
    // draft → on-hold is not a FHIR transition
    const hold = await call('POST', `/orders/${proposal.id}/hold`, doctor, {});
    expect(hold.status).toBe(409);
    expect(hold.body).toMatchObject({ status: 409, current_status: 'draft', requested_status: 'on-hold' });
    expect(hold.body.detail).toContain('is draft');
    // stale If-Match → 412, nothing appended
    const stale = await call('POST', `/orders/${proposal.id}/activate`, { ...doctor, 'if-match': '"7"' }, {});
    expect(stale.status).toBe(412);
    expect((await readStream(gw.deps.pool, serviceRequestStream(proposal.id))).length).toBe(1);
    const active = await call('POST', `/orders/${proposal.id}/activate`, { ...doctor, 'if-match': '"1"' }, {});
    expect(active.status).toBe(200);
    expect(active.etag).toBe('"2"');
    expect((await call('POST', `/orders/${proposal.id}/activate`, doctor, {})).body).toMatchObject({
      status: 409,
      current_status: 'active',
    });
    expect((await call('POST', `/orders/${proposal.id}/hold`, doctor, { reason: 'patient in theatre' })).body).toMatchObject({
      status: 'on-hold',
    });
    const revoked = await call('POST', `/orders/${proposal.id}/cancel`, doctor, { reason: 'no longer needed' });
    expect(revoked.body).toMatchObject({ status: 'revoked' });
    for (const path of ['activate', 'hold', 'cancel']) {
      const refused = await call('POST', `/orders/${proposal.id}/${path}`, doctor, {});
      expect(refused.status, path).toBe(409);
      expect(refused.body.current_status, path).toBe('revoked');
    }
    expect((await call('POST', `/orders/${proposal.id}/entered-in-error`, doctor, {})).body).toMatchObject({ status: 'entered-in-error' });
    const last = await call('POST', `/orders/${proposal.id}/entered-in-error`, doctor, {});
    expect(last.body).toMatchObject({ status: 409, current_status: 'entered-in-error' });
    // results for an order that is not active: 409 naming its state, nothing stored
    const refused = await call('POST', '/reports', lab, reportBody(proposal.id, 'final', [quantityObs('2524-7', 1.1, 'mmol/L')]));
    expect(refused.status).toBe(409);
    expect(refused.body.current_status).toBe('entered-in-error');
  });

  it('two concurrent changes at one version: one wins, the other is a 412', async () => {
    const patient = await newPatient(gw);
    const order = (await call('POST', '/orders', doctor, orderBody(patient))).body;
    const results = await Promise.all([
      call('POST', `/orders/${order.id}/hold`, { ...doctor, 'if-match': '"1"' }, {}),
      call('POST', `/orders/${order.id}/cancel`, { ...doctor, 'if-match': '"1"' }, {}),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412]);
    expect((await readStream(gw.deps.pool, serviceRequestStream(order.id))).length).toBe(2);
  });

  it('refuses callers without the scope or the role (403, audited), and bad input (400/422, nothing stored)', async () => {
    const patient = await newPatient(gw);
    const noScope = await roleHeaders(gw, 'doctor', ['read:patients']);
    expect((await call('POST', '/orders', noScope, orderBody(patient))).status).toBe(403);
    expect((await call('GET', `/orders?patient=${patient}`, noScope)).status).toBe(403);
    // the lab posts results but never orders; a nurse reads only
    expect((await call('POST', '/orders', lab, orderBody(patient))).status).toBe(403);
    expect((await call('POST', '/orders', nurse, orderBody(patient))).status).toBe(403);
    const before = await headPosition(gw.deps.pool);
    const bad = [
      orderBody(patient, '99999-9'), // not in the catalog
      { ...orderBody(patient), priority: 'whenever' },
      { ...orderBody(patient), subject: { reference: 'Practitioner/x' } },
      { ...orderBody(patient), code: { coding: [{ system: 'http://snomed.info/sct', code: '51990-0' }] } },
    ];
    for (const body of bad) {
      const res = await call('POST', '/orders', doctor, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.type).toMatch(/\/errors\//);
    }
    const nobody = `pat-nobody-${uid()}`;
    const unknownPatient = await call('POST', '/orders', doctor, orderBody(nobody));
    expect(unknownPatient.status).toBe(422);
    const { rows } = await gw.deps.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE global_position > $1 AND stream_id LIKE 'serviceRequest-%' AND data->>'patientId' = $2`,
      [before, patient],
    );
    expect(rows[0].n).toBe(0);
    const refusals = await gw.deps.pool.query(`SELECT action, outcome FROM audit_events WHERE resource_id = $1`, [nobody]);
    expect(refusals.rows).toEqual([{ action: 'diagnostics.order.create', outcome: 'failure' }]);
  });
});

describe('reports', () => {
  it('order → preliminary → final (completes the order) → amended, with every revision readable in the history', async () => {
    const patient = await newPatient(gw);
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '51990-0'))).body;
    const accession = `ACC-${uid()}`;
    const prelim = await call(
      'POST',
      '/reports',
      lab,
      reportBody(order.id, 'preliminary', [quantityObs('2823-3', 3.2, 'mmol/L'), quantityObs('2951-2', 140, 'mmol/L')], accession),
    );
    expect(prelim.status).toBe(201);
    expect(prelim.etag).toBe('"1"');
    const report = prelim.body;
    expect(report).toMatchObject({
      resourceType: 'DiagnosticReport',
      status: 'preliminary',
      basedOn: [{ reference: `ServiceRequest/${order.id}` }],
      subject: { reference: `Patient/${patient}` },
      identifier: [{ system: 'urn:vitalis-test:accession', value: accession }],
      result: [{ reference: '#obs-1' }, { reference: '#obs-2' }],
    });
    expect(report.contained[0]).toMatchObject({
      resourceType: 'Observation',
      id: 'obs-1',
      status: 'preliminary',
      code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] },
      valueQuantity: { value: 3.2, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'L' }] }],
      referenceRange: [{ low: { value: 3.5 }, high: { value: 5.1 } }],
    });
    expect(report.contained[1].interpretation[0].coding[0].code).toBe('N');
    // PUT needs If-Match
    const finalBody = reportBody(
      order.id,
      'final',
      [quantityObs('2823-3', 5.3, 'mmol/L'), quantityObs('2951-2', 140, 'mmol/L')],
      accession,
      { conclusion: 'Mild hyperkalaemia.' },
    );
    expect((await call('PUT', `/reports/${report.id}`, lab, finalBody)).status).toBe(428);
    expect((await call('PUT', `/reports/${report.id}`, { ...lab, 'if-match': '"9"' }, finalBody)).status).toBe(412);
    const final = await call('PUT', `/reports/${report.id}`, { ...lab, 'if-match': prelim.etag! }, finalBody);
    expect(final.status).toBe(200);
    expect(final.body).toMatchObject({ status: 'final', conclusion: 'Mild hyperkalaemia.' });
    expect(final.body.contained[0].interpretation[0].coding[0].code).toBe('H');
    expect((await call('GET', `/orders/${order.id}`, doctor)).body.status).toBe('completed');
    // final cannot go back, nor be cancelled
    const back = await call('PUT', `/reports/${report.id}`, { ...lab, 'if-match': final.etag! }, { ...finalBody, status: 'preliminary' });
    expect(back.body).toMatchObject({ status: 409, current_status: 'final', requested_status: 'preliminary' });
    expect((await call('POST', `/reports/${report.id}/cancel`, lab, {})).body).toMatchObject({ status: 409, current_status: 'final' });
    // amend keeps the earlier versions readable with the reason
    const amended = await call(
      'POST',
      `/reports/${report.id}/amend`,
      { ...lab, 'if-match': final.etag! },
      {
        status: 'corrected',
        reason: 'haemolysed sample, re-run',
        contained: [quantityObs('2823-3', 4.6, 'mmol/L'), quantityObs('2951-2', 140, 'mmol/L')],
        conclusion: 'Normal electrolytes.',
      },
    );
    expect(amended.status).toBe(200);
    expect(amended.body).toMatchObject({ status: 'corrected', conclusion: 'Normal electrolytes.' });
    expect(amended.body.contained[0]).toMatchObject({ status: 'corrected', valueQuantity: { value: 4.6 } });
    const history = await call('GET', `/reports/${report.id}/history`, nurse);
    expect(history.status).toBe(200);
    expect(history.body.revisions.map((r: any) => [r.revision, r.status, r.reason])).toEqual([
      [1, 'preliminary', null],
      [2, 'final', null],
      [3, 'corrected', 'haemolysed sample, re-run'],
    ]);
    expect(history.body.revisions[1].report.contained[0].valueQuantity.value).toBe(5.3);
    expect(history.body.revisions[1].report.conclusion).toBe('Mild hyperkalaemia.');
    expect(history.body.revisions[2].report.contained[0].valueQuantity.value).toBe(4.6);
    expect(await auditCount(report.id, 'diagnostics.report.history')).toBe(1);
    // a cancelled report, for the other end of the table
    const order2 = (await call('POST', '/orders', doctor, orderBody(patient, '58410-2'))).body;
    const registered = (await call('POST', '/reports', lab, reportBody(order2.id, 'registered', []))).body;
    expect((await call('POST', `/reports/${registered.id}/cancel`, lab, { reason: 'sample lost' })).body.status).toBe('cancelled');
    expect((await call('POST', `/reports/${registered.id}/amend`, lab, { reason: 'x', contained: [] })).body).toMatchObject({
      status: 409,
      current_status: 'cancelled',
    });
  });

  it('a re-posted result (same filler identifier) is stored once: 200 with the stored report; other content under it is a 409', async () => {
    const patient = await newPatient(gw);
    // Twin posts race: the one that waits must see the other's report, never the order it completed (a 409).
    for (let round = 0; round < 8; round++) {
      const twinOrder = (await call('POST', '/orders', doctor, orderBody(patient, '2524-7'))).body;
      const twin = reportBody(twinOrder.id, 'final', [quantityObs('2524-7', 1.8, 'mmol/L')]);
      const pair = await Promise.all([call('POST', '/reports', lab, twin), call('POST', '/reports', lab, twin)]);
      expect(pair.map((r) => r.status).sort()).toEqual([200, 201]);
      expect(pair[0].body.id).toBe(pair[1].body.id);
    }
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '2524-7'))).body;
    const body = reportBody(order.id, 'final', [quantityObs('2524-7', 1.8, 'mmol/L')]);
    const [a, b] = await Promise.all([call('POST', '/reports', lab, body), call('POST', '/reports', lab, body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
    const again = await call('POST', '/reports', lab, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual((a.status === 201 ? a : b).body);
    expect((await readStream(gw.deps.pool, diagnosticReportStream(a.body.id))).length).toBe(1);
    const other = await call('POST', '/reports', lab, { ...body, contained: [quantityObs('2524-7', 2.5, 'mmol/L')] });
    expect(other.status).toBe(409);
    expect(other.body.report_id).toBe(a.body.id);
  });

  it('refuses bad results with 400/422 and stores nothing; only the lab posts, doctors and nurses do not', async () => {
    const patient = await newPatient(gw);
    const order = (await call('POST', '/orders', doctor, orderBody(patient, '51990-0'))).body;
    const before = await headPosition(gw.deps.pool);
    const cases: [unknown[], number][] = [
      [[quantityObs('2823-3', 5, 'mg/dL')], 422], // wrong UCUM unit
      [[quantityObs('1234-5', 5, 'mmol/L')], 422], // unknown result code
      [[{ resourceType: 'Observation', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] }, valueString: 'high' }], 422], // words for a number
      [[{ resourceType: 'Observation', code: { coding: [{ system: 'http://loinc.org', code: '2823-3' }] } }], 400], // no value
    ];
    for (const [contained, status] of cases) {
      const res = await call('POST', '/reports', lab, reportBody(order.id, 'final', contained));
      expect(res.status, JSON.stringify(contained)).toBe(status);
      expect(res.body.type).toMatch(/\/errors\//);
    }
    expect((await call('POST', '/reports', lab, { ...reportBody(order.id, 'final', []), status: 'amended' })).status).toBe(400);
    expect((await call('POST', '/reports', lab, reportBody(`sr-missing${uid()}`, 'final', []))).status).toBe(422);
    expect((await call('POST', '/reports', doctor, reportBody(order.id, 'final', []))).status).toBe(403);
    expect((await call('POST', '/reports', nurse, reportBody(order.id, 'final', []))).status).toBe(403);
    const { rows } = await gw.deps.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE global_position > $1 AND stream_id LIKE 'diagnosticReport-%' AND data->>'orderId' = $2`,
      [before, order.id],
    );
    expect(rows[0].n).toBe(0);
    expect((await call('GET', '/reports/dr-nothing', nurse)).status).toBe(404);
    const reportless = await roleHeaders(gw, 'nurse', ['read:patients']);
    expect((await call('GET', `/reports?patient=${patient}`, reportless)).status).toBe(403);
  });

  it('lists orders and reports from the projections; a rebuild from the log gives the same tables', async () => {
    const patient = await newPatient(gw);
    const o1 = (await call('POST', '/orders', doctor, orderBody(patient, '24336-0'))).body;
    const o2 = (await call('POST', '/orders', doctor, orderBody(patient, '36643-5'))).body;
    await call('POST', `/orders/${o2.id}/cancel`, doctor, {});
    const report = (await call('POST', '/reports', lab, reportBody(o1.id, 'final', [quantityObs('2744-1', 7.38, '[pH]')]))).body;
    const head = await headPosition(gw.deps.pool);
    await catchUpTo(gw.deps.pool, serviceRequestsProjection, head);
    await catchUpTo(gw.deps.pool, diagnosticReportsProjection, head);
    const all = await call('GET', `/orders?patient=${patient}`, nurse);
    expect(all.body.entry.map((e: any) => [e.resource.id, e.resource.status]).sort()).toEqual(
      [
        [o1.id, 'completed'],
        [o2.id, 'revoked'],
      ].sort(),
    );
    const revoked = await call('GET', `/orders?patient=${patient}&status=revoked,on-hold`, nurse);
    expect(revoked.body.entry.map((e: any) => e.resource.id)).toEqual([o2.id]);
    expect((await call('GET', `/orders?status=nonsense`, nurse)).status).toBe(400);
    const reports = await call('GET', `/reports?patient=${patient}`, nurse);
    expect(reports.body.entry.map((e: any) => e.resource)).toEqual([report]);

    const snapshot = async (table: string, key: string) => (await gw.deps.pool.query(`SELECT * FROM ${table} ORDER BY ${key}`)).rows;
    const liveOrders = await snapshot('rm_service_requests', 'request_id');
    const liveReports = await snapshot('rm_diagnostic_reports', 'report_id');
    // A rebuild swaps tables: the owner's step (the projector's `rebuild` command uses MIGRATION_DATABASE_URL), not the app role's.
    const owner = createPool({ url: testEnv.DATABASE_URL, max: 2 });
    try {
      await rebuild(owner, serviceRequestsProjection);
      await rebuild(owner, diagnosticReportsProjection);
    } finally {
      await owner.end();
    }
    // rows written after the snapshot (other test files share the database) are not compared
    const rebuiltOrders = (await snapshot('rm_service_requests', 'request_id')).filter((r) =>
      liveOrders.some((l) => l.request_id === r.request_id),
    );
    const rebuiltReports = (await snapshot('rm_diagnostic_reports', 'report_id')).filter((r) =>
      liveReports.some((l) => l.report_id === r.report_id),
    );
    const stable = (rows: any[], fresh: any[], key: string) =>
      rows.filter((r) => fresh.find((f) => f[key] === r[key])?.last_position === r.last_position);
    expect(stable(rebuiltOrders, liveOrders, 'request_id')).toEqual(stable(liveOrders, rebuiltOrders, 'request_id'));
    expect(stable(rebuiltReports, liveReports, 'report_id')).toEqual(stable(liveReports, rebuiltReports, 'report_id'));
    expect(rebuiltOrders.find((r) => r.request_id === o1.id)).toMatchObject({ status: 'completed', patient_id: patient });
  });
});
