/**
 * Issue 33 item 8: the Bulk Data Access IG 3.0.0 export over real HTTP: a POST kick-off with a
 * FHIR Parameters body; `_type` with Patient, Observation and AllergyIntolerance (each file's lines
 * valid FHIR R4 by the HAPI validator, Observations against the vital-signs profile, counts equal
 * to what was written); `_elements` (the listed and mandatory elements only, tagged SUBSETTED);
 * `organizeOutputBy=Patient` (manifest `outputOrganizedBy`, untyped outputs, blocks of a header
 * Parameters, the Patient, then its resources); `allowPartialManifests` (a worker stopped part-way:
 * the status answers 202 with the committed files, then the pages linked by `next` list every file
 * once); `includeAssociatedData` (400, or with handling=lenient an OperationOutcome in `error`); a
 * patient user cannot export someone else; malformed Parameters are 400 OperationOutcomes. The
 * worker runs in this process (runNextExport, limited to this file's jobs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@vitalis/db';
import { exportStorageDir, folderStorage, runNextExport, type ExportStorage } from '@vitalis/export';
import { VITAL_CODE, type Scope } from '@vitalis/schemas';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { authHeaders } from '../../helpers/auth';
import { stoppingAfter } from '../../helpers/export-storage';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';
import { caller, uid } from '../records/support';
import { userTokenFor } from '../mcp/support';

let gw: RunningGateway;
let owner: Pool;
let fhir: string;
let analyst: Record<string, string>;
const storage = folderStorage(exportStorageDir({ DATABASE_URL: testEnv.APP_DATABASE_URL }));
const jobs: string[] = [];
const run = uid();
const ward = `ward-v3-${run}`;
const unregistered = `pat-v3${run}u`;
let ada: string;
let grace: string;
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7_200_000;
let seq = 0;

/** Rows straight into the append log (what the ingest writes). */
async function seed(patient: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => [
    patient,
    `dev-v3-${run}-${patient}`,
    ++seq,
    i % 2 === 0 ? VITAL_CODE.heartRate : VITAL_CODE.spo2,
    new Date(T0 + seq * 1000).toISOString(),
    i % 2 === 0 ? 60 + (i % 40) : 95 + (i % 5),
    i % 2 === 0 ? '/min' : '%',
  ]);
  await owner.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT p, d, s, c, e::timestamptz, v, u, 0, s, vitals_series_assign(p, c) FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::text[]) AS t(p, d, s, c, e, v, u)`,
    [0, 1, 2, 3, 4, 5, 6].map((k) => rows.map((r) => r[k])),
  );
}

const observationCount = async (patients: string[]) =>
  (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = ANY($1)', [patients])).rows[0]!
    .n;

/** A kick-off, GET (a query string) or POST (a Parameters body); its job is this file's. */
async function kickOff(path: string, opts: { headers?: Record<string, string>; prefer?: string; parameters?: unknown[] } = {}) {
  const res = await fetch(`${fhir}${path}`, {
    method: opts.parameters ? 'POST' : 'GET',
    headers: {
      ...(opts.headers ?? analyst),
      accept: 'application/fhir+json',
      prefer: opts.prefer ?? 'respond-async',
      ...(opts.parameters ? { 'content-type': 'application/fhir+json' } : {}),
    },
    ...(opts.parameters ? { body: JSON.stringify({ resourceType: 'Parameters', parameter: opts.parameters }) } : {}),
  });
  const body = (await res.json()) as any;
  const location = res.headers.get('content-location');
  if (res.status === 202) jobs.push(location!.split('/').pop()!);
  return { status: res.status, location, body };
}

/** Runs this file's queued exports in this process. */
async function work(options: { maxFileBytes?: number; storage?: ExportStorage; signal?: AbortSignal } = {}) {
  while (
    await runNextExport(gw.deps.pool, {
      storage: options.storage ?? storage,
      maxFileBytes: options.maxFileBytes ?? 64_000,
      leaseMs: 10_000,
      expiresMs: 3_600_000,
      only: jobs,
      ...(options.signal ? { signal: options.signal } : {}),
    })
  );
}

interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  outputOrganizedBy?: string;
  output: { type?: string; url: string; count: number }[];
  error: { type: string; url: string }[];
  link?: { relation: string; url: string }[];
}

async function manifestOf(url: string, status = 200, headers = analyst): Promise<Manifest> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as Manifest;
}

async function linesOf(url: string, headers = analyst): Promise<any[]> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/fhir+ndjson');
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Every line of every output file, by the file's type (or `file` when organized by patient); each file's count checked. */
async function outputOf(manifest: Manifest, headers = analyst): Promise<Record<string, any[]>> {
  const out: Record<string, any[]> = {};
  for (const o of manifest.output) {
    const lines = await linesOf(o.url, headers);
    expect(lines).toHaveLength(o.count);
    (out[o.type ?? 'file'] ??= []).push(...lines);
  }
  return out;
}

/** Each resource valid FHIR R4 (HAPI), Observations against the vital-signs profile unless subsetted. */
async function expectValid(resources: any[], subsetted = false) {
  const observations = resources.filter((r) => r.resourceType === 'Observation');
  await expectValidFhir(resources.filter((r) => r.resourceType !== 'Observation'));
  await expectValidFhir(observations, subsetted ? {} : { profiles: [VITAL_SIGNS_PROFILE] });
}

beforeAll(async () => {
  gw = await startGateway({ EXPORT_MAX_ACTIVE_PER_CLIENT: '20' });
  fhir = `${gw.url}/fhir/R4`;
  owner = createPool({ url: testEnv.DATABASE_URL, max: 3 });
  analyst = await authHeaders(gw.url, ['system/Observation.rs', 'system/Patient.rs', 'system/AllergyIntolerance.rs']);
  const writer = caller({ scopes: ['write:patients'] });
  const demo = (given: string) => ({
    family: `Bulkv${run}`,
    given: [given],
    gender: 'female' as const,
    birthDate: '1970-05-06',
    identifiers: [{ system: 'urn:vitalis:mrn', value: `MRN-${given}-${run}` }],
    telecom: [],
  });
  ada = (await registerPatient(gw.deps.pool, writer, demo('Ada'))).id;
  grace = (await registerPatient(gw.deps.pool, writer, demo('Grace'))).id;
  const allergyWriter = await authHeaders(gw.url, ['write:patients', 'read:patients']);
  for (const [patient, text] of [
    [ada, 'Penicillin allergy'],
    [ada, 'Peanut allergy'],
    [grace, 'Latex allergy'],
  ] as const) {
    const res = await fetch(`${fhir}/AllergyIntolerance`, {
      method: 'POST',
      headers: { ...allergyWriter, 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
      body: JSON.stringify({ resourceType: 'AllergyIntolerance', patient: { reference: `Patient/${patient}` }, code: { text } }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  }
  await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [
    ward,
    `Ward v3 ${run}`,
    [ada, grace, unregistered],
  ]);
  await seed(ada, 30);
  await seed(grace, 20);
  await seed(unregistered, 10);
});

afterAll(async () => {
  for (const id of jobs) await storage.removeAll(id);
  await owner?.query('DELETE FROM export_jobs WHERE id = ANY($1::uuid[])', [jobs]);
  await owner?.query('DELETE FROM export_groups WHERE id = $1', [ward]);
  await owner?.end();
  await gw?.close();
});

describe('Bulk Data 3.0: POST kick-off and _type', () => {
  it('POST with a Parameters body: Patient, Observation and AllergyIntolerance files, every line valid FHIR, counts as written', async () => {
    const k = await kickOff(`/Group/${ward}/$export`, {
      parameters: [
        { name: '_type', valueString: 'Patient,Observation' },
        { name: '_type', valueString: 'AllergyIntolerance' },
        { name: '_outputFormat', valueString: 'application/fhir+ndjson' },
      ],
    });
    expect(k.status).toBe(202);
    expect(k.location).toMatch(/\/\$export-status\/[0-9a-f-]{36}$/);
    await expectValidFhir(k.body);
    await work();
    const manifest = await manifestOf(k.location!);
    expect(manifest.request).toBe(`${fhir}/Group/${ward}/$export`);
    expect(new Set(manifest.output.map((o) => o.type))).toEqual(new Set(['Patient', 'AllergyIntolerance', 'Observation']));
    const out = await outputOf(manifest);
    for (const [type, lines] of Object.entries(out)) expect(lines.every((r) => r.resourceType === type)).toBe(true);
    expect(out.Patient!.map((p) => p.id).sort()).toEqual([ada, grace].sort());
    expect(out.AllergyIntolerance!.map((a) => `${a.patient.reference} ${a.code.text}`).sort()).toEqual(
      [`Patient/${ada} Peanut allergy`, `Patient/${ada} Penicillin allergy`, `Patient/${grace} Latex allergy`].sort(),
    );
    expect(out.Observation).toHaveLength(await observationCount([ada, grace, unregistered]));
    await expectValid([...out.Patient!, ...out.AllergyIntolerance!, ...out.Observation!]);
    // the member that is not a registered patient: noted in the error file (a valid OperationOutcome)
    expect(manifest.error).toHaveLength(1);
    const [outcome] = await linesOf(manifest.error[0]!.url);
    await expectValidFhir(outcome);
    expect(JSON.stringify(outcome.issue)).toContain(`Patient/${unregistered}`);
  }, 180_000); // the HAPI validator's first calls are slow on a loaded machine

  it('without _type: every type the token may read (each line valid FHIR); a type it may not read is a 403, an unserved one a 400', async () => {
    const vitalsOnly = await authHeaders(gw.url, ['system/Observation.rs']);
    const k = await kickOff(`/Group/${ward}/$export`, { headers: vitalsOnly });
    expect(k.status).toBe(202);
    await work();
    const manifest = await manifestOf(k.location!, 200, vitalsOnly);
    const types = new Set(manifest.output.map((o) => o.type));
    expect(types.has('Observation')).toBe(true); // and Device, which read:vitals reads too
    expect(types.has('Patient') || types.has('AllergyIntolerance')).toBe(false);
    await expectValid(Object.values(await outputOf(manifest, vitalsOnly)).flat());
    const refused = await kickOff(`/Group/${ward}/$export?_type=Patient`, { headers: vitalsOnly });
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    const unserved = await kickOff(`/Group/${ward}/$export?_type=Medication`);
    expect(unserved.status).toBe(400);
    expect(unserved.body.resourceType).toBe('OperationOutcome');
  }, 180_000);
});

describe('Bulk Data 3.0: _elements and organizeOutputBy', () => {
  it('_elements: the listed elements and the mandatory ones, tagged SUBSETTED', async () => {
    const k = await kickOff(`/Group/${ward}/$export?_type=Patient,Observation&_elements=Patient.birthDate,Observation.valueQuantity`);
    expect(k.status).toBe(202);
    await work();
    const out = await outputOf(await manifestOf(k.location!));
    for (const p of out.Patient!) {
      expect(Object.keys(p).sort()).toEqual(['birthDate', 'id', 'meta', 'resourceType']);
      expect(p.meta.tag).toContainEqual(expect.objectContaining({ code: 'SUBSETTED' }));
    }
    for (const o of out.Observation!) {
      expect(Object.keys(o).filter((key) => !['resourceType', 'id', 'meta', 'status', 'code', 'valueQuantity'].includes(key))).toEqual([]);
      expect(o.valueQuantity).toBeDefined();
      expect(o.meta.tag).toContainEqual(expect.objectContaining({ code: 'SUBSETTED' }));
    }
    await expectValid([...out.Patient!, ...out.Observation!], true);
    expect((await kickOff(`/Group/${ward}/$export?_elements=name.given`)).status).toBe(400);
  });

  it('organizeOutputBy=Patient: outputOrganizedBy, untyped outputs, blocks of a header, the Patient, then its resources', async () => {
    const k = await kickOff(`/Group/${ward}/$export`, {
      parameters: [
        { name: '_type', valueString: 'Patient,AllergyIntolerance,Observation' },
        { name: 'organizeOutputBy', valueString: 'Patient' },
      ],
    });
    expect(k.status).toBe(202);
    await work({ maxFileBytes: 4_096 });
    const manifest = await manifestOf(k.location!);
    expect(manifest.outputOrganizedBy).toBe('Patient');
    expect(manifest.output.length).toBeGreaterThan(1);
    expect(manifest.output.every((o) => o.type === undefined)).toBe(true);
    const files = [];
    for (const o of manifest.output) files.push(await linesOf(o.url));
    const blocks: { patient: string; lines: any[] }[] = [];
    for (const lines of files) {
      // each file starts with a header: no block is split across files
      expect(lines[0].resourceType).toBe('Parameters');
      for (const line of lines) {
        if (line.resourceType === 'Parameters') blocks.push({ patient: line.parameter[0].valueReference.reference, lines: [] });
        else blocks[blocks.length - 1]!.lines.push(line);
      }
    }
    expect(blocks.map((b) => b.patient)).toEqual([ada, grace, unregistered].sort().map((p) => `Patient/${p}`));
    for (const { patient, lines } of blocks) {
      const registered = patient !== `Patient/${unregistered}`;
      if (registered) expect(lines[0]).toMatchObject({ resourceType: 'Patient', id: patient.slice('Patient/'.length) });
      for (const r of lines.slice(registered ? 1 : 0)) expect(r.subject?.reference ?? r.patient?.reference).toBe(patient);
    }
    const all = blocks.flatMap((b) => b.lines);
    expect(all.filter((r) => r.resourceType === 'Observation')).toHaveLength(await observationCount([ada, grace, unregistered]));
    expect(all.filter((r) => r.resourceType === 'AllergyIntolerance')).toHaveLength(3);
    await expectValid(all);
    await expectValidFhir(files.flat().filter((r) => r.resourceType === 'Parameters'));
  });
});

describe('Bulk Data 3.0: allowPartialManifests and includeAssociatedData', () => {
  it('a stopped worker leaves committed files: 202 with a manifest page of them; then the pages linked by next list every file once', async () => {
    const big = `pat-v3${run}big`;
    await seed(big, 5_000);
    await owner.query('UPDATE export_groups SET members = members || $2 WHERE id = $1', [ward, [big]]);
    const k = await kickOff(`/Group/${ward}/$export?_type=Observation&allowPartialManifests=true`);
    expect(k.status).toBe(202);
    // the worker stops (as at shutdown) once it has committed 12 files: the job goes back to the queue with them
    const stop = new AbortController();
    const stopping = stoppingAfter(storage, 12, stop);
    await work({ maxFileBytes: 16_384, storage: stopping, signal: stop.signal });
    const { rows } = await owner.query<{ status: string }>('SELECT status FROM export_jobs WHERE id = $1', [jobs[jobs.length - 1]]);
    expect(rows[0]!.status).toBe('queued');
    const partial = await manifestOf(k.location!, 202);
    expect(partial.output).toHaveLength(10); // a page of MANIFEST_PAGE_FILES
    expect(partial.link?.[0]).toMatchObject({ relation: 'next', url: `${k.location}?page=2` }); // 12 or more are committed
    const first = await linesOf(partial.output[0]!.url);
    expect(first).toHaveLength(partial.output[0]!.count);
    await expectValid(first);
    await work({ maxFileBytes: 16_384 });
    const seen: string[] = [];
    let page: Manifest | undefined = await manifestOf(k.location!);
    expect(page.output.map((o) => o.url)).toEqual(partial.output.map((o) => o.url)); // the page answered before is unchanged
    let total = 0;
    for (;;) {
      seen.push(...page.output.map((o) => o.url));
      total += page.output.reduce((n, o) => n + o.count, 0);
      const next: string | undefined = page.link?.find((l) => l.relation === 'next')?.url;
      if (!next) break;
      page = await manifestOf(next);
    }
    expect(seen.length).toBeGreaterThan(20);
    expect(new Set(seen).size).toBe(seen.length);
    expect(total).toBe(await observationCount([ada, grace, unregistered, big]));
  });

  it('includeAssociatedData: 400 OperationOutcome; with handling=lenient the export runs and the error file says why', async () => {
    const asked = [{ name: 'includeAssociatedData', valueCode: 'LatestProvenanceResources' }];
    const strict = await kickOff(`/Group/${ward}/$export`, { parameters: asked });
    expect(strict.status).toBe(400);
    expect(strict.body.resourceType).toBe('OperationOutcome');
    const k = await kickOff(`/Group/${ward}/$export`, {
      prefer: 'respond-async, handling=lenient',
      parameters: [{ name: '_type', valueString: 'Patient' }, ...asked],
    });
    expect(k.status).toBe(202);
    await work();
    const manifest = await manifestOf(k.location!);
    const [outcome] = await linesOf(manifest.error[0]!.url);
    await expectValidFhir(outcome);
    expect(JSON.stringify(outcome.issue)).toContain('includeAssociatedData');
    expect((await outputOf(manifest)).Patient).toHaveLength(2);
  });
});

describe('Bulk Data 3.0: who and what is refused', () => {
  it('a patient user (patient/*.read) exports its own data only: naming another patient is a 403', async () => {
    const { token } = await userTokenFor(gw.url, 'patient', ['patient/*.read' as Scope], `Export v3 app ${uid()}`);
    const me = { authorization: `Bearer ${token}` };
    const other = await kickOff('/Patient/$export', {
      headers: me,
      parameters: [{ name: 'patient', valueReference: { reference: `Patient/${ada}` } }],
    });
    expect(other.status).toBe(403);
    expect(other.body.resourceType).toBe('OperationOutcome');
    const own = await kickOff('/Patient/$export?_type=Observation,AllergyIntolerance', { headers: me });
    expect(own.status).toBe(202);
    await work();
    const out = await outputOf(await manifestOf(own.location!, 200, me), me);
    const subjects = new Set(Object.values(out).flatMap((lines) => lines.map((r) => r.subject?.reference ?? r.patient?.reference)));
    expect([...subjects].every((s) => s === 'Patient/pat-0001')).toBe(true);
    expect(subjects.has(`Patient/${ada}`)).toBe(false);
    const group = await kickOff(`/Group/${ward}/$export?_type=Observation`, { headers: me });
    await work();
    expect((await manifestOf(group.location!, 200, me)).output).toEqual([]); // not a member
  });

  it('malformed Parameters are 400 OperationOutcomes', async () => {
    const cases: [string, unknown][] = [
      ['/$export', { resourceType: 'Bundle', type: 'collection' }],
      ['/$export', { resourceType: 'Parameters', parameter: [{ name: 'nonsense', valueString: 'x' }] }],
      ['/$export', { resourceType: 'Parameters', parameter: [{ name: '_since', valueString: '2026-01-01T00:00:00Z' }] }],
      ['/$export', { resourceType: 'Parameters', parameter: [{ name: '_since', valueInstant: 'yesterday' }] }],
      ['/$export', { resourceType: 'Parameters', parameter: [{ name: 'patient', valueReference: { reference: `Patient/${ada}` } }] }],
      [
        `/Group/${ward}/$export`,
        { resourceType: 'Parameters', parameter: [{ name: 'patient', valueReference: { reference: 'Patient/not-a-member' } }] },
      ],
      ['/Patient/$export', { resourceType: 'Parameters', parameter: [{ name: 'allowPartialManifests', valueString: 'yes' }] }],
      ['/Patient/$export', { resourceType: 'Parameters', parameter: [{ name: 'includeAssociatedData', valueCode: 'Everything' }] }],
      [
        '/Patient/$export',
        {
          resourceType: 'Parameters',
          parameter: [
            { name: 'organizeOutputBy', valueString: 'Patient' },
            { name: 'organizeOutputBy', valueString: 'Patient' },
          ],
        },
      ],
    ];
    for (const [path, body] of cases) {
      const res = await fetch(`${fhir}${path}`, {
        method: 'POST',
        headers: { ...analyst, prefer: 'respond-async', 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as any).resourceType).toBe('OperationOutcome');
    }
  });

  it('the CapabilityStatement declares the system and patient kick-offs by their OperationDefinitions', async () => {
    const cs = (await (await fetch(`${fhir}/metadata`)).json()) as any;
    const rest = cs.rest[0];
    expect(rest.operation).toContainEqual(
      expect.objectContaining({ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' }),
    );
    const patient = rest.resource.find((r: any) => r.type === 'Patient');
    expect(patient.operation).toContainEqual(
      expect.objectContaining({ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export' }),
    );
  });
});
