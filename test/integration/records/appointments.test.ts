/**
 * Appointments over real HTTP: 100 concurrent bookings of one slot → exactly one 201, 99 × 409;
 * cancel frees the slot; reschedule is atomic; listing through the projection with filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { headPosition } from '@vitalis/eventstore';
import { slotsProjection } from '../../../apps/projector/src/projections/definitions';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { registerPatient } from '../../../apps/gateway/src/patients/service';
import { caller, uid } from './support';

let gw: RunningGateway;
let desk: Record<string, string>;
const json = { 'content-type': 'application/json' };
const api = (path: string, init: RequestInit = {}) => fetch(`${gw.url}/api/v1${path}`, init);

beforeAll(async () => {
  gw = await startGateway();
  desk = await authHeaders(gw.url, ['read:appointments', 'write:appointments']);
});
afterAll(() => gw.close());

async function patient(): Promise<string> {
  return (await registerPatient(gw.deps.pool, caller({ scopes: ['write:patients'] }), { family: `Appt${uid()}`, given: [] })).id;
}
async function slot(clinicianId: string, hour: number) {
  const start = new Date(Date.UTC(2031, 0, 5, hour));
  return createSlot(gw.deps.pool, {
    clinicianId,
    appointmentType: 'consultation',
    start: start.toISOString(),
    end: new Date(start.getTime() + 1_800_000).toISOString(),
  });
}
const book = (slotId: string, patientId: string) =>
  api('/appointments', { method: 'POST', headers: { ...desk, ...json }, body: JSON.stringify({ slot_id: slotId, patient_id: patientId }) });

describe('appointments', () => {
  it('100 concurrent bookings of one slot: exactly one 201, the rest 409', async () => {
    const s = await slot(`clin-${uid()}`, 9);
    const patients = await Promise.all(Array.from({ length: 5 }, patient));
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => book(s.id, patients[i % 5]!).then((r) => r.status)));
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(99);
    const { rows } = await gw.deps.pool.query("SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'AppointmentBooked'", [
      `slot-${s.id}`,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('books, reads, cancels (slot free again), and rebooks; FHIR Appointment shape', async () => {
    const s = await slot(`clin-${uid()}`, 10);
    const p = await patient();
    const res = await book(s.id, p);
    expect(res.status).toBe(201);
    const appt = (await res.json()) as {
      id: string;
      status: string;
      slot: { reference: string }[];
      participant: { actor: { reference: string } }[];
    };
    expect(appt).toMatchObject({ resourceType: 'Appointment', status: 'booked', slot: [{ reference: `Slot/${s.id}` }] });
    expect(appt.participant[0]!.actor.reference).toBe(`Patient/${p}`);
    expect((await api(`/appointments/${appt.id}`, { headers: desk })).status).toBe(200);
    const cancel = await api(`/appointments/${appt.id}/cancel`, { method: 'POST', headers: { ...desk, ...json }, body: '{}' });
    expect(cancel.status).toBe(200);
    expect(((await cancel.json()) as { status: string }).status).toBe('cancelled');
    expect((await api(`/appointments/${appt.id}/cancel`, { method: 'POST', headers: { ...desk, ...json }, body: '{}' })).status).toBe(404);
    expect((await book(s.id, p)).status).toBe(201);
  });

  it('reschedules atomically and refuses a taken target without changing anything', async () => {
    const clin = `clin-${uid()}`;
    const [a, b, c] = [await slot(clin, 11), await slot(clin, 12), await slot(clin, 13)];
    const p = await patient();
    const appt = (await (await book(a.id, p)).json()) as { id: string };
    expect((await book(c.id, await patient())).status).toBe(201);
    expect(
      (
        await api(`/appointments/${appt.id}/reschedule`, {
          method: 'POST',
          headers: { ...desk, ...json },
          body: JSON.stringify({ slot_id: c.id }),
        })
      ).status,
    ).toBe(409);
    expect((await api(`/appointments/${appt.id}`, { headers: desk })).status).toBe(200); // still booked
    const moved = await api(`/appointments/${appt.id}/reschedule`, {
      method: 'POST',
      headers: { ...desk, ...json },
      body: JSON.stringify({ slot_id: b.id }),
    });
    expect(moved.status).toBe(201);
    expect(((await moved.json()) as { slot: { reference: string }[] }).slot[0]!.reference).toBe(`Slot/${b.id}`);
    expect((await api(`/appointments/${appt.id}`, { headers: desk })).status).toBe(404);

    await catchUpTo(gw.deps.pool, slotsProjection, await headPosition(gw.deps.pool));
    const list = (await (await api(`/appointments?clinician=${clin}`, { headers: desk })).json()) as {
      entry: { resource: { resourceType: string; id: string; status: string } }[];
    };
    const slots = list.entry.filter((e) => e.resource.resourceType === 'Slot').map((e) => [e.resource.id, e.resource.status]);
    expect(slots).toEqual([
      [a.id, 'free'],
      [b.id, 'busy'],
      [c.id, 'busy'],
    ]);
    // the matches, then the clinician's Schedule the Slots belong to (search mode include, 0.2.0)
    type Listing = {
      entry: { search: { mode: string }; resource: { resourceType: string; id: string; schedule?: { reference: string } } }[];
    };
    const free = (await (await api(`/appointments?clinician=${clin}&status=free`, { headers: desk })).json()) as Listing;
    expect(free.entry.map((e) => [e.resource.resourceType, e.search.mode])).toEqual([
      ['Slot', 'match'],
      ['Schedule', 'include'],
    ]);
    expect(free.entry[0]!.resource.schedule).toEqual({ reference: `Schedule/${clin}` });
    expect(free.entry[1]!.resource.id).toBe(clin);
    const mine = (await (await api(`/appointments?patient=${p}`, { headers: desk })).json()) as Listing;
    expect(mine.entry.map((e) => e.resource.resourceType)).toEqual(['Slot', 'Appointment', 'Schedule']);
  });

  it('validates input and scopes: 400 on bad ids, 404 unknown slot, 422 unknown patient, 403 without write:appointments', async () => {
    expect(
      (await api('/appointments', { method: 'POST', headers: { ...desk, ...json }, body: JSON.stringify({ slot_id: 'bad id!' }) })).status,
    ).toBe(400);
    expect((await book('nosuchslot', await patient())).status).toBe(404);
    const s = await slot(`clin-${uid()}`, 14);
    expect((await book(s.id, 'pat-nobody')).status).toBe(422);
    const reader = await authHeaders(gw.url, ['read:appointments']);
    expect(
      (
        await api('/appointments', {
          method: 'POST',
          headers: { ...reader, ...json },
          body: JSON.stringify({ slot_id: s.id, patient_id: 'x' }),
        })
      ).status,
    ).toBe(403);
    expect((await api('/appointments?from=yesterday', { headers: reader })).status).toBe(400);
  });
});

describe('appointments for a patient user (service, real database)', () => {
  it("books only for themselves, sees others' bookings as busy without a patient, cancels only their own", async () => {
    const { bookAppointment, cancelAppointment, listSlots } = await import('../../../apps/gateway/src/appointments/service');
    const pool = gw.deps.pool;
    const clin = `clin-${uid()}`;
    const [s1, s2] = [await slot(clin, 15), await slot(clin, 16)];
    const me = await patient();
    const other = await patient();
    const user = caller({ scopes: ['read:appointments', 'write:appointments'], roles: ['patient'], patientId: me });
    await expect(bookAppointment(pool, user, { slotId: s1.id, patientId: other })).rejects.toMatchObject({ status: 403 });
    const mine = await bookAppointment(pool, user, { slotId: s1.id });
    expect(mine.patientId).toBe(me);
    const theirs = await bookAppointment(pool, caller({ scopes: ['write:appointments'], roles: ['reception'] }), {
      slotId: s2.id,
      patientId: other,
    });
    await catchUpTo(pool, slotsProjection, await headPosition(pool));
    const { slots } = await listSlots(pool, user, { clinician: clin, limit: 10 });
    expect(slots.map((s) => [s.id, s.status, s.patientId])).toEqual([
      [s1.id, 'busy', me],
      [s2.id, 'busy', null],
    ]);
    await expect(listSlots(pool, user, { patient: other, limit: 10 })).rejects.toMatchObject({ status: 403 });
    await expect(cancelAppointment(pool, user, theirs.appointmentId!)).rejects.toMatchObject({ status: 404 });
    await expect(cancelAppointment(pool, user, mine.appointmentId!)).resolves.toMatchObject({ id: s1.id });
  });
});
