/**
 * Issue 33 items 5 and 6 over real HTTP.
 *  - Every signed-in user's `fhirUser` resolves: each demo role signs in through the real login and
 *    consent pages (authorization code + PKCE), its ID token's `fhirUser` (and userinfo's) is read
 *    with the user's own access token: 200, the resource it names, valid FHIR R4 (HAPI). A staff
 *    user reads its own Practitioner with the `fhirUser` scope alone, not a colleague's; the staff
 *    directory (read:patients) finds staff; a patient sees no staff member.
 *  - Group read and search (fhir-kit-client): the CapabilityStatement lists Group (read,
 *    search-type, `_id`, `name`, the group-export operation); a Group's members are the patients
 *    its `$export` covers; `_id` takes a comma list (OR); audited; a patient user's token never
 *    lists other patients (a shared ward: 403; a search: only a Group of itself alone).
 */
import { Client } from 'fhir-kit-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@vitalis/db';
import type { Scope } from '@vitalis/schemas';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { authHeaders } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { expectValidFhir, fhirValidatorUrl } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { DEMO_PASSWORDS, registerCodeClient, userTokens } from '../auth/support';
import { uid } from '../records/support';

let gw: RunningGateway;
let owner: Pool;
let fhir: string;
const run = uid();
const ward = `ward-${run}`;
const solo = `solo-${run}`;
const wardMembers = ['pat-0001', 'pat-0002'];

beforeAll(async () => {
  gw = await startGateway();
  fhir = `${gw.url}/fhir/R4`;
  await seedRecords(gw.deps.pool, new Date()); // pat-0001 (the demo patient user's record), pat-0002 (idempotent)
  owner = createPool({ url: testEnv.DATABASE_URL, max: 2 });
  await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3), ($4, $5, $6)', [
    ward,
    `Ward ${run} (cardiology)`,
    wardMembers,
    solo,
    `Solo ${run}`,
    ['pat-0001'],
  ]);
  await fhirValidatorUrl(); // the HAPI validator starts once per run (it takes a while on first use)
}, 240_000);
afterAll(async () => {
  await owner?.query('DELETE FROM export_jobs WHERE request LIKE $1', [`%/Group/${ward}/%`]);
  await owner?.query('DELETE FROM export_groups WHERE id = ANY($1)', [[ward, solo]]);
  await owner?.end();
  await gw?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
async function getFhir(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${fhir}${path}`, { headers });
  return { status: res.status, body: await res.json() };
}
const idsOf = (bundle: any): string[] => (bundle.entry ?? []).map((e: { resource: { id: string } }) => e.resource.id);

type DemoUser = keyof typeof DEMO_PASSWORDS;
/** A demo user's tokens and ID token claims, signed in through the real pages with `scope`. */
async function signIn(user: DemoUser, scope: string) {
  const client = await registerCodeClient(gw.url, scope.split(' ') as Scope[]);
  const { tokens } = await userTokens(gw.url, client, user, DEMO_PASSWORDS[user], scope);
  const idToken = (tokens as unknown as { id_token: string }).id_token;
  const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${gw.url}/.well-known/jwks.json`)), { issuer: gw.url });
  return { token: tokens.access_token, granted: tokens.scope, fhirUser: payload.fhirUser as string };
}

