/**
 * Appointments: each slot is an event stream (`slot-<id>`: SlotCreated, AppointmentBooked,
 * AppointmentCancelled). Writes go through the command handler with the slot decider
 * (@vitalis/eventstore handleCommand, @vitalis/records decideSlot), their audit row in the events'
 * transaction. Booking appends at the slot's current version, so of N concurrent bookings exactly
 * one commits (UNIQUE (stream_id, stream_version)); the rest get 409. Reschedule cancels on the old
 * slot and books the new one in ONE transaction (both or neither).
 * Commands answer from the folded stream; listing reads the rm_slots projection.
 */
import { randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import { countRows, type Pool } from '@vitalis/db';
import { handleCommand, inTransaction, readStream, type Queryable } from '@vitalis/eventstore';
import { conflict, notFound, problemOf } from '@vitalis/http';
import { foldSlot, nextAppointmentId, parseAppointmentId, SLOT_DECIDER, slotStream, type SlotState } from '@vitalis/records';
import { insufficientScope } from '../access/refusal';
import { audit, metadataOf, type Caller } from '../access/caller';
import { mayReach, reach } from '../access/policy';
import { loadPatient } from '../patients/service';
import { SANDBOX_CLINICIANS, syntheticSlots } from './synthetic-slots';
import { CLINICIANS } from '../catalog/data';

export async function loadSlot(db: Queryable, slotId: string): Promise<SlotState | null> {
  return foldSlot(await readStream(db, slotStream(slotId)));
}

export interface NewSlot {
  slotId?: string;
  clinicianId: string;
  appointmentType: string;
  start: string;
  end: string;
}

/** Creates a free slot (seed and schedule management); idempotent for a given slotId. */
export async function createSlot(pool: Pool, s: NewSlot, metadata: Record<string, unknown> = { actor: 'system' }): Promise<SlotState> {
  const slotId = s.slotId ?? `s${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const slot = { slotId, clinicianId: s.clinicianId, appointmentType: s.appointmentType, start: s.start, end: s.end };
  const outcome = await handleCommand(pool, SLOT_DECIDER, slotStream(slotId), { type: 'create', slot }, { metadata });
  // refused: it exists (the state read), or was created concurrently (read it)
  return outcome.state ?? must(await loadSlot(pool, slotId), `slot ${slotId}, which exists when its creation is refused`);
}

/** Whether the caller sees the sandbox's synthetic slots only (the access policy's Slot read cell). */
function syntheticOnly(caller: Caller): boolean {
  const r = reach(caller.principal, 'Slot', 'read');
  return r.allowed && r.rule === 'synthetic';
}

/** The patient a booking is for: the access policy's Appointment write rule decides whom a caller may book for. */
function patientFor(caller: Caller, requested: string | undefined): string {
  const reached = reach(caller.principal, 'Appointment', 'write');
  if (!reached.allowed) throw insufficientScope(['write:appointments'], { detail: reached.detail });
  if (reached.patient !== undefined) {
    if (requested !== undefined && requested !== reached.patient)
      throw insufficientScope(['write:appointments'], { detail: 'A patient user may only book for themselves.' });
    return reached.patient;
  }
  if (requested === undefined) throw problemOf('invalid-appointment', 'patient_id is required.');
  return requested;
}

export async function bookAppointment(
  pool: Pool,
  caller: Caller,
  req: { slotId: string; patientId?: string | undefined; reason?: string | undefined },
): Promise<SlotState> {
  const patientId = patientFor(caller, req.patientId);
  if (!(await loadPatient(pool, patientId))) throw problemOf('unknown-patient', `Patient ${patientId} does not exist.`);
  const action = 'appointment.book';
  const outcome = await handleCommand(
    pool,
    SLOT_DECIDER,
    slotStream(req.slotId),
    { type: 'book', patientId, reason: req.reason },
    {
      metadata: metadataOf(caller, 'write:appointments'),
      recorded: (tx, r) =>
        audit(tx, caller, {
          action,
          scope: 'write:appointments',
          resourceType: 'Patient',
          resourceId: patientId,
          detail: { slot: req.slotId, appointment: must(r.state, 'the booked slot').appointmentId },
        }),
      // a missing slot is answered, not audited; a busy one, or a booking that lost the race, is audited
      refused: async (e) => {
        if (e.kind === 'not-found') return;
        const reason = e.kind === 'busy' ? 'slot busy' : 'concurrent booking';
        const detail = { slot: req.slotId, reason };
        await audit(pool, caller, {
          action,
          outcome: 'failure',
          scope: 'write:appointments',
          resourceType: 'Patient',
          resourceId: patientId,
          detail,
        });
      },
    },
  );
  if (outcome.ok) return must(outcome.state, 'the booked slot');
  if (outcome.error.kind === 'not-found') throw notFound(`Slot ${req.slotId} does not exist.`);
  throw conflict(`Slot ${req.slotId} is already booked.`);
}

/**
 * The slot holding this appointment as its current booking, checked for the caller under the
 * access policy's Appointment `action` rule: no rule at all is 403; another patient's booking is 404
 * (as if absent: its existence is the other patient's).
 */
async function bookedSlot(db: Queryable, caller: Caller, id: string, action: 'read' | 'write'): Promise<SlotState> {
  const reached = reach(caller.principal, 'Appointment', action);
  if (!reached.allowed) {
    throw insufficientScope([action === 'read' ? 'read:appointments' : 'write:appointments'], {
      detail: action === 'read' ? reached.detail : "This client may change no patient's booking.",
    });
  }
  const ref = parseAppointmentId(id);
  const slot = ref ? await loadSlot(db, ref.slotId) : null;
  if (!slot || slot.appointmentId !== id || !mayReach(caller.principal, 'Appointment', action, slot.patientId))
    throw notFound(`Appointment ${id} does not exist or is no longer booked.`);
  return slot;
}

/**
 * One slot, current or as it was at stream version `version` (FHIR Slot read / vread). A Slot names
 * no patient (its Appointment does), so every reader with read:appointments may see it; a sandbox
 * principal sees no real slot (its synthetic ones are generated for listings only): 404.
 */
export async function getSlot(pool: Pool, caller: Caller, slotId: string, version?: number): Promise<SlotState> {
  const events = syntheticOnly(caller) ? [] : await readStream(pool, slotStream(slotId));
  const slot = foldSlot(version === undefined ? events : events.filter((e) => e.streamVersion <= version));
  if (!slot || (version !== undefined && slot.version !== version))
    throw notFound(
      version === undefined || events.length === 0 ? `Slot ${slotId} does not exist.` : `Slot ${slotId} has no version ${version}.`,
    );
  return slot;
}

/**
 * The Schedules (one per clinician, id = the clinician id): the catalog's clinicians and every
 * clinician holding a slot, by id (keyset `after`); a sandbox principal: the synthetic clinicians.
 * Reference data (a Schedule names no patient): nothing to audit.
 */
export async function listSchedules(
  pool: Pool,
  caller: Caller,
  q: { ids?: string[] | undefined; limit: number; after?: string | undefined },
): Promise<{ ids: string[]; more: boolean }> {
  let ids: string[];
  if (syntheticOnly(caller)) {
    ids = [...SANDBOX_CLINICIANS]
      .filter((id) => (q.ids === undefined || q.ids.includes(id)) && (q.after === undefined || id > q.after))
      .slice(0, q.limit + 1);
  } else {
    const { rows } = await pool.query<{ id: string }>(
      `SELECT id FROM (SELECT unnest($1::text[]) AS id UNION SELECT DISTINCT clinician_id FROM rm_slots) s
        WHERE ($2::text[] IS NULL OR id = ANY($2::text[])) AND ($3::text IS NULL OR id > $3) ORDER BY id LIMIT $4`,
      [CLINICIANS.map((c) => c.id), q.ids ?? null, q.after ?? null, q.limit + 1],
    );
    ids = rows.map((r) => r.id);
  }
  return { ids: ids.slice(0, q.limit), more: ids.length > q.limit };
}

export async function getAppointment(pool: Pool, caller: Caller, id: string): Promise<SlotState> {
  const slot = await bookedSlot(pool, caller, id, 'read');
  await audit(pool, caller, {
    action: 'appointment.read',
    scope: 'read:appointments',
    resourceType: 'Patient',
    resourceId: slot.patientId ?? undefined,
    detail: { appointment: id },
  });
  return slot;
}

export async function cancelAppointment(pool: Pool, caller: Caller, id: string, reason?: string): Promise<SlotState> {
  const slot = await bookedSlot(pool, caller, id, 'write');
  const outcome = await handleCommand(
    pool,
    SLOT_DECIDER,
    slotStream(slot.id),
    { type: 'cancel', appointmentId: id, reason },
    {
      metadata: metadataOf(caller, 'write:appointments'),
      // at the version the booking was found at: any change since is a conflict
      expectedVersion: slot.version,
      recorded: (tx) =>
        audit(tx, caller, {
          action: 'appointment.cancel',
          scope: 'write:appointments',
          resourceType: 'Patient',
          resourceId: slot.patientId ?? undefined,
          detail: { appointment: id },
        }),
    },
  );
  if (!outcome.ok) throw conflict('The appointment changed concurrently; read it again.');
  return slot; // the booking as it was (the caller renders it with status cancelled)
}

/** Cancel + book in one transaction: the patient never ends up with both or neither. */
export async function rescheduleAppointment(pool: Pool, caller: Caller, id: string, newSlotId: string): Promise<SlotState> {
  const old = await bookedSlot(pool, caller, id, 'write');
  const metadata = metadataOf(caller, 'write:appointments');
  const changed = () => conflict('A slot changed concurrently; nothing was changed.');
  const book = {
    type: 'book' as const,
    patientId: must(old.patientId, `the patient of appointment ${id}`),
    reason: old.reason,
    rescheduledFrom: id,
  };
  const outcome = await handleCommand(pool, SLOT_DECIDER, slotStream(newSlotId), book, {
    metadata,
    // the old booking is cancelled first, in the booking's transaction, at the version it was found at
    beforeAppend: async (tx, decided) => {
      const cancel = { type: 'cancel' as const, appointmentId: id, rescheduledTo: nextAppointmentId(must(decided.state, 'the new slot')) };
      const cancelled = await handleCommand(inTransaction(tx), SLOT_DECIDER, slotStream(old.id), cancel, {
        metadata,
        expectedVersion: old.version,
      });
      if (!cancelled.ok) throw changed();
    },
    recorded: (tx, r) =>
      audit(tx, caller, {
        action: 'appointment.reschedule',
        scope: 'write:appointments',
        resourceType: 'Patient',
        resourceId: must(r.state, 'the new booking').patientId ?? undefined,
        detail: { from: id, to: must(r.state, 'the new booking').appointmentId },
      }),
  });
  if (outcome.ok) return must(outcome.state, 'the new booking');
  if (outcome.error.kind === 'not-found') throw notFound(`Slot ${newSlotId} does not exist.`);
  throw outcome.error.kind === 'busy' ? conflict(`Slot ${newSlotId} is already booked.`) : changed();
}

export interface SlotQuery {
  clinician?: string | undefined;
  patient?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  status?: 'free' | 'busy' | undefined;
  /** Count the matches instead (FHIR `_summary=count`): `total`, no slots. */
  countOnly?: boolean | undefined;
  limit: number;
  after?: { t: string; s: string } | undefined;
}

/**
 * Slots with their bookings from the projection, under the access policy's Appointment read rule:
 * `all` sees every booking; `own` (a patient user) sees free slots and its own bookings (others'
 * appear busy without a patient); `none` (no role, a device, a lab, a patient-role client without a
 * patient) sees availability only (every booking busy without a patient). A sandbox principal sees
 * synthetic `sbx-` slots only, never the real schedule (synthetic-slots.ts).
 */
export async function listSlots(pool: Pool, caller: Caller, q: SlotQuery): Promise<{ slots: SlotState[]; more: boolean; total?: number }> {
  const reached = reach(caller.principal, 'Appointment', 'read');
  if (q.patient !== undefined && !mayReach(caller.principal, 'Appointment', 'read', q.patient)) {
    throw insufficientScope(['read:appointments'], {
      detail:
        reached.allowed && reached.rule === 'own'
          ? 'A patient user may only list their own appointments.'
          : "This client sees slot availability only: listing a patient's appointments needs a role that sees bookings.",
    });
  }
  if (syntheticOnly(caller)) return syntheticSlots(q);
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (q.clinician) where.push(`clinician_id = ${arg(q.clinician)}`);
  if (q.patient) where.push(`patient_id = ${arg(q.patient)}`);
  if (q.from) where.push(`start_at >= ${arg(q.from)}`);
  if (q.to) where.push(`start_at < ${arg(q.to)}`);
  if (q.status) where.push(`status = ${arg(q.status)}`);
  if (q.after) where.push(`(start_at, slot_id) > (${arg(q.after.t)}::timestamptz, ${arg(q.after.s)})`);
  if (q.countOnly) {
    const total = await countRows(pool, 'rm_slots', where, args);
    if (q.patient !== undefined)
      await audit(pool, caller, {
        action: 'appointment.list',
        scope: 'read:appointments',
        resourceType: 'Patient',
        resourceId: q.patient,
        detail: { count: total },
      });
    return { slots: [], more: false, total };
  }
  const { rows } = await pool.query<{
    slot_id: string;
    version: number;
    clinician_id: string;
    appointment_type: string;
    start_at: Date;
    end_at: Date;
    status: 'free' | 'busy';
    appointment_id: string | null;
    patient_id: string | null;
    reason: string | null;
    booked_at: Date | null;
  }>(
    `SELECT * FROM rm_slots ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY start_at, slot_id LIMIT ${arg(q.limit + 1)}`,
    args,
  );
  const slots = rows.slice(0, q.limit).map((r): SlotState => {
    const mine = mayReach(caller.principal, 'Appointment', 'read', r.patient_id);
    return {
      id: r.slot_id,
      version: r.version,
      clinicianId: r.clinician_id,
      appointmentType: r.appointment_type,
      start: r.start_at.toISOString(),
      end: r.end_at.toISOString(),
      status: r.status,
      appointmentId: mine ? r.appointment_id : null,
      patientId: mine ? r.patient_id : null,
      reason: mine ? r.reason : null,
      bookedAt: mine && r.booked_at ? r.booked_at.toISOString() : null,
    };
  });
  const patients = [...new Set(slots.map((s) => s.patientId).filter((p): p is string => p !== null))];
  if (patients.length > 0) {
    await audit(pool, caller, {
      action: 'appointment.list',
      scope: 'read:appointments',
      resourceType: 'Patient',
      resourceId: q.patient,
      detail: { patients: patients.slice(0, 100) },
    });
  }
  return { slots, more: rows.length > q.limit };
}
