/**
 * Issue 22 item 2 (the rest): the FHIR R4 resources beyond Patient and Observation over real HTTP,
 * served by the REST v1 services: AllergyIntolerance, Practitioner, Schedule, Slot, Appointment,
 * Device, ServiceRequest, DiagnosticReport (read, search with _count paging, vread where the event store
 * has versions), Observation read, _include (Observation:patient, Appointment:slot), Patient create
 * and update (If-Match, 412), Appointment booking; every resource and search Bundle checked by the
 * independent validator (HAPI);
 * two third-party clients (fhir-kit-client; SMART's fhirclient) read, search, page, resolve references,
 * create and update; patient isolation,
 * scopes (401/403 as OperationOutcomes) and the audit trail on the new routes.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { headPosition } from '@vitalis/eventstore';
import { DIAGNOSTIC_CODE } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import {
  diagnosticReportsProjection,
  patientsProjection,
  serviceRequestsProjection,
  slotsProjection,
} from '../../../apps/projector/src/projections/definitions';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';
import { uid } from '../records/support';
import { userTokenFor } from '../mcp/support';
import { orderBody, quantityObs, reportBody } from '../diagnostics/support';

const FHIR_JSON = 'application/fhir+json';
// fhirclient (SMART Health IT's client-js) is CommonJS: its Node entry makes a client from a token response without a launch.
const smart = createRequire(import.meta.url)('fhirclient') as (
  req: unknown,
  res: unknown,
  storage: unknown,
) => {
  client(state: { serverUrl: string; tokenResponse: { access_token: string } }): {
    request<T = any>(url: string, options?: { pageLimit?: number; flat?: boolean; resolveReferences?: string[] }): Promise<T>;
  };
};
type Bundle = {
  resourceType: 'Bundle';
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: any; search: { mode: string } }[];
};
const entries = (b: Bundle) => b.entry ?? [];
const nextOf = (b: Bundle) => b.link.find((l) => l.relation === 'next')?.url;

let gw: RunningGateway;
let fhirBase: string;
let staff: Record<string, string>;
/** Every resource and Bundle a test got, validated together at the end of each test. */
let seen: unknown[] = [];

async function http(
  method: string,
  path: string,
  headers: Record<string, string> = staff,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${fhirBase}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': FHIR_JSON },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  if (parsed?.resourceType) seen.push(parsed);
  return { status: res.status, headers: res.headers, body: parsed };
}
const get = (path: string, headers?: Record<string, string>) => http('GET', path, headers);
async function validateSeen(): Promise<void> {
  const batch = seen;
  seen = [];
  await expectValidFhir(batch);
}

let ada: string;
let grace: string;
let clinician: string;
let slots: string[];
let orderId: string;
let reportId: string;
const T0 = Date.parse('2026-04-01T10:00:00Z');

const project = async () => {
  const head = await headPosition(gw.deps.pool);
  for (const p of [patientsProjection, slotsProjection, serviceRequestsProjection, diagnosticReportsProjection])
    await catchUpTo(gw.deps.pool, p, head);
};