describe('every signed-in user’s fhirUser resolves (issue 33 item 5)', () => {
  const expected: Record<DemoUser, { fhirUser: string; scope: string }> = {
    doctor: { fhirUser: 'Practitioner/usr-demo-doctor', scope: 'openid fhirUser' },
    nurse: { fhirUser: 'Practitioner/usr-demo-nurse', scope: 'openid fhirUser' },
    reception: { fhirUser: 'Practitioner/usr-demo-reception', scope: 'openid fhirUser' },
    admin: { fhirUser: 'Practitioner/usr-demo-admin', scope: 'openid fhirUser' },
    // a patient reads its own record with the SMART patient/ scope it consents to
    patient: { fhirUser: 'Patient/pat-0001', scope: 'openid fhirUser launch/patient patient/Patient.rs' },
  };

  it.each(Object.keys(expected) as DemoUser[])('%s: the ID token and userinfo fhirUser reads back with the user’s token', async (user) => {
    const { token, granted, fhirUser } = await signIn(user, expected[user].scope);
    expect(granted.split(' ').sort()).toEqual(expected[user].scope.split(' ').sort());
    expect(fhirUser).toBe(expected[user].fhirUser);
    const info = (await (await fetch(`${gw.url}/api/auth/userinfo`, { headers: bearer(token) })).json()) as { fhirUser?: string };
    expect(info.fhirUser).toBe(fhirUser);
    const read = await getFhir(`/${fhirUser}`, bearer(token));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const [type, id] = fhirUser.split('/');
    expect(read.body).toMatchObject({ resourceType: type, id });
    await expectValidFhir(read.body);
    // a third-party FHIR client resolves it the same way
    const client = new Client({ baseUrl: fhir, bearerToken: token });
    expect(await client.read({ resourceType: type!, id: id! })).toMatchObject({ resourceType: type, id });
  });

  it('fhirUser alone reads one’s own Practitioner, not a colleague’s and no staff list; the staff directory finds staff', async () => {
    const nurse = await signIn('nurse', 'openid fhirUser');
    expect((await getFhir('/Practitioner/usr-demo-doctor', bearer(nurse.token))).status).toBe(403);
    const own = await getFhir('/Practitioner?name=demo', bearer(nurse.token));
    expect(own.status).toBe(200);
    expect(idsOf(own.body)).toEqual(['usr-demo-nurse']);

    const directory = await signIn('nurse', 'openid fhirUser read:patients');
    const doctor = await getFhir('/Practitioner/usr-demo-doctor', bearer(directory.token));
    expect(doctor.status).toBe(200);
    expect(doctor.body).toMatchObject({
      resourceType: 'Practitioner',
      identifier: [{ system: 'urn:vitalis:subject', value: 'usr-demo-doctor' }],
      name: [{ text: 'Dr. Demo Doctor' }],
    });
    const staff = await getFhir('/Practitioner?name=demo&_count=100', bearer(directory.token));
    expect(idsOf(staff.body)).toEqual(
      expect.arrayContaining(['usr-demo-admin', 'usr-demo-doctor', 'usr-demo-nurse', 'usr-demo-reception']),
    );
    expect(idsOf(staff.body)).not.toContain('usr-demo-patient'); // a patient user is a Patient, not a Practitioner
    const two = await getFhir('/Practitioner?_id=usr-demo-doctor,clin-002', bearer(directory.token));
    expect(idsOf(two.body)).toEqual(['clin-002', 'usr-demo-doctor']);
    await expectValidFhir([doctor.body, staff.body, two.body]);
  });

  it('a patient sees the catalog’s clinicians but no staff member', async () => {
    const patient = await signIn('patient', 'openid fhirUser launch/patient patient/Patient.rs');
    expect((await getFhir('/Practitioner/usr-demo-nurse', bearer(patient.token))).status).toBe(403);
    const all = await getFhir('/Practitioner?_count=100', bearer(patient.token));
    expect(all.status).toBe(200);
    expect(idsOf(all.body).length).toBeGreaterThan(0);
    expect(idsOf(all.body).every((id) => id.startsWith('clin-'))).toBe(true);
    expect((await getFhir('/Practitioner/clin-001', bearer(patient.token))).status).toBe(200);
    expect((await fetch(`${fhir}/Practitioner/clin-001`)).status).toBe(401); // the FHIR API wants a token
  });
});

