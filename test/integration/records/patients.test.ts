/**
 * Patients REST v1 over real HTTP: register/read/update with ETag and If-Match (concurrent
 * writers: one wins, the rest 412), allergies, history, search through the projection, access
 * rules by scope, and the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { headPosition } from '@vitalis/eventstore';
import { patientsProjection } from '../../../apps/projector/src/projections/definitions';
import { getPatient, patientHistory, registerPatient } from '../../../apps/gateway/src/patients/service';
import { auditRows, caller, patientBody, uid } from './support';

let gw: RunningGateway;
let admin: Record<string, string>;
let reception: Record<string, string>;
let nurse: Record<string, string>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  gw = await startGateway();
  admin = await authHeaders(gw.url, ['read:patients', 'write:patients']);
  reception = await authHeaders(gw.url, ['write:patients', 'read:appointments', 'write:appointments']);
  nurse = await authHeaders(gw.url, ['read:patients', 'read:vitals', 'read:appointments']);
});
afterAll(() => gw.close());

const api = (path: string, init: RequestInit = {}) => fetch(`${gw.url}/api/v1${path}`, init);
async function register(family: string, headers = admin) {
  const res = await api('/patients', { method: 'POST', headers: { ...headers, ...json }, body: JSON.stringify(patientBody(family)) });
  expect(res.status).toBe(201);
  return { id: ((await res.json()) as { id: string }).id, etag: res.headers.get('etag')! };
}

describe('patients', () => {
  it('registers (201, Location, ETag, pat- id) and reads the FHIR Patient back immediately', async () => {
    const family = `Lovelace${uid()}`;
    const res = await api('/patients', { method: 'POST', headers: { ...admin, ...json }, body: JSON.stringify(patientBody(family)) });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; meta: { versionId: string }; name: { family: string }[] };
    expect(body.id).toMatch(/^pat-/);
    expect(res.headers.get('location')).toBe(`/api/v1/patients/${body.id}`);
    expect(res.headers.get('etag')).toBe('"1"');
    const read = await api(`/patients/${body.id}`, { headers: nurse });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    // the envelope (0.2.0): FHIR resources side by side, the Patient never extended
    const p = (await read.json()) as {
      view: string;
      patient: Record<string, unknown>;
      allergies: unknown[];
      latest_vitals: unknown[];
      news2: unknown;
    };
    expect(p.view).toBe('clinical');
    expect(p.patient).toMatchObject({
      resourceType: 'Patient',
      id: body.id,
      birthDate: '1980-02-03',
      gender: 'female',
      name: [{ family, given: ['Ada'] }],
    });
    expect(p.patient).not.toHaveProperty('allergies');
    expect(p.patient).not.toHaveProperty('vitals');
    expect(p.allergies).toEqual([]);
    expect(p.latest_vitals).toEqual([]);
    expect(p.news2).toMatchObject({ complete: false });
    // Accept: application/fhir+json: the bare Patient, what search Bundle fullUrls resolve to
    const bare = await api(`/patients/${body.id}`, { headers: { ...nurse, accept: 'application/fhir+json' } });
    expect(bare.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(await bare.json()).toEqual(p.patient);
  });

  it('rejects invalid bodies with a problem (400), unknown ids with 404, and needs a token', async () => {
    const bad = await api('/patients', { method: 'POST', headers: { ...admin, ...json }, body: JSON.stringify({ name: [] }) });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/problem+json');
    expect((await api('/patients/pat-doesnotexist', { headers: admin })).status).toBe(404);
    expect((await api('/patients/pat-x')).status).toBe(401);
  });

  it('update needs If-Match (428), refuses a stale one (412), accepts the current one', async () => {
    const family = `Hopper${uid()}`;
    const { id, etag } = await register(family);
    const body = JSON.stringify(patientBody(family, { gender: 'other' }));
    expect((await api(`/patients/${id}`, { method: 'PUT', headers: { ...admin, ...json }, body })).status).toBe(428);
    expect((await api(`/patients/${id}`, { method: 'PUT', headers: { ...admin, ...json, 'if-match': '"7"' }, body })).status).toBe(412);
    const ok = await api(`/patients/${id}`, { method: 'PUT', headers: { ...admin, ...json, 'if-match': etag }, body });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe('"2"');
    expect(((await ok.json()) as { gender: string }).gender).toBe('other');
  });

  it('concurrent writers with the same If-Match: exactly one wins, the others get 412', async () => {
    const { id, etag } = await register(`Race${uid()}`);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(`/patients/${id}`, {
          method: 'PUT',
          headers: { ...admin, ...json, 'if-match': etag },
          body: JSON.stringify(patientBody(`Race${i}-${id}`)),
        }).then((r) => r.status),
      ),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 412)).toHaveLength(19);
    const history = (await (await api(`/patients/${id}/history`, { headers: admin })).json()) as {
      events: { version: number; type: string; metadata: Record<string, unknown> }[];
    };
    expect(history.events.map((e) => [e.version, e.type])).toEqual([
      [1, 'PatientRegistered'],
      [2, 'PatientUpdated'],
    ]);
    expect(history.events[0]!.metadata).toMatchObject({ scope: 'write:patients' });
  });

  it('records and removes allergies as events; reception sees demographics only and cannot touch allergies', async () => {
    const { id } = await register(`Curie${uid()}`, reception);
    const rec = await api(`/patients/${id}/allergies`, {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify({
        resourceType: 'AllergyIntolerance',
        code: { text: 'Penicillin' },
        criticality: 'high',
        reaction: [{ description: 'rash' }],
      }),
    });
    expect(rec.status).toBe(201);
    const allergy = (await rec.json()) as { id: string; code: { text: string } };
    expect(allergy.code.text).toBe('Penicillin');
    const full = (await (await api(`/patients/${id}`, { headers: admin })).json()) as { allergies: { id: string }[] };
    expect(full.allergies.map((a) => a.id)).toEqual([allergy.id]);

    const demo = (await (await api(`/patients/${id}`, { headers: reception })).json()) as { patient: Record<string, unknown> };
    expect(demo.patient.resourceType).toBe('Patient');
    expect(Object.keys(demo).sort()).toEqual(['patient', 'view']); // no allergies, no vitals
    expect(demo).toMatchObject({ view: 'demographics' });
    expect(demo.patient).not.toHaveProperty('allergies');
    expect(demo.patient).not.toHaveProperty('vitals');
    expect((await api(`/patients/${id}/history`, { headers: reception })).status).toBe(403);
    expect(
      (
        await api(`/patients/${id}/allergies`, {
          method: 'POST',
          headers: { ...reception, ...json },
          body: JSON.stringify({ code: { text: 'Nuts' } }),
        })
      ).status,
    ).toBe(403);

    expect(
      (await api(`/patients/${id}/allergies/${allergy.id}`, { method: 'DELETE', headers: { ...admin, 'if-match': '"1"' } })).status,
    ).toBe(412);
    const del = await api(`/patients/${id}/allergies/${allergy.id}`, { method: 'DELETE', headers: admin });
    expect(del.status).toBe(204);
    expect(del.headers.get('etag')).toBe('"3"');
    expect((await api(`/patients/${id}/allergies/${allergy.id}`, { method: 'DELETE', headers: admin })).status).toBe(404);
  });

  it('searches by name, birth date and identifier through the projection, paginated with a cursor', async () => {
    const tag = uid();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register(`Search${tag}${i}`)).id);
    await catchUpTo(gw.deps.pool, patientsProjection, await headPosition(gw.deps.pool));
    type Page = { entry: { fullUrl: string; resource: { id: string } }[]; link: { relation: string; url: string }[] };
    const nextOf = (b: Page) => b.link.find((l) => l.relation === 'next')?.url;
    const page1 = (await (await api(`/patients?name=search${tag}&limit=2`, { headers: admin })).json()) as Page;
    expect(page1.entry.map((e) => e.resource.id)).toEqual(ids.slice(0, 2));
    expect(page1.entry.map((e) => e.fullUrl)).toEqual(ids.slice(0, 2).map((i) => `${gw.url}/api/v1/patients/${i}`));
    expect(page1).not.toHaveProperty('next');
    expect(nextOf(page1)).toBeTruthy();
    const page2 = (await (await fetch(nextOf(page1)!, { headers: admin })).json()) as Page;
    expect(page2.entry.map((e) => e.resource.id)).toEqual(ids.slice(2));
    expect(nextOf(page2)).toBeUndefined();
    const byIdent = (await (
      await api(`/patients?identifier=${encodeURIComponent(`urn:vitalis:mrn|MRN-Search${tag}1`)}&birthdate=1980-02-03`, {
        headers: reception,
      })
    ).json()) as { entry: { resource: { id: string } }[] };
    expect(byIdent.entry.map((e) => e.resource.id)).toEqual([ids[1]]);
    expect((await api('/patients?cursor=garbage!', { headers: admin })).status).toBe(400);
    const noScope = await authHeaders(gw.url, ['read:appointments']);
    expect((await api('/patients', { headers: noScope })).status).toBe(403);
  });

  it('a patient user sees only their own record, and only through the SMART patient/ scopes they consented to', async () => {
    const pool = gw.deps.pool;
    const a = await registerPatient(pool, caller({ scopes: ['write:patients'] }), { family: `Own${uid()}`, given: [] });
    const b = await registerPatient(pool, caller({ scopes: ['write:patients'] }), { family: `Other${uid()}`, given: [] });
    const appointmentsOnly = caller({ scopes: ['read:appointments'], roles: ['patient'], patientId: a.id });
    await expect(getPatient(pool, appointmentsOnly, a.id)).rejects.toMatchObject({ status: 403 });
    await expect(patientHistory(pool, appointmentsOnly, a.id)).rejects.toMatchObject({ status: 403 });
    const demographics = caller({ scopes: ['read:appointments', 'patient/Patient.rs'], roles: ['patient'], patientId: a.id });
    await expect(getPatient(pool, demographics, a.id)).resolves.toMatchObject({ view: 'demographics' });
    const me = caller({
      scopes: ['read:appointments', 'patient/Patient.rs', 'patient/AllergyIntolerance.rs'],
      roles: ['patient'],
      patientId: a.id,
    });
    await expect(getPatient(pool, me, a.id)).resolves.toMatchObject({ view: 'clinical' });
    await expect(patientHistory(pool, me, a.id)).rejects.toMatchObject({ status: 403 }); // the history is for clinical readers
    await expect(getPatient(pool, me, b.id)).rejects.toMatchObject({ status: 403 });
    expect(await auditRows(pool, b.id)).toContainEqual({ action: 'patient.read', outcome: 'failure', scope: 'patient/Patient.rs' });
  });

  it('every read and write is in the audit trail with the scope that allowed it', async () => {
    const family = `Audit${uid()}`;
    const { id, etag } = await register(family);
    await api(`/patients/${id}`, { headers: nurse });
    await api(`/patients/${id}`, {
      method: 'PUT',
      headers: { ...admin, ...json, 'if-match': etag },
      body: JSON.stringify(patientBody(family)),
    });
    await api(`/patients/${id}/history`, { headers: admin });
    const rows = await auditRows(gw.deps.pool, id);
    expect(rows).toEqual([
      { action: 'patient.register', outcome: 'success', scope: 'write:patients' },
      { action: 'patient.read', outcome: 'success', scope: 'read:patients' },
      { action: 'patient.update', outcome: 'success', scope: 'write:patients' },
      { action: 'patient.history', outcome: 'success', scope: 'read:patients' },
    ]);
  });
});
