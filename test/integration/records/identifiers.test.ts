/**
 * One patient per business identifier (an MRN), over real HTTP: a second registration or an update
 * taking an identifier another patient holds is a 409 problem and appends nothing; a released
 * identifier can be taken; concurrent registrations with one MRN: exactly one wins. Refusals are audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStream } from '@vitalis/eventstore';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { patientBody, uid } from './support';

let gw: RunningGateway;
let clerk: Record<string, string>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  gw = await startGateway();
  clerk = await authHeaders(gw.url, ['read:patients', 'write:patients']);
});
afterAll(() => gw.close());

const api = (path: string, init: RequestInit = {}) => fetch(`${gw.url}/api/v1${path}`, init);
const mrn = (value: string) => ({ identifier: [{ system: 'urn:vitalis:mrn', value }] });
const register = (family: string, extra: Record<string, unknown>) =>
  api('/patients', { method: 'POST', headers: { ...clerk, ...json }, body: JSON.stringify(patientBody(family, extra)) });
const patientStreams = async (family: string) =>
  (
    await gw.deps.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM events WHERE type = 'PatientRegistered' AND data->>'family' = $1",
      [family],
    )
  ).rows[0]!.n;

describe('patient identifiers', () => {
  it('refuses a second patient with the same MRN (409 problem, nothing appended, audited)', async () => {
    const value = `MRN-${uid()}`;
    const first = await register(`Ident${uid()}`, mrn(value));
    expect(first.status).toBe(201);
    const firstId = ((await first.json()) as { id: string }).id;

    const family = `Twin${uid()}`;
    const second = await register(family, {
      identifier: [
        { system: 'urn:vitalis:other', value: 'X-1' },
        { system: 'urn:vitalis:mrn', value },
      ],
    });
    expect(second.status).toBe(409);
    expect(second.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await second.json()) as { status: number; title: string; detail: string };
    expect(problem).toMatchObject({ status: 409, detail: `Identifier urn:vitalis:mrn|${value} is already assigned to another patient.` });
    expect(problem.detail).not.toContain(firstId); // does not reveal who holds it
    expect(await patientStreams(family)).toBe(0);
    // the other identifier of the refused body was not kept either
    expect(
      (
        (
          await gw.deps.pool.query(
            "SELECT count(*)::int AS n FROM patient_identifiers WHERE system = 'urn:vitalis:other' AND value = 'X-1' AND patient_id <> $1",
            [firstId],
          )
        ).rows[0] as { n: number }
      ).n,
    ).toBe(0);
    const { rows } = await gw.deps.pool.query(
      "SELECT outcome, detail FROM audit_events WHERE action = 'patient.register' AND outcome = 'failure' AND detail->>'reason' = 'identifier in use' ORDER BY id DESC LIMIT 1",
    );
    expect(rows[0]).toMatchObject({ outcome: 'failure', detail: { system: 'urn:vitalis:mrn' } });
    expect(JSON.stringify(rows[0])).not.toContain(value); // the MRN itself stays out of the audit detail
  });

  it("an update cannot take another patient's MRN; once released, it can", async () => {
    const a = `MRN-${uid()}`;
    const b = `MRN-${uid()}`;
    const resA = await register(`HolderA${uid()}`, mrn(a));
    const idA = ((await resA.json()) as { id: string }).id;
    const familyB = `HolderB${uid()}`;
    const resB = await register(familyB, mrn(b));
    const idB = ((await resB.json()) as { id: string }).id;

    const steal = await api(`/patients/${idB}`, {
      method: 'PUT',
      headers: { ...clerk, ...json, 'if-match': '"1"' },
      body: JSON.stringify(patientBody(familyB, mrn(a))),
    });
    expect(steal.status).toBe(409);
    expect((await readStream(gw.deps.pool, `patient-${idB}`)).length).toBe(1); // B unchanged

    // A moves to a new MRN: `a` is free and B may take it; B's old one is released in turn
    const c = `MRN-${uid()}`;
    expect(
      (
        await api(`/patients/${idA}`, {
          method: 'PUT',
          headers: { ...clerk, ...json, 'if-match': '"1"' },
          body: JSON.stringify(patientBody('HolderA', mrn(c))),
        })
      ).status,
    ).toBe(200);
    const take = await api(`/patients/${idB}`, {
      method: 'PUT',
      headers: { ...clerk, ...json, 'if-match': '"1"' },
      body: JSON.stringify(patientBody(familyB, mrn(a))),
    });
    expect(take.status).toBe(200);
    expect(((await take.json()) as { identifier: { value: string }[] }).identifier).toEqual([{ system: 'urn:vitalis:mrn', value: a }]);
    expect((await register(`Third${uid()}`, mrn(b))).status).toBe(201);
    // an update keeping its own MRN is no conflict
    expect(
      (
        await api(`/patients/${idB}`, {
          method: 'PUT',
          headers: { ...clerk, ...json, 'if-match': '"2"' },
          body: JSON.stringify(patientBody(familyB, { ...mrn(a), gender: 'other' })),
        })
      ).status,
    ).toBe(200);
  });

  it('concurrent registrations with one MRN: exactly one 201, the others 409', async () => {
    const value = `MRN-${uid()}`;
    const statuses = await Promise.all(Array.from({ length: 8 }, () => register(`Rush${uid()}`, mrn(value)).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const { rows } = await gw.deps.pool.query('SELECT count(*)::int AS n FROM patient_identifiers WHERE value = $1', [value]);
    expect(rows[0].n).toBe(1);
  });
});
