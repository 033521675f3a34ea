/**
 * A change and its audit row commit together (security finding 11): when the audit row of an
 * event-sourced write cannot be written, the caller gets a 503 and the change is rolled back: no
 * event, no identifier reservation. The failing audit trail belongs to one dedicated gateway
 * (test/helpers/audit-refusal.ts); setup and checks go through the real tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@vitalis/db';
import { readStream } from '@vitalis/eventstore';
import { patientStream, slotStream, triageStream } from '@vitalis/records';
import { authHeaders } from '../../helpers/auth';
import { startGatewayRefusingAudit } from '../../helpers/audit-refusal';
import type { RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { caller, patientBody, uid } from './support';

let pool: Pool;
let gw: RunningGateway & { schema: string };
let headers: Record<string, string>;
const json = { 'content-type': 'application/json' };
const api = (path: string, init: RequestInit = {}) => fetch(`${gw.url}/api/v1${path}`, init);

beforeAll(async () => {
  pool = createPool({ url: testEnv.DATABASE_URL, max: 2, application: 'vitalis-test-audit-transaction' });
  gw = await startGatewayRefusingAudit(['patient.register', 'patient.update', 'appointment.book', 'triage.admit']);
  headers = { ...(await authHeaders(gw.url, ['read:patients', 'write:patients', 'write:appointments', 'write:triage'])), ...json };
});
afterAll(async () => {
  await gw?.close();
  await pool?.end();
});

async function expect503(res: Response): Promise<void> {
  expect(res.status).toBe(503);
  expect(await res.json()).toMatchObject({ status: 503, detail: expect.stringMatching(/audit trail/) });
}

const patient = async () =>
  (await registerPatient(pool, caller({ scopes: ['write:patients'] }), { family: `Tx${uid()}`, given: ['Al'] })).id;

describe('an event-sourced write whose audit row cannot be written', () => {
  it('registration: 503, no event and the identifier stays free', async () => {
    const family = `NoAudit${uid()}`;
    await expect503(await api('/patients', { method: 'POST', headers, body: JSON.stringify(patientBody(family)) }));
    const events = await pool.query("SELECT count(*)::int AS n FROM events WHERE type = 'PatientRegistered' AND data->>'family' = $1", [
      family,
    ]);
    expect(events.rows[0].n).toBe(0);
    // The identifier reservation was in the same transaction: another patient may take it.
    const other = await registerPatient(pool, caller({ scopes: ['write:patients'] }), {
      family,
      given: [],
      identifiers: [{ system: 'urn:vitalis:mrn', value: `MRN-${family}` }],
    });
    expect(other.identifiers).toEqual([{ system: 'urn:vitalis:mrn', value: `MRN-${family}` }]);
  });

  it('update: 503 and the stream stays at its version', async () => {
    const id = await patient();
    await expect503(
      await api(`/patients/${id}`, {
        method: 'PUT',
        headers: { ...headers, 'if-match': '"1"' },
        body: JSON.stringify(patientBody(`Changed${uid()}`)),
      }),
    );
    expect((await readStream(pool, patientStream(id))).map((e) => e.type)).toEqual(['PatientRegistered']);
  });

  it('booking: 503 and the slot stays free', async () => {
    const id = await patient();
    const start = new Date(Date.UTC(2032, 1, 1, 9));
    const slot = await createSlot(pool, {
      clinicianId: `cln-${uid()}`,
      appointmentType: 'consultation',
      start: start.toISOString(),
      end: new Date(start.getTime() + 1_800_000).toISOString(),
    });
    await expect503(await api('/appointments', { method: 'POST', headers, body: JSON.stringify({ slot_id: slot.id, patient_id: id }) }));
    expect((await readStream(pool, slotStream(slot.id))).map((e) => e.type)).toEqual(['SlotCreated']);
  });

  it('triage admission: 503 and nobody is on the board', async () => {
    const id = await patient();
    await expect503(await api('/triage', { method: 'POST', headers, body: JSON.stringify({ patient_id: id, esi: 3, complaint: 'fall' }) }));
    expect(await readStream(pool, triageStream(id))).toEqual([]);
  });

  it('a write whose audit row is written commits both; the row is chained', async () => {
    const family = `Audited${uid()}`;
    const id = await registerPatient(pool, caller({ scopes: ['write:patients'] }), { family, given: [] }).then((p) => p.id);
    const { rows } = await pool.query("SELECT action, hash FROM audit_events WHERE resource_id = $1 AND action = 'patient.register'", [id]);
    expect(rows).toEqual([{ action: 'patient.register', hash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
  });
});
