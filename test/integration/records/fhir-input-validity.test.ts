/**
 * Issue 33 item 7: no invalid FHIR data accepted or served. Over real HTTP against a real gateway
 * (on a database of this file's own, so the repair below touches no other test's rows):
 *  - the issue's two cases, an Identifier.system "MRN" (not an absolute URI) and a given name with
 *    U+0008, are refused on FHIR POST and PUT Patient (400 OperationOutcome naming the field) and on
 *    REST v1 POST and PUT of a patient (400 problem naming the field), and by MCP register_patient;
 *  - control characters in the other writes that end up in a served resource (an allergy's reaction
 *    over REST and FHIR, a triage complaint, an appointment's reason) are refused, never a 500;
 *  - tab, CR and LF, which FHIR `string` allows, are accepted; a valid write is 201 and valid under
 *    the HAPI validator;
 *  - a record stored before the rule (appended through the service without the route schemas) is
 *    listed by the stored-text check (resource, id, field, rule), repaired by a correcting event as
 *    the actor `migration` (audited), and then served valid under the HAPI validator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { headPosition } from '@vitalis/eventstore';
import { patientStream } from '@vitalis/records';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection } from '../../../apps/projector/src/projections/definitions';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { checkStoredText } from '../../../apps/gateway/src/fhir-text-check';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { privateDatabase, type PrivateDatabase } from '../../helpers/private-database';
import { expectValidFhir, validateFhir } from '../../helpers/fhir-validator';
import { connect, type Connected } from '../mcp/support';
import { caller, uid } from './support';

const FHIR_JSON = 'application/fhir+json';
const MRN_OID = 'urn:oid:2.16.840.1.113883.2.4.6.3';
let db: PrivateDatabase;
let gw: RunningGateway;
let auth: Record<string, string>;
let mcp: Connected;

beforeAll(async () => {
  db = await privateDatabase('fhir_input', 8);
  gw = await startGateway({ DATABASE_URL: db.url });
  auth = await authHeaders(gw.url, ['read:patients', 'write:patients', 'write:triage', 'read:appointments', 'write:appointments'], db.url);
  mcp = await connect(gw.url, (auth.authorization ?? '').replace(/^Bearer /, ''));
  await validateFhir({ resourceType: 'Patient' }); // starts (or joins) the run's validator server before the first test's clock
}, 240_000);
afterAll(async () => {
  await mcp?.close();
  await gw?.close();
  await db?.drop();
});

async function send(method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const fhir = path.startsWith('/fhir/');
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: { ...auth, 'content-type': fhir ? FHIR_JSON : 'application/json', accept: fhir ? FHIR_JSON : 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? (JSON.parse(text) as any) : null };
}

const fhirPatient = (extra: Record<string, unknown> = {}) => ({
  resourceType: 'Patient',
  name: [{ family: `Valid${uid()}`, given: ['Ada'] }],
  birthDate: '1980-02-03',
  gender: 'female',
  identifier: [{ system: MRN_OID, value: `MRN-${uid()}` }],
  ...extra,
});
const ISSUE_CASES = [
  {
    name: 'an identifier system that is not an absolute URI',
    extra: { identifier: [{ system: 'MRN', value: '12345' }] },
    field: 'identifier.0.system',
  },
  { name: 'a given name with U+0008', extra: { name: [{ family: 'Lovelace', given: ['A\u0008da'] }] }, field: 'name.0.given.0' },
];

/** The problem (REST) names the field. */
function expectProblemNaming(r: { status: number; body: any }, field: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(`body.${field}`);
}
/** The OperationOutcome (FHIR) names the field. */
function expectOutcomeNaming(r: { status: number; body: any }, field: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.resourceType).toBe('OperationOutcome');
  expect(r.body.issue[0]).toMatchObject({ severity: 'error' });
  expect(JSON.stringify(r.body.issue)).toContain(field);
}

