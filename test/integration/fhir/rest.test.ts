/**
 * Issue 22 item 2 (the core): the FHIR R4 REST API at /fhir/R4 over real HTTP: the
 * CapabilityStatement, Patient read / vread / search with paging, Observation search by patient,
 * code and date range with paging, $lastn, OperationOutcome errors (404, 400, 406, 401 and 403
 * with the API's WWW-Authenticate), a patient user refused another patient, the audit trail; every
 * resource and Bundle returned is checked by the independent validator (HAPI), and a third-party
 * FHIR client (fhir-kit-client) reads the statement, searches, pages and runs $lastn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { headPosition } from '@vitalis/eventstore';
import { ECG_LEAD_II, VITAL_CODE } from '@vitalis/schemas';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection } from '../../../apps/projector/src/projections/definitions';
import { registerPatient, updatePatient } from '../../../apps/gateway/src/patients/service';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';
import { caller, uid } from '../records/support';
import { userTokenFor } from '../mcp/support';

const FHIR_JSON = 'application/fhir+json';
let gw: RunningGateway;
let clinician: Record<string, string>;
let fhirBase: string;

type Bundle = { resourceType: 'Bundle'; link: { relation: string; url: string }[]; entry: { fullUrl: string; resource: any }[] };
/** The entries of a searchset (FHIR leaves `entry` out when nothing matched). */
const entries = (b: Bundle) => b.entry ?? [];
const nextOf = (b: Bundle) => b.link.find((l) => l.relation === 'next')?.url;

async function get(path: string, headers: Record<string, string> = clinician): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${fhirBase}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const writer = caller({ scopes: ['write:patients'] });
const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** Vitals straight into the append log (what ingest writes), one device per patient. */
async function seedVitals(patientId: string) {
  const rows: [string, number, string, number][] = [];
  for (let s = 0; s < 5; s++) rows.push([VITAL_CODE.heartRate, 70 + s, '/min', s * 60]);
  rows.push([VITAL_CODE.spo2, 97, '%', 30]);
  let seq = 0;
  for (const [code, value, unit, offset] of rows) {
    await gw.deps.pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $3, vitals_series_assign($1, $4))`,
      [patientId, `dev-${patientId}`, ++seq, code, at(offset), value, unit],
    );
  }
  await gw.deps.pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, unit, sample_period_ms, samples, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, $3, $4, $5, 'mV', 4, $6, 0, $3, vitals_series_assign($1, $4))`,
    [patientId, `dev-${patientId}`, seq + 1, ECG_LEAD_II.code, at(90), [0.1, 0.25, -0.05, 1.2]],
  );
}

let ada: string;
let grace: string;
let family: string;

beforeAll(async () => {
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000' }); // the sandbox's per-address window is shared by the machine
  fhirBase = `${gw.url}/fhir/R4`;
  clinician = await authHeaders(gw.url, ['read:patients', 'read:vitals']);
  family = `Fhirrest${uid()}`;
  const demo = (given: string, gender: 'female' | 'male', birthDate: string) => ({
    family,
    given: [given],
    gender,
    birthDate,
    identifiers: [{ system: 'urn:vitalis:mrn', value: `MRN-${given}-${family}` }],
    telecom: [],
  });
  ada = (await registerPatient(gw.deps.pool, writer, demo('Ada', 'female', '1970-05-06'))).id;
  grace = (await registerPatient(gw.deps.pool, writer, demo('Grace', 'female', '1980-01-02'))).id;
  await registerPatient(gw.deps.pool, writer, demo('Alan', 'male', '1970-05-06'));
  await updatePatient(gw.deps.pool, writer, ada, 1, {
    ...demo('Ada', 'female', '1970-05-06'),
    telecom: [{ system: 'phone', value: '+44 20 7946 0001' }],
  });
  await catchUpTo(gw.deps.pool, patientsProjection, await headPosition(gw.deps.pool));
  await seedVitals(ada);
});
afterAll(async () => {
  await gw?.close();
});