describe('Group read and search, declared with its export (issue 33 item 6)', () => {
  it('the CapabilityStatement lists Group: read, search-type, _id and name, and the group-export operation', async () => {
    const cs = (await getFhir('/metadata', {})).body;
    await expectValidFhir(cs);
    const group = cs.rest[0].resource.find((r: { type: string }) => r.type === 'Group');
    expect(group).toBeDefined();
    expect(group.interaction.map((i: { code: string }) => i.code)).toEqual(['read', 'search-type']);
    expect(group.searchParam.map((p: { name: string }) => p.name)).toEqual(['_id', 'name', '_count']);
    expect(group.operation).toEqual([
      expect.objectContaining({ name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export' }),
    ]);
  });

  it('a clinician reads and searches Groups with fhir-kit-client; the members are what $export covers; audited', async () => {
    const headers = await authHeaders(gw.url, ['read:patients', 'read:vitals']);
    const client = new Client({ baseUrl: fhir, bearerToken: headers.authorization.slice('Bearer '.length) });
    const group = (await client.read({ resourceType: 'Group', id: ward })) as any;
    expect(group).toEqual({
      resourceType: 'Group',
      id: ward,
      type: 'person',
      actual: true,
      name: `Ward ${run} (cardiology)`,
      quantity: 2,
      member: wardMembers.map((id) => ({ entity: { reference: `Patient/${id}` } })),
    });
    const byIds = (await client.search({ resourceType: 'Group', searchParams: { _id: `${ward},${solo},nothing-${run}` } })) as any;
    expect(idsOf(byIds).sort()).toEqual([solo, ward].sort());
    const byName = (await client.search({ resourceType: 'Group', searchParams: { name: `${run} (CARDIO` } })) as any;
    expect(idsOf(byName)).toEqual([ward]);
    const page = (await client.search({ resourceType: 'Group', searchParams: { _id: `${ward},${solo}`, _count: 1 } })) as any;
    expect(idsOf(page)).toHaveLength(1);
    const next = (await client.nextPage({ bundle: page })) as any;
    expect(idsOf(next)).toHaveLength(1);
    expect([...idsOf(page), ...idsOf(next)].sort()).toEqual([solo, ward].sort());
    await expectValidFhir([group, byIds, byName, page, next]);
    expect((await getFhir(`/Group/nothing-${run}`, headers)).status).toBe(404);

    // the export of this Group covers exactly its members
    const kick = await fetch(`${fhir}/Group/${ward}/$export`, { headers: { ...headers, prefer: 'respond-async' } });
    expect(kick.status).toBe(202);
    const job = kick.headers.get('content-location')!.split('/').pop()!;
    const { rows } = await owner.query<{ patients: string[] }>('SELECT patients FROM export_jobs WHERE id = $1', [job]);
    expect([...rows[0]!.patients].sort()).toEqual(group.member.map((m: any) => m.entity.reference.replace('Patient/', '')).sort());

    const audits = await owner.query<{ action: string; outcome: string }>(
      `SELECT action, outcome FROM audit_events WHERE resource_type = 'Group' AND resource_id = $1 ORDER BY id`,
      [`nothing-${run}`],
    );
    expect(audits.rows).toEqual([{ action: 'group.read', outcome: 'failure' }]);
    const reads = await owner.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'group.read' AND outcome = 'success' AND resource_id = $1`,
      [ward],
    );
    expect(reads.rows[0]!.n).toBe(1);
  });

  it('a patient user’s token never lists other patients: a shared ward is refused, a search finds only a Group of itself alone', async () => {
    const patient = await signIn('patient', 'openid patient/Patient.rs');
    const shared = await getFhir(`/Group/${ward}`, bearer(patient.token));
    expect(shared.status).toBe(403);
    expect(shared.body.resourceType).toBe('OperationOutcome');
    expect(JSON.stringify(shared.body)).not.toContain('pat-0002');
    const found = await getFhir('/Group?_count=100', bearer(patient.token));
    expect(found.status).toBe(200);
    expect(idsOf(found.body)).toContain(solo);
    expect(idsOf(found.body)).not.toContain(ward);
    for (const e of found.body.entry ?? []) expect(e.resource.member).toEqual([{ entity: { reference: 'Patient/pat-0001' } }]);
    expect((await getFhir(`/Group/${solo}`, bearer(patient.token))).status).toBe(200);
    await expectValidFhir([shared.body, found.body]);
    // without a patient read scope: nothing at all
    const bare = await signIn('patient', 'openid fhirUser');
    expect((await getFhir('/Group', bearer(bare.token))).status).toBe(403);
    const refused = await owner.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'group.read' AND outcome = 'failure' AND resource_id = $1`,
      [ward],
    );
    expect(refused.rows[0]!.n).toBe(1);
  });
});