describe('writes are checked against the FHIR primitive rules', () => {
  it.each(ISSUE_CASES)('FHIR POST and PUT Patient refuse $name (400 OperationOutcome naming the field)', async ({ extra, field }) => {
    expectOutcomeNaming(await send('POST', '/fhir/R4/Patient', fhirPatient(extra)), field);
    const created = await send('POST', '/fhir/R4/Patient', fhirPatient());
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const put = await send('PUT', `/fhir/R4/Patient/${id}`, { ...fhirPatient(extra), id }, { 'if-match': created.etag ?? '' });
    expectOutcomeNaming(put, field);
  });

  it.each(ISSUE_CASES)('REST v1 POST and PUT of a patient refuse $name (400 problem naming the field)', async ({ extra, field }) => {
    expectProblemNaming(await send('POST', '/api/v1/patients', fhirPatient(extra)), field);
    const created = await send('POST', '/api/v1/patients', fhirPatient());
    expect(created.status).toBe(201);
    const put = await send('PUT', `/api/v1/patients/${created.body.id}`, fhirPatient(extra), { 'if-match': created.etag ?? '' });
    expectProblemNaming(put, field);
  });

  it('MCP register_patient refuses an identifier system that is not an absolute URI', async () => {
    const r = (await mcp.client.callTool({
      name: 'register_patient',
      arguments: { family: `Mcp${uid()}`, identifiers: [{ system: 'MRN', value: '1' }] },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toContain('absolute URI');
  });

  it('control characters in the other writes that reach a served resource are refused, never a 500', async () => {
    const patient = (await send('POST', '/api/v1/patients', fhirPatient())).body.id as string;
    const allergy = { code: { text: 'Penicillin' }, criticality: 'high', reaction: [{ description: 'Hives\u001B' }] };
    expectProblemNaming(await send('POST', `/api/v1/patients/${patient}/allergies`, allergy), 'reaction.0.description');
    const fhirAllergy = { resourceType: 'AllergyIntolerance', patient: { reference: `Patient/${patient}` }, ...allergy };
    expectOutcomeNaming(await send('POST', '/fhir/R4/AllergyIntolerance', fhirAllergy), 'reaction.0.description');
    expectProblemNaming(await send('POST', '/api/v1/triage', { patient_id: patient, esi: 3, complaint: 'chest\u0007pain' }), 'complaint');
    const slot = await createSlot(gw.deps.pool, {
      clinicianId: 'clin-001',
      appointmentType: 'consultation',
      start: new Date(Date.now() + 86_400_000).toISOString(),
      end: new Date(Date.now() + 88_200_000).toISOString(),
    });
    const booking = { slot_id: slot.id, patient_id: patient, reason: 'follow\u0002up' };
    const refused = await send('POST', '/api/v1/appointments', booking);
    expect(refused.status).toBe(400);
    const ok = await send('POST', '/api/v1/appointments', { ...booking, reason: 'follow-up\nof blood pressure' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('tab, CR and LF are accepted where FHIR string allows them; a valid write is 201 and valid under HAPI', async () => {
    const body = fhirPatient({ name: [{ family: 'Lovelace', given: ['Ada\tAugusta', 'Byron\r\nKing'] }] });
    const created = await send('POST', '/fhir/R4/Patient', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name[0].given).toEqual(['Ada\tAugusta', 'Byron\r\nKing']);
    const rest = await send('POST', '/api/v1/patients', fhirPatient());
    expect(rest.status).toBe(201);
    await expectValidFhir([created.body, body, rest.body]);
    const patient = rest.body.id as string;
    const triage = await send('POST', '/api/v1/triage', { patient_id: patient, esi: 3, complaint: 'chest pain\nsince 2 h\tat rest' });
    expect(triage.status, JSON.stringify(triage.body)).toBe(201);
  });
});

describe('a record stored before the rule', () => {
  it('is listed by the stored-text check, repaired by a correcting event as the actor migration, then served valid', async () => {
    const pool = gw.deps.pool;
    // how such records got in: the service appends what the surface hands it, and no surface checked these
    const bad = await registerPatient(pool, caller({ scopes: ['write:patients'] }), {
      family: `Bad\u0008${uid()}`,
      given: ['Ada', '\u0007'],
      identifiers: [{ system: 'MRN', value: `M-${uid()}` }],
      telecom: [{ system: 'phone', value: '+44\u0001 20 7946 0000' }],
    });
    const catchUp = async () => void (await catchUpTo(pool, patientsProjection, await headPosition(pool)));
    await catchUp();

    const report = await checkStoredText(pool);
    const mine = report.findings.filter((f) => f.id === bad.id);
    expect(mine.map((f) => [f.resource, f.field, f.rule])).toEqual([
      ['Patient', 'family', 'string'],
      ['Patient', 'given.1', 'string'],
      ['Patient', 'identifiers.0.system', 'absoluteUri'],
      ['Patient', 'telecom.0.value', 'string'],
    ]);
    expect(report.scanned.rm_patients).toBeGreaterThan(0);

    // before the repair, the served resource already carries no control character (the last line)
    const before = await fetch(`${gw.url}/fhir/R4/Patient/${bad.id}`, { headers: { ...auth, accept: FHIR_JSON } });
    const beforeText = await before.text();
    expect(beforeText).not.toMatch(/\\u000[0-8]|\\b|\\u001/);
    expect((JSON.parse(beforeText) as { name: { given: string[] }[] }).name[0]?.given).toEqual(['Ada']); // the blank given name left out

    const repaired = await checkStoredText(pool, { repair: true, systems: { MRN: MRN_OID }, afterRepair: catchUp });
    expect(repaired.repaired).toContain(bad.id);
    expect(repaired.findings.filter((f) => f.id === bad.id)).toEqual([]);

    const served = await fetch(`${gw.url}/fhir/R4/Patient/${bad.id}`, { headers: { ...auth, accept: FHIR_JSON } });
    expect(served.status).toBe(200);
    const resource = (await served.json()) as any;
    expect(resource.identifier[0].system).toBe(MRN_OID);
    expect(resource.name[0].given).toEqual(['Ada']);
    expect(resource.meta.versionId).toBe('2');
    await expectValidFhir(resource);

    const { rows: events } = await pool.query<{ type: string; actor: string }>(
      `SELECT type, metadata->>'actor' AS actor FROM events WHERE stream_id = $1 ORDER BY stream_version`,
      [patientStream(bad.id)],
    );
    expect(events.at(-1)?.actor).toBe('migration');
    const { rows: audit } = await pool.query<{ action: string; outcome: string; actor: string }>(
      `SELECT action, outcome, actor_subject AS actor FROM audit_events WHERE resource_id = $1 AND action = 'patient.update' ORDER BY id`,
      [bad.id],
    );
    expect(audit).toEqual([{ action: 'patient.update', outcome: 'success', actor: 'migration' }]);
  });
});