describe('FHIR R4 REST API', () => {
  it('GET /metadata is a valid CapabilityStatement listing what is implemented, with the OAuth URIs', async () => {
    const r = await get('/metadata', {});
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    const cs = r.body;
    await expectValidFhir(cs);
    expect(cs).toMatchObject({
      resourceType: 'CapabilityStatement',
      fhirVersion: '4.0.1',
      kind: 'instance',
      format: expect.arrayContaining(['json']),
    });
    const rest = cs.rest[0];
    expect(rest.resource.map((x: { type: string }) => x.type)).toEqual([
      'Patient',
      'Observation',
      'AllergyIntolerance',
      'Practitioner',
      'Schedule',
      'Slot',
      'Appointment',
      'Device',
      'ServiceRequest',
      'DiagnosticReport',
      'DetectedIssue',
      'Group',
      'Subscription',
    ]);
    const observation = rest.resource[1];
    expect(observation.searchParam.map((p: { name: string }) => p.name)).toEqual([
      'patient',
      'subject',
      'code',
      'component-code',
      'date',
      'category',
      '_count',
      '_sort',
    ]);
    expect(observation.operation[0].name).toBe('lastn');
    const uris = rest.security.extension.find((e: { url: string }) => e.url.endsWith('/oauth-uris'));
    expect(uris.extension).toContainEqual({ url: 'token', valueUri: `${gw.url}/api/auth/oauth2/token` });
    expect(uris.extension).toContainEqual({ url: 'authorize', valueUri: `${gw.url}/api/auth/oauth2/authorize` });
  });

  it('reads a Patient with ETag, Last-Modified and 304 on If-None-Match; reads an older version', async () => {
    const r = await get(`/Patient/${ada}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(r.headers.get('etag')).toBe('W/"2"');
    expect(new Date(r.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);
    expect(r.body).toMatchObject({ resourceType: 'Patient', id: ada, meta: { versionId: '2' }, telecom: [{ system: 'phone' }] });
    await expectValidFhir(r.body);
    const again = await fetch(`${fhirBase}/Patient/${ada}`, { headers: { ...clinician, 'if-none-match': 'W/"2"' } });
    expect(again.status).toBe(304);
    const v1 = await get(`/Patient/${ada}/_history/1`);
    expect(v1.status).toBe(200);
    expect(v1.body.meta.versionId).toBe('1');
    expect(v1.body).not.toHaveProperty('telecom');
    await expectValidFhir(v1.body);
    const v9 = await get(`/Patient/${ada}/_history/9`);
    expect(v9.status).toBe(404);
    expect(v9.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
  });

  it('searches Patients by every parameter, paging with Bundle link next', async () => {
    const ids = async (query: string) =>
      entries((await get(`/Patient?${query}`)).body as Bundle)
        .map((e) => e.resource.id)
        .sort();
    expect(await ids(`family=${family}`)).toHaveLength(3);
    expect(await ids(`family=${family}&given=gra`)).toEqual([grace]);
    expect(await ids(`name=ada%20${family.toLowerCase()}`)).toEqual([ada]);
    expect(await ids(`_id=${grace}`)).toEqual([grace]);
    expect(await ids(`family=${family}&gender=male`)).toHaveLength(1);
    expect(await ids(`family=${family}&birthdate=1970-05-06`)).toHaveLength(2);
    expect(await ids(`identifier=${encodeURIComponent(`urn:vitalis:mrn|MRN-Ada-${family}`)}`)).toEqual([ada]);

    const page1 = (await get(`/Patient?family=${family}&_count=2`)).body as Bundle;
    await expectValidFhir(page1);
    expect(page1.entry).toHaveLength(2);
    expect(page1.entry[0]!.fullUrl).toBe(`${fhirBase}/Patient/${page1.entry[0]!.resource.id}`);
    const page2 = (await get(nextOf(page1)!)).body as Bundle;
    await expectValidFhir(page2);
    expect(page2.entry).toHaveLength(1);
    expect(nextOf(page2)).toBeUndefined();
    expect(new Set([...page1.entry, ...page2.entry].map((e) => e.resource.id)).size).toBe(3);
  });

  it('searches Observations by patient, code and date range, paging through the vitals service cursor', async () => {
    const q = `patient=Patient/${ada}&code=${encodeURIComponent(`http://loinc.org|${VITAL_CODE.heartRate}`)}&date=ge${at(0)}&date=lt${at(240)}&_count=2&category=vital-signs`;
    const page1 = (await get(`/Observation?${q}`)).body as Bundle;
    await expectValidFhir(page1, { profiles: [VITAL_SIGNS_PROFILE] });
    expect(page1.entry.map((e) => e.resource.valueQuantity.value)).toEqual([70, 71]);
    const page2 = (await get(nextOf(page1)!)).body as Bundle;
    await expectValidFhir(page2, { profiles: [VITAL_SIGNS_PROFILE] });
    expect(page2.entry.map((e) => e.resource.valueQuantity.value)).toEqual([72, 73]);
    expect(nextOf(page2)).toBeUndefined(); // lt at(240) leaves out the fifth
    // newest first (_sort=-date), paged: the next link keeps the order
    const newest = (await get(`/Observation?${q}&_sort=-date`)).body as Bundle;
    expect(newest.entry.map((e) => e.resource.valueQuantity.value)).toEqual([73, 72]);
    const older = (await get(nextOf(newest)!)).body as Bundle;
    expect(older.entry.map((e) => e.resource.valueQuantity.value)).toEqual([71, 70]);
    expect(nextOf(older)).toBeUndefined();
    await expectValidFhir([newest, older], { profiles: [VITAL_SIGNS_PROFILE] });
    expect((await get(`/Observation?${q}&_cursor=${new URL(nextOf(page1)!).searchParams.get('_cursor')}&_sort=-date`)).status).toBe(400); // a cursor is bound to its order
    // le and gt at day precision; subject instead of patient; every code (ECG as valueSampledData)
    const day = (await get(`/Observation?subject=${ada}&date=gt2026-02-28&date=le2026-03-01`)).body as Bundle;
    await expectValidFhir(day, { profiles: [VITAL_SIGNS_PROFILE] });
    expect(day.entry).toHaveLength(7);
    const ecg = day.entry.find((e) => e.resource.valueSampledData)!.resource;
    expect(ecg.valueSampledData).toMatchObject({ period: 4, dimensions: 1, data: '0.1 0.25 -0.05 1.2' });
    // 2708-6 finds SpO2; an unknown code or another category finds nothing
    expect(((await get(`/Observation?patient=${ada}&code=2708-6&date=ge2026-03-01&date=lt2026-03-02`)).body as Bundle).entry).toHaveLength(
      1,
    );
    const none = (await get(`/Observation?patient=${ada}&code=http://snomed.info/sct|8867-4&date=ge2026-03-01&date=lt2026-03-02`))
      .body as Bundle;
    expect(none).not.toHaveProperty('entry');
    await expectValidFhir(none);
    expect(
      entries((await get(`/Observation?patient=${ada}&category=laboratory&date=ge2026-03-01&date=lt2026-03-02`)).body as Bundle),
    ).toEqual([]);
  });

  it('$lastn answers the latest Observation per code', async () => {
    const r = await get(`/Observation/$lastn?patient=${ada}`);
    expect(r.status).toBe(200);
    await expectValidFhir(r.body, { profiles: [VITAL_SIGNS_PROFILE] });
    const byCode = Object.fromEntries((r.body as Bundle).entry.map((e) => [e.resource.code.coding.at(-1).code, e.resource]));
    expect(byCode[VITAL_CODE.heartRate].valueQuantity.value).toBe(74);
    expect(byCode[VITAL_CODE.spo2].valueQuantity.value).toBe(97);
    expect(byCode[ECG_LEAD_II.code]).toBeDefined();
    const hr = await get(`/Observation/$lastn?patient=${ada}&code=${VITAL_CODE.heartRate}&max=1`);
    expect((hr.body as Bundle).entry).toHaveLength(1);
    expect((await get(`/Observation/$lastn?patient=${ada}&max=3`)).body.issue[0].code).toBe('not-supported');
  });

  it('answers errors as OperationOutcomes (application/fhir+json) with issue codes', async () => {
    const checks: [string, number, string, Record<string, string>?][] = [
      [`/Patient/pat-nobody-${uid()}`, 404, 'not-found'],
      ['/Nothing', 404, 'not-found'],
      [`/Observation?date=ge${at(0)}`, 400, 'invalid'], // no patient
      [`/Observation?patient=${ada}&date=ge2026-13-45`, 400, 'invalid'],
      [`/Observation?patient=${ada}&_sort=-code`, 400, 'invalid'], // _sort is a published enum (date, -date)
      [`/Patient?nickname=x`, 400, 'invalid'],
      ['/metadata?_format=xml', 406, 'not-supported'],
      ['/metadata', 406, 'not-supported', { accept: 'application/fhir+xml' }],
    ];
    for (const [path, status, code, headers] of checks) {
      const r = await get(path, { ...clinician, ...headers });
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.headers.get('content-type'), path).toMatch(/^application\/fhir\+json/);
      expect(r.body.resourceType, path).toBe('OperationOutcome');
      expect(r.body.issue[0], path).toMatchObject({ severity: 'error', code });
      await expectValidFhir(r.body);
    }
    expect((await get('/metadata?_format=json', { accept: FHIR_JSON })).status).toBe(200);
  });

  it("401 and 403 carry the API's WWW-Authenticate and an OperationOutcome; a patient user is refused another patient, audited", async () => {
    const anonymous = await get(`/Patient/${ada}`, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm="vitalis", resource_metadata="/);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(anonymous.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
    await expectValidFhir(anonymous.body);
    const badToken = await get(`/Observation?patient=${ada}`, { authorization: 'Bearer not-a-token' });
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);

    const noVitals = await get(`/Observation?patient=${ada}`, await authHeaders(gw.url, ['read:patients']));
    expect(noVitals.status).toBe(403);
    expect(noVitals.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="read:vitals"/);
    expect(noVitals.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'forbidden' }] });
    await expectValidFhir(noVitals.body);

    // the demo patient user (pat-0001) reading someone else: the services refuse, with the same 403
    const { token } = await userTokenFor(gw.url, 'patient', ['read:vitals', 'patient/Patient.rs'], `FHIR app ${uid()}`);
    const patientUser = { authorization: `Bearer ${token}` };
    const theirs = await get(`/Patient/${grace}`, patientUser);
    expect(theirs.status).toBe(403);
    expect(theirs.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    expect(theirs.body.resourceType).toBe('OperationOutcome');
    const theirVitals = await get(`/Observation?patient=${ada}`, patientUser);
    expect(theirVitals.status).toBe(403);
    expect((await get(`/Observation/$lastn?patient=${ada}`, patientUser)).status).toBe(403);
    const found = (await get(`/Patient?family=${family}`, patientUser)).body as Bundle;
    expect(entries(found)).toEqual([]); // a patient user finds only themselves

    // the record refusal is the patients service's (audited on the record); the vitals ones the guard's
    // (a patient user holds no read:vitals: the role does not grant it), audited as token.refused
    const { rows } = await gw.deps.pool.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM audit_events WHERE resource_type = 'Patient' AND resource_id = ANY($1) AND actor_subject = 'usr-demo-patient' ORDER BY id`,
      [[ada, grace]],
    );
    expect(rows).toEqual([{ action: 'patient.read', outcome: 'failure' }]);
    const refused = await gw.deps.pool.query<{ route: string }>(
      `SELECT detail->>'route' AS route FROM audit_events WHERE action = 'token.refused' AND actor_subject = 'usr-demo-patient' AND detail->>'route' LIKE '/fhir/R4/%' AND occurred_at > now() - interval '5 minutes'`,
    );
    expect(refused.rows.map((r) => r.route)).toEqual(expect.arrayContaining(['/fhir/R4/Observation', '/fhir/R4/Observation/$lastn']));
  });

  it('audits the FHIR reads like REST v1 (via fhir for vitals)', async () => {
    const { rows } = await gw.deps.pool.query<{ action: string; outcome: string }>(
      `SELECT DISTINCT action, outcome FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1 AND (action LIKE 'patient.%' OR detail->>'via' = 'fhir')`,
      [ada],
    );
    expect(rows).toEqual(
      expect.arrayContaining([
        { action: 'patient.read', outcome: 'success' },
        { action: 'vitals.read', outcome: 'success' },
        { action: 'vitals.read_latest', outcome: 'success' },
      ]),
    );
  });

  it("a sandbox token reads synthetic sbx- patients' Observations only; a real patient is refused (audited, reason sandbox)", async () => {
    const sbx = (await (await fetch(`${gw.url}/api/v1/sandbox`, { method: 'POST' })).json()) as { client_id: string; access_token: string };
    const headers = { authorization: `Bearer ${sbx.access_token}` };
    const to = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
    const synthetic = await get(
      `/Observation?patient=sbx-0001&code=${VITAL_CODE.heartRate}&date=ge${new Date(to - 60_000).toISOString()}&date=lt${new Date(to).toISOString()}&_count=30`,
      headers,
    );
    expect(synthetic.status).toBe(200);
    expect(entries(synthetic.body).length).toBeGreaterThan(0);
    expect(entries(synthetic.body).every((e) => e.resource.subject.reference === 'Patient/sbx-0001')).toBe(true);
    await expectValidFhir(synthetic.body, { profiles: [VITAL_SIGNS_PROFILE] });
    expect((await get(`/Observation/$lastn?patient=sbx-0001`, headers)).status).toBe(200);
    // newest first over the synthetic data too, paging without overlap
    const range = `patient=sbx-0001&code=${VITAL_CODE.heartRate}&date=ge${new Date(to - 60_000).toISOString()}&date=lt${new Date(to).toISOString()}`;
    const all = entries((await get(`/Observation?${range}&_count=100`, headers)).body).map((e) => e.resource.effectiveDateTime);
    const first = (await get(`/Observation?${range}&_sort=-date&_count=${Math.ceil(all.length / 2)}`, headers)).body as Bundle;
    const second = (await get(nextOf(first)!, headers)).body as Bundle;
    expect([...first.entry, ...entries(second)].map((e) => e.resource.effectiveDateTime)).toEqual([...all].reverse());
    const real = await get(`/Observation?patient=${ada}`, headers);
    expect(real.status).toBe(403);
    expect(real.body.issue[0].code).toBe('forbidden');
    const { rows } = await gw.deps.pool.query<{ reason: string; via: string }>(
      `SELECT detail->>'reason' AS reason, detail->>'via' AS via FROM audit_events WHERE actor_client_id = $1 AND outcome = 'failure' AND resource_id = $2`,
      [sbx.client_id, ada],
    );
    expect(rows).toEqual([{ reason: 'sandbox', via: 'fhir' }]);
  });

  it('a third-party FHIR client (fhir-kit-client) reads the statement, searches by patient, code and date, pages, and runs $lastn', async () => {
    const client = new Client({ baseUrl: fhirBase, bearerToken: clinician.authorization!.slice('Bearer '.length) });
    const cs = (await client.capabilityStatement()) as any;
    expect(cs.fhirVersion).toBe('4.0.1');
    const page1 = (await client.search({
      resourceType: 'Observation',
      searchParams: { patient: ada, code: VITAL_CODE.heartRate, date: [`ge${at(0)}`, `le${at(240)}`], _count: 3 },
    })) as any;
    expect(page1.entry.map((e: any) => e.resource.valueQuantity.value)).toEqual([70, 71, 72]);
    const page2 = (await client.nextPage({ bundle: page1 })) as any;
    expect(page2.entry.map((e: any) => e.resource.valueQuantity.value)).toEqual([73, 74]);
    await expectValidFhir([page1, page2], { profiles: [VITAL_SIGNS_PROFILE] });
    const lastn = (await client.operation({
      name: '$lastn',
      resourceType: 'Observation',
      method: 'GET',
      input: { patient: ada, code: VITAL_CODE.spo2 },
    })) as any;
    expect(lastn.entry).toHaveLength(1);
    expect(lastn.entry[0].resource.valueQuantity.value).toBe(97);
  });
});
