/**
 * Triage board (admit, ESI change as an event with If-Match, discharge, NEWS2 from the latest
 * vitals), the admin audit query, and the public catalog, over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection, triageProjection } from '../../../apps/projector/src/projections/definitions';
import { append, headPosition } from '@vitalis/eventstore';
import { alertStream } from '@vitalis/live';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { caller, uid } from './support';

let gw: RunningGateway;
let nurse: Record<string, string>;
const json = { 'content-type': 'application/json' };
const api = (path: string, init: RequestInit = {}) => fetch(`${gw.url}/api/v1${path}`, init);

beforeAll(async () => {
  gw = await startGateway();
  nurse = await authHeaders(gw.url, ['read:patients', 'read:vitals', 'write:triage']);
});
afterAll(() => gw.close());

async function patient(): Promise<string> {
  return (await registerPatient(gw.deps.pool, caller({ scopes: ['write:patients'] }), { family: `Tri${uid()}`, given: ['Jo'] })).id;
}

async function vitals(patientId: string, values: Record<string, [number, string]>) {
  let seq = 0;
  for (const [code, [value, unit]] of Object.entries(values)) {
    await gw.deps.pool.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
       VALUES ($1, $2, $3, $4, now(), $5, $6, 0, $3, vitals_series_assign($1, $4))`,
      [patientId, `dev-${patientId}`, ++seq, code, value, unit],
    );
  }
}

describe('triage board', () => {
  it('admits, orders by ESI, changes the level as an event (If-Match), shows NEWS2, discharges', async () => {
    const a = await patient();
    const b = await patient();
    // a: RR 25 (3), SpO2 91 (3), systolic 95 (2), HR 120 (2), temp 39.5 (2) -> 12, high
    await vitals(a, {
      '9279-1': [25, '/min'],
      '59408-5': [91, '%'],
      '8480-6': [95, 'mm[Hg]'],
      '8867-4': [120, '/min'],
      '8310-5': [39.5, 'Cel'],
    });
    const admitA = await api('/triage', {
      method: 'POST',
      headers: { ...nurse, ...json },
      body: JSON.stringify({ patient_id: a, esi: 3, complaint: 'shortness of breath' }),
    });
    expect(admitA.status).toBe(201);
    expect(admitA.headers.get('etag')).toBe('"1"');
    expect(
      (
        await api('/triage', {
          method: 'POST',
          headers: { ...nurse, ...json },
          body: JSON.stringify({ patient_id: b, esi: 2, complaint: 'chest pain' }),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api('/triage', {
          method: 'POST',
          headers: { ...nurse, ...json },
          body: JSON.stringify({ patient_id: a, esi: 3, complaint: 'again' }),
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await api('/triage', {
          method: 'POST',
          headers: { ...nurse, ...json },
          body: JSON.stringify({ patient_id: a, esi: 6, complaint: 'x' }),
        })
      ).status,
    ).toBe(400);

    expect(
      (
        await api(`/triage/${a}/esi`, {
          method: 'PUT',
          headers: { ...nurse, ...json, 'if-match': '"5"' },
          body: JSON.stringify({ esi: 1 }),
        })
      ).status,
    ).toBe(412);
    const set = await api(`/triage/${a}/esi`, {
      method: 'PUT',
      headers: { ...nurse, ...json, 'if-match': '"1"' },
      body: JSON.stringify({ esi: 1, reason: 'deteriorating' }),
    });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { esi: number }).esi).toBe(1);

    // an alert raised then cleared, another still active (stream shape of branch i6); both acknowledged
    // afterwards (the lifecycle's events name the rule too): the active one stays on the board
    await append(gw.deps.pool, alertStream(a), 0, [
      { type: 'VitalsAlertRaised', data: { rule: 'hr-high' } },
      { type: 'VitalsAlertCleared', data: { rule: 'hr-high' } },
      { type: 'VitalsAlertRaised', data: { rule: 'spo2-low' } },
      { type: 'VitalsAlertAcknowledged', data: { rule: 'spo2-low' } },
      { type: 'VitalsAlertAcknowledged', data: { rule: 'hr-high' } },
    ]);
    await catchUpTo(gw.deps.pool, triageProjection, await headPosition(gw.deps.pool));
    await catchUpTo(gw.deps.pool, patientsProjection, await headPosition(gw.deps.pool));
    const board = (await (await api('/triage', { headers: nurse })).json()) as {
      entries: { patient_id: string; esi: number; name: string; alerts?: string[]; news2?: { score: number; risk: string } }[];
    };
    const mine = board.entries.filter((e) => e.patient_id === a || e.patient_id === b);
    expect(mine.map((e) => [e.patient_id, e.esi])).toEqual([
      [a, 1],
      [b, 2],
    ]);
    expect(mine[0]!.news2).toMatchObject({ score: 12, risk: 'high' });
    // the latest values behind it, snake_case like the rest of the API
    const latest = (mine[0] as unknown as { latest_vitals: Record<string, unknown>[] }).latest_vitals;
    expect(latest.find((v) => v.code === '8867-4')).toEqual({
      code: '8867-4',
      display: 'Heart rate',
      value: 120,
      unit: '/min',
      effective_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(mine[0]!.name).toMatch(/^Jo Tri/);
    expect(mine[0]!.alerts).toEqual(['spo2-low']);
    expect(mine[1]!.alerts).toEqual([]);

    const readerNoVitals = await authHeaders(gw.url, ['read:patients']);
    const plain = (await (await api('/triage', { headers: readerNoVitals })).json()) as { entries: Record<string, unknown>[] };
    expect(plain.entries.find((e) => e.patient_id === a)).not.toHaveProperty('news2');
    expect(
      (await api(`/triage/${a}/esi`, { method: 'PUT', headers: { ...readerNoVitals, ...json }, body: JSON.stringify({ esi: 2 }) })).status,
    ).toBe(403);

    expect((await api(`/triage/${b}/discharge`, { method: 'POST', headers: nurse })).status).toBe(200);
    await catchUpTo(gw.deps.pool, triageProjection, await headPosition(gw.deps.pool));
    const after = (await (await api('/triage', { headers: nurse })).json()) as { entries: { patient_id: string }[] };
    expect(after.entries.map((e) => e.patient_id)).not.toContain(b);
    expect(
      (await api(`/triage/${b}/esi`, { method: 'PUT', headers: { ...nurse, ...json }, body: JSON.stringify({ esi: 2 }) })).status,
    ).toBe(404);
  });
});

describe('audit query', () => {
  it('admins (read:audit) query the trail by resource; others get 403', async () => {
    const p = await patient();
    const admin = await authHeaders(gw.url, ['read:patients', 'read:audit']);
    expect((await api(`/patients/${p}`, { headers: admin })).status).toBe(200);
    const res = await api(`/audit?resource_type=Patient&resource_id=${p}&action=patient.*`, { headers: admin });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { action: string; scope: string; outcome: string }[] };
    expect(body.data.map((d) => [d.action, d.scope])).toEqual([
      ['patient.read', 'read:patients'],
      ['patient.register', 'write:patients'],
    ]);
    expect((await api('/audit', { headers: nurse })).status).toBe(403);
    expect((await api('/audit?outcome=maybe', { headers: admin })).status).toBe(400);
  });
});

describe('catalog', () => {
  it('is public reference data: clinicians, appointment types, vital signs with units and ranges, scopes', async () => {
    const index = (await (await api('/catalog')).json()) as { sections: { name: string }[] };
    expect(index.sections.map((s) => s.name)).toEqual(['clinicians', 'appointment-types', 'vital-signs', 'scopes']);
    const clinicians = (await (await api('/catalog/clinicians')).json()) as { data: { resourceType: string }[] };
    expect(clinicians.data[0]).toMatchObject({ resourceType: 'Practitioner' });
    const vitalsRes = (await (await api('/catalog/vital-signs')).json()) as {
      data: { code: string; unit: string; normal?: { low: number; high: number } }[];
    };
    expect(vitalsRes.data.find((v) => v.code === '8867-4')).toMatchObject({ unit: '/min', normal: { low: 51, high: 90 } });
    const scopes = (await (await api('/catalog/scopes')).json()) as {
      scopes: { name: string }[];
      roles: { role: string; scopes: string[] }[];
    };
    expect(scopes.scopes.map((s) => s.name)).toContain('write:triage');
    expect(scopes.roles.find((r) => r.role === 'admin')!.scopes).toContain('read:audit');
  });
});