beforeAll(async () => {
  gw = await startGateway();
  fhirBase = `${gw.url}/fhir/R4`;
  await seedRecords(gw.deps.pool, new Date()); // pat-0001, the demo patient user's record (idempotent)
  staff = await authHeaders(gw.url, [
    'read:patients',
    'write:patients',
    'read:appointments',
    'write:appointments',
    'read:vitals',
    'read:diagnostics',
    'write:diagnostics',
  ]);
  const family = `Fhirres${uid()}`;
  const patient = (given: string) => ({
    resourceType: 'Patient',
    name: [{ use: 'official', family, given: [given] }],
    gender: 'female',
    birthDate: '1975-03-04',
    identifier: [{ system: 'urn:vitalis:mrn', value: `MRN-${given}-${family}` }],
  });
  ada = (await http('POST', '/Patient', staff, patient('Ada'))).body.id;
  grace = (await http('POST', '/Patient', staff, patient('Grace'))).body.id;
  for (const [substance, criticality] of [
    ['Penicillin', 'high'],
    ['Latex', 'low'],
    ['Peanut', 'high'],
  ] as const) {
    const r = await fetch(`${gw.url}/api/v1/patients/${ada}/allergies`, {
      method: 'POST',
      headers: { ...staff, 'content-type': 'application/json' },
      body: JSON.stringify({ code: { text: substance }, criticality }),
    });
    expect(r.status).toBe(201);
  }
  clinician = `clin-${uid()}`;
  const day = Date.UTC(2033, 4, 5, 9);
  slots = (
    await Promise.all(
      [0, 1, 2, 3].map((i) =>
        createSlot(gw.deps.pool, {
          clinicianId: clinician,
          appointmentType: 'consultation',
          start: new Date(day + i * 1_800_000).toISOString(),
          end: new Date(day + (i + 1) * 1_800_000).toISOString(),
        }),
      ),
    )
  ).map((s) => s.id);
  for (let s = 0; s < 3; s++) {
    await gw.deps.pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, $3, $4, $5, $6, '/min', 0, $3, vitals_series_assign($1, $4))`,
      [ada, `dev-${ada}`, s + 1, VITAL_CODE.heartRate, new Date(T0 + s * 60_000).toISOString(), 70 + s],
    );
  }
  const dx = (path: string, body: unknown) =>
    fetch(`${gw.url}/api/v1/diagnostics${path}`, {
      method: 'POST',
      headers: { ...staff, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  orderId = (await dx('/orders', orderBody(ada, DIAGNOSTIC_CODE.cbcPanel))).body.id;
  await dx('/orders', orderBody(ada, DIAGNOSTIC_CODE.basicMetabolicPanel));
  const report = await dx('/reports', reportBody(orderId, 'final', [quantityObs(DIAGNOSTIC_CODE.hemoglobin, 13.1, 'g/dL')]));
  expect(report.status).toBe(201);
  reportId = report.body.id;
  await project();
});
afterAll(async () => {
  await gw?.close();
});

describe('the FHIR R4 resources beyond Patient and Observation', () => {
  it('reads and searches AllergyIntolerance, Practitioner and Schedule, paging with Bundle.link next', async () => {
    const page1 = (await get(`/AllergyIntolerance?patient=Patient/${ada}&_count=2`)).body as Bundle;
    expect(entries(page1).map((e) => e.resource.code.text)).toEqual(['Penicillin', 'Latex']);
    const page2 = (await get(nextOf(page1)!)).body as Bundle;
    expect(entries(page2).map((e) => e.resource.code.text)).toEqual(['Peanut']);
    expect(nextOf(page2)).toBeUndefined();
    const one = await get(new URL(entries(page1)[0]!.fullUrl).href);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      resourceType: 'AllergyIntolerance',
      id: entries(page1)[0]!.resource.id,
      patient: { reference: `Patient/${ada}` },
    });
    expect((await get(`/AllergyIntolerance?patient=${grace}`)).body).not.toHaveProperty('entry'); // nothing matched: no entry
    expect((await get('/AllergyIntolerance/alg-nothing0')).status).toBe(404);

    const practitioners = (await get('/Practitioner?_count=2')).body as Bundle;
    expect(entries(practitioners)).toHaveLength(2);
    const more = (await get(nextOf(practitioners)!)).body as Bundle;
    expect(entries(more).length).toBeGreaterThan(0);
    const id = entries(practitioners)[0]!.resource.id;
    expect((await get(`/Practitioner/${id}`)).body).toMatchObject({ resourceType: 'Practitioner', id });
    expect(entries((await get('/Practitioner?name=tanaka')).body)).toHaveLength(1);

    const schedule = (await get(`/Schedule?actor=Practitioner/${clinician}`)).body as Bundle;
    expect(entries(schedule).map((e) => e.resource.id)).toEqual([clinician]);
    expect((await get(`/Schedule/${clinician}`)).body).toMatchObject({
      resourceType: 'Schedule',
      actor: [{ reference: `Practitioner/${clinician}` }],
    });
    expect((await get(`/Schedule/clin-none-${uid()}`)).status).toBe(404);
    await validateSeen();
  });

  it('searches Slots by schedule, start and status; books one with POST Appointment; reads, vreads and searches Appointments with _include=Appointment:slot', async () => {
    const q = `schedule=Schedule/${clinician}&start=ge2033-05-05&start=lt2033-05-06`;
    const free = (await get(`/Slot?${q}&status=free&_count=3`)).body as Bundle;
    expect(entries(free).map((e) => e.resource.id)).toEqual(slots.slice(0, 3));
    expect(entries((await get(nextOf(free)!)).body).map((e: any) => e.resource.id)).toEqual([slots[3]]);
    expect(entries((await get(`/Slot?${q}&start=ge2033-05-05T10:00:00Z`)).body).map((e: any) => e.resource.id)).toEqual(slots.slice(2));

    const booking = {
      resourceType: 'Appointment',
      status: 'booked',
      slot: [{ reference: `Slot/${slots[0]}` }],
      participant: [{ actor: { reference: `Patient/${ada}` }, status: 'accepted' }],
      description: 'Check-up',
    };
    const booked = await http('POST', '/Appointment', staff, booking);
    expect(booked.status).toBe(201);
    expect(booked.headers.get('location')).toBe(`${fhirBase}/Appointment/${booked.body.id}`);
    expect(booked.body).toMatchObject({ resourceType: 'Appointment', status: 'booked', slot: [{ reference: `Slot/${slots[0]}` }] });
    const twice = await http('POST', '/Appointment', staff, {
      ...booking,
      participant: [{ actor: { reference: `Patient/${grace}` }, status: 'accepted' }],
    });
    expect(twice.status).toBe(409);
    expect(twice.body.resourceType).toBe('OperationOutcome');
    await project();

    expect((await get(`/Appointment/${booked.body.id}`)).body).toMatchObject({
      id: booked.body.id,
      participant: expect.arrayContaining([{ actor: { reference: `Patient/${ada}` }, status: 'accepted' }]),
    });
    const withSlots = (await get(`/Appointment?patient=${ada}&date=ge2033-05-05&date=lt2033-05-06&_include=Appointment:slot`))
      .body as Bundle;
    expect(entries(withSlots).map((e) => [e.resource.resourceType, e.search.mode])).toEqual([
      ['Appointment', 'match'],
      ['Slot', 'include'],
    ]);
    expect(entries(withSlots)[1]!.resource).toMatchObject({ id: slots[0], status: 'busy' });
    expect((await get(`/Appointment?patient=${grace}`)).body).not.toHaveProperty('entry');
    expect((await get(`/Appointment?patient=${ada}&status=cancelled`)).body).not.toHaveProperty('entry');
    expect((await get(`/Appointment?_include=Appointment:patient`)).status).toBe(400);

    const slot = await get(`/Slot/${slots[0]}`);
    expect(slot.headers.get('etag')).toBe('W/"2"');
    expect(slot.body).toMatchObject({ status: 'busy', meta: { versionId: '2' } });
    expect((await get(`/Slot/${slots[0]}/_history/1`)).body).toMatchObject({ status: 'free', meta: { versionId: '1' } });
    expect((await get(`/Slot/${slots[0]}/_history/3`)).status).toBe(404);
    await validateSeen();
  });

  it('reads, vreads and searches ServiceRequest and DiagnosticReport by patient, code, status and category', async () => {
    const orders = (await get(`/ServiceRequest?patient=${ada}&_count=1`)).body as Bundle;
    expect(entries(orders)).toHaveLength(1);
    const rest = (await get(nextOf(orders)!)).body as Bundle;
    expect(new Set([...entries(orders), ...entries(rest)].map((e) => e.resource.id)).size).toBe(2);
    expect(
      entries((await get(`/ServiceRequest?patient=${ada}&code=http://loinc.org|${DIAGNOSTIC_CODE.cbcPanel}`)).body).map(
        (e: any) => e.resource.id,
      ),
    ).toEqual([orderId]);
    expect(entries((await get(`/ServiceRequest?patient=${ada}&status=completed`)).body).map((e: any) => e.resource.id)).toEqual([orderId]);
    expect((await get(`/ServiceRequest?patient=${ada}&status=draft`)).body).not.toHaveProperty('entry');
    const order = await get(`/ServiceRequest/${orderId}`);
    expect(order.body).toMatchObject({ resourceType: 'ServiceRequest', status: 'completed' });
    expect((await get(`/ServiceRequest/${orderId}/_history/1`)).body).toMatchObject({ status: 'active', meta: { versionId: '1' } });

    for (const query of [
      `patient=${ada}`,
      `patient=${ada}&code=${DIAGNOSTIC_CODE.cbcPanel}`,
      `patient=${ada}&status=final,amended`,
      `patient=${ada}&category=http://terminology.hl7.org/CodeSystem/v2-0074|LAB`,
    ]) {
      expect(
        entries((await get(`/DiagnosticReport?${query}`)).body).map((e: any) => e.resource.id),
        query,
      ).toEqual([reportId]);
    }
    expect((await get(`/DiagnosticReport?patient=${ada}&category=RAD`)).body).not.toHaveProperty('entry');
    const report = await get(`/DiagnosticReport/${reportId}`);
    expect(report.headers.get('etag')).toBe(`W/"${report.body.meta.versionId}"`);
    expect(report.body).toMatchObject({ resourceType: 'DiagnosticReport', status: 'final', subject: { reference: `Patient/${ada}` } });
    expect((await get(`/DiagnosticReport/${reportId}/_history/1`)).body.meta.versionId).toBe('1');
    expect((await get(`/DiagnosticReport/dr-nothing-${uid()}`)).status).toBe(404);
    await validateSeen();
  });

  it('reads an Observation by its id (device.seq) and includes the Patient with _include=Observation:patient', async () => {
    const search = (await get(`/Observation?patient=${ada}&date=ge2026-04-01&date=lt2026-04-02&_include=Observation:patient&_count=2`))
      .body as Bundle;
    expect(entries(search).map((e) => [e.resource.resourceType, e.search.mode])).toEqual([
      ['Observation', 'match'],
      ['Observation', 'match'],
      ['Patient', 'include'],
    ]);
    const obs = entries(search)[0]!;
    expect(obs.fullUrl).toBe(`${fhirBase}/Observation/dev-${ada}.1`);
    const next = (await get(nextOf(search)!)).body as Bundle;
    expect(entries(next).map((e) => e.resource.resourceType)).toEqual(['Observation', 'Patient']);
    const read = await get(obs.fullUrl);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(obs.resource);
    await expectValidFhir(read.body, { profiles: [VITAL_SIGNS_PROFILE] });
    expect((await get(`/Observation/dev-${ada}.99`)).status).toBe(404);
    // its Device: read (the patient it reports for) and searched by patient
    const device = await get(`/Device/dev-${ada}`);
    expect(device.body).toMatchObject({ resourceType: 'Device', id: `dev-${ada}`, patient: { reference: `Patient/${ada}` } });
    expect(entries((await get(`/Device?patient=${ada}`)).body).map((e: any) => e.fullUrl)).toEqual([`${fhirBase}/Device/dev-${ada}`]);
    expect((await get(`/Device?patient=${grace}`)).body).not.toHaveProperty('entry');
    expect((await get(`/Device/dev-nothing-${uid()}`)).status).toBe(404);
    expect((await get(`/Observation?patient=${ada}&_include=Observation:device`)).status).toBe(400);
    await validateSeen();
  });

  it('creates a Patient (201, Location, ETag) and updates it with If-Match: 412 when stale, 428 without', async () => {
    const body = {
      resourceType: 'Patient',
      name: [{ family: `Write${uid()}`, given: ['Rosalind'] }],
      gender: 'female',
      birthDate: '1920-07-25',
    };
    const created = await http('POST', '/Patient', staff, body);
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get('location')).toBe(`${fhirBase}/Patient/${id}/_history/1`);
    expect(created.headers.get('etag')).toBe('W/"1"');
    const changed = { ...body, id, telecom: [{ system: 'email', value: 'rf@example.org' }] };
    const updated = await http('PUT', `/Patient/${id}`, { ...staff, 'if-match': 'W/"1"' }, changed);
    expect(updated.status).toBe(200);
    expect(updated.headers.get('etag')).toBe('W/"2"');
    expect(updated.body).toMatchObject({ id, meta: { versionId: '2' }, telecom: [{ system: 'email' }] });
    const stale = await http('PUT', `/Patient/${id}`, { ...staff, 'if-match': 'W/"1"' }, changed);
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await http('PUT', `/Patient/${id}`, staff, changed)).status).toBe(428);
    expect((await http('PUT', `/Patient/${grace}`, { ...staff, 'if-match': 'W/"1"' }, changed)).status).toBe(400); // the id is not the URL's
    const { rows } = await gw.deps.pool.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM audit_events WHERE resource_id = $1 ORDER BY id`,
      [id],
    );
    expect(rows).toEqual([
      { action: 'patient.register', outcome: 'success' },
      { action: 'patient.update', outcome: 'success' },
      { action: 'patient.update', outcome: 'failure' },
    ]);
    await validateSeen();
  });

  it('401 and 403 are OperationOutcomes; a patient user sees only its own; the reads are audited', async () => {
    for (const path of [
      '/AllergyIntolerance?patient=x',
      `/Slot/${slots[1]}`,
      '/Appointment',
      `/ServiceRequest/${orderId}`,
      `/DiagnosticReport/${reportId}`,
      `/Observation/dev-${ada}.1`,
      `/Device/dev-${ada}`,
    ]) {
      const anonymous = await get(path, {});
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body, path).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    }
    const appointmentsOnly = await authHeaders(gw.url, ['read:appointments']);
    for (const path of [
      `/AllergyIntolerance?patient=${ada}`,
      `/ServiceRequest?patient=${ada}`,
      `/DiagnosticReport/${reportId}`,
      `/Observation/dev-${ada}.1`,
      `/Device?patient=${ada}`,
    ]) {
      const refused = await get(path, appointmentsOnly);
      expect(refused.status, path).toBe(403);
      expect(refused.headers.get('www-authenticate'), path).toMatch(/error="insufficient_scope"/);
      expect(refused.body, path).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'forbidden' }] });
    }
    expect((await http('POST', '/Patient', appointmentsOnly, { resourceType: 'Patient', name: [{ family: 'X' }] })).status).toBe(403);

    const { token } = await userTokenFor(
      gw.url,
      'patient',
      ['read:appointments', 'patient/Patient.rs', 'patient/AllergyIntolerance.rs', 'patient/DiagnosticReport.rs', 'patient/Observation.rs'],
      `FHIR resources ${uid()}`,
    );
    const patientUser = { authorization: `Bearer ${token}` };
    expect((await get(`/AllergyIntolerance?patient=${ada}`, patientUser)).status).toBe(403);
    expect((await get(`/AllergyIntolerance?patient=pat-0001`, patientUser)).status).toBe(200);
    expect((await get(`/DiagnosticReport/${reportId}`, patientUser)).status).toBe(403);
    expect((await get(`/DiagnosticReport?patient=${ada}`, patientUser)).status).toBe(403);
    expect((await get(`/Observation/dev-${ada}.1`, patientUser)).status).toBe(403);
    expect((await get(`/Device/dev-${ada}`, patientUser)).status).toBe(403);
    expect((await get(`/Appointment?patient=${ada}`, patientUser)).status).toBe(403);
    const own = (await get('/Appointment', patientUser)).body as Bundle;
    expect(entries(own).every((e) => e.resource.participant.some((p: any) => p.actor.reference === 'Patient/pat-0001'))).toBe(true);
    const appointment = entries((await get(`/Appointment?patient=${ada}`)).body)[0]!.resource.id;
    expect((await get(`/Appointment/${appointment}`, patientUser)).status).toBe(404);

    const { rows } = await gw.deps.pool.query<{ action: string; outcome: string }>(
      `SELECT DISTINCT action, outcome FROM audit_events WHERE (resource_id = $1 OR resource_id = $2) AND occurred_at > now() - interval '10 minutes'`,
      [ada, reportId],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'patient.allergies.read', outcome: 'success' },
        { action: 'patient.allergies.read', outcome: 'failure' },
        { action: 'appointment.book', outcome: 'success' },
        { action: 'appointment.list', outcome: 'success' },
        { action: 'diagnostics.report.read', outcome: 'success' },
        { action: 'diagnostics.report.read', outcome: 'failure' },
        { action: 'vitals.read', outcome: 'success' },
        { action: 'vitals.read', outcome: 'failure' },
      ]),
    );
    await validateSeen();
  });

  it('a third-party FHIR client (fhir-kit-client) reads, vreads, searches with _include, creates and updates', async () => {
    const client = new Client({ baseUrl: fhirBase, bearerToken: staff.authorization!.slice('Bearer '.length) });
    const slot = (await client.read({ resourceType: 'Slot', id: slots[0]! })) as any;
    expect(slot.status).toBe('busy');
    expect(((await client.vread({ resourceType: 'Slot', id: slots[0]!, version: '1' })) as any).status).toBe('free');
    const reports = (await client.search({ resourceType: 'DiagnosticReport', searchParams: { patient: ada, category: 'LAB' } })) as any;
    expect(reports.entry.map((e: any) => e.resource.id)).toEqual([reportId]);
    const appts = (await client.search({
      resourceType: 'Appointment',
      searchParams: { patient: ada, _include: 'Appointment:slot' },
    })) as any;
    expect(appts.entry.map((e: any) => e.resource.resourceType)).toEqual(['Appointment', 'Slot']);
    const allergies = (await client.search({ resourceType: 'AllergyIntolerance', searchParams: { patient: ada, _count: 2 } })) as any;
    expect(((await client.nextPage({ bundle: allergies })) as any).entry).toHaveLength(1);
    const created = (await client.create({
      resourceType: 'Patient',
      body: { resourceType: 'Patient', name: [{ family: `Kit${uid()}`, given: ['Dorothy'] }] },
    })) as any;
    expect(created.meta.versionId).toBe('1');
    const updated = (await client.update({
      resourceType: 'Patient',
      id: created.id,
      body: { ...created, gender: 'female' },
      options: { headers: { 'If-Match': 'W/"1"' } },
    })) as any;
    expect(updated).toMatchObject({ id: created.id, gender: 'female', meta: { versionId: '2' } });
    await expectValidFhir([slot, reports, appts, allergies, created, updated]);
  });

  it("SMART's fhirclient pages every search to its end and resolves references across the new types", async () => {
    const storage = { get: async () => undefined, set: async (_k: string, v: unknown) => v, unset: async () => true };
    const client = smart({ headers: {}, url: '/', method: 'GET' }, {}, storage).client({
      serverUrl: fhirBase,
      tokenResponse: { access_token: staff.authorization!.slice('Bearer '.length) },
    });
    const allergies = await client.request<any[]>(`AllergyIntolerance?patient=${ada}&_count=1`, { pageLimit: 0, flat: true });
    expect(allergies.map((a) => a.code.text)).toEqual(['Penicillin', 'Latex', 'Peanut']);
    const slotsOfDay = await client.request<any[]>(`Slot?schedule=${clinician}&_count=1`, { pageLimit: 0, flat: true });
    expect(slotsOfDay.map((x) => x.id)).toEqual(slots);
    const orders = await client.request<any[]>(`ServiceRequest?patient=${ada}&_count=1`, { pageLimit: 0, flat: true });
    expect(orders).toHaveLength(2);
    const [appointment] = await client.request<any[]>(`Appointment?patient=${ada}`, { flat: true });
    const resolved = await client.request<any>(`Appointment/${appointment.id}`, { resolveReferences: ['slot.0', 'participant.0.actor'] });
    expect(resolved.slot[0]).toMatchObject({ resourceType: 'Slot', id: slots[0] });
    expect(resolved.participant[0].actor).toMatchObject({ resourceType: 'Patient', id: ada });
    const report = await client.request<any>(`DiagnosticReport/${reportId}`, { resolveReferences: ['basedOn.0'] });
    expect(report.basedOn[0]).toMatchObject({ resourceType: 'ServiceRequest', id: orderId });
    const device = await client.request<any>(`Device/dev-${ada}`, { resolveReferences: ['patient'] });
    expect(device.patient).toMatchObject({ resourceType: 'Patient', id: ada });
    await expectValidFhir([...allergies, ...slotsOfDay, ...orders, appointment]);
  });
});
