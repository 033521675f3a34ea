/**
 * Appointment slots: each slot is its own event stream (`slot-<id>`), so booking is an append at
 * the expected version — two concurrent bookings of one slot cannot both commit (the stream's
 * UNIQUE (stream_id, stream_version) decides), whatever the number of gateways. The fold, and the
 * pure decider (`decideSlot`: create, book, cancel → events, or a refusal of SlotDecideError).
 */
import { STREAM_CATEGORIES, streamName, type Decider, type Decision } from '@vitalis/eventstore';

export const slotStream = (slotId: string) => streamName(STREAM_CATEGORIES.slot, slotId);
/** An appointment id names its slot and the booking's version: no lookup table needed. */
export const appointmentId = (slotId: string, version: number) => `${slotId}.${version}`;
export function parseAppointmentId(id: string): { slotId: string; version: number } | undefined {
  const [, slotId, version] = /^([A-Za-z0-9-]{1,64})\.(\d{1,9})$/.exec(id) ?? [];
  return slotId !== undefined && version !== undefined ? { slotId, version: Number(version) } : undefined;
}

export interface SlotState {
  id: string;
  version: number;
  clinicianId: string;
  appointmentType: string;
  start: string;
  end: string;
  status: 'free' | 'busy';
  appointmentId: string | null;
  patientId: string | null;
  reason: string | null;
  bookedAt: string | null;
}

interface Folded {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
  recordedAt: string;
}

/** The data of a slot event of this type, as `decideSlot` writes it (SlotEvent). */
type SlotEventData<T extends SlotEvent['type']> = Extract<SlotEvent, { type: T }>['data'];

export function applySlot(state: SlotState | null, e: Folded): SlotState | null {
  if (e.type === 'SlotCreated') {
    const d = e.data as SlotEventData<'SlotCreated'>;
    return {
      id: d.slotId,
      version: e.streamVersion,
      clinicianId: d.clinicianId,
      appointmentType: d.appointmentType,
      start: d.start,
      end: d.end,
      status: 'free',
      appointmentId: null,
      patientId: null,
      reason: null,
      bookedAt: null,
    };
  }
  if (!state) return null;
  switch (e.type) {
    case 'AppointmentBooked': {
      const d = e.data as SlotEventData<'AppointmentBooked'>;
      return {
        ...state,
        version: e.streamVersion,
        status: 'busy',
        appointmentId: d.appointmentId,
        patientId: d.patientId,
        reason: d.reason ?? null,
        bookedAt: e.recordedAt,
      };
    }
    case 'AppointmentCancelled':
      return { ...state, version: e.streamVersion, status: 'free', appointmentId: null, patientId: null, reason: null, bookedAt: null };
    default:
      return { ...state, version: e.streamVersion };
  }
}

export const foldSlot = (events: Folded[]) => events.reduce<SlotState | null>(applySlot, null);

export const SLOT_EVENTS = {
  created: 'SlotCreated',
  booked: 'AppointmentBooked',
  cancelled: 'AppointmentCancelled',
} as const;

/** What a slot is: who, what, when. */
export type SlotDetails = { slotId: string; clinicianId: string; appointmentType: string; start: string; end: string };

export type SlotEvent =
  | { type: typeof SLOT_EVENTS.created; data: SlotDetails }
  | { type: typeof SLOT_EVENTS.booked; data: { appointmentId: string; patientId: string; rescheduledFrom?: string; reason?: string } }
  | { type: typeof SLOT_EVENTS.cancelled; data: { appointmentId: string; rescheduledTo?: string; reason?: string } };

/**
 * `book`: the appointment's id is the slot's and the booking's version (appointmentId);
 * `rescheduledFrom`/`rescheduledTo` link the two halves of a reschedule.
 */
export type SlotCommand =
  | { type: 'create'; slot: SlotDetails }
  | { type: 'book'; patientId: string; reason?: string | null | undefined; rescheduledFrom?: string | undefined }
  | { type: 'cancel'; appointmentId: string; reason?: string | undefined; rescheduledTo?: string | undefined };

/** Why a slot command was refused (the gateway maps each to a problem). */
export type SlotDecideError =
  { kind: 'not-found' } | { kind: 'already-exists' } | { kind: 'busy' } | { kind: 'not-booked'; appointmentId: string };

/** The id the next booking of this slot gets (its version after the booking). */
export const nextAppointmentId = (slot: SlotState) => appointmentId(slot.id, slot.version + 1);

export function decideSlot(command: SlotCommand, state: SlotState | null): Decision<SlotEvent, SlotDecideError> {
  if (command.type === 'create') {
    if (state) return { ok: false, error: { kind: 'already-exists' } };
    const { slotId, clinicianId, appointmentType, start, end } = command.slot;
    return { ok: true, events: [{ type: SLOT_EVENTS.created, data: { slotId, clinicianId, appointmentType, start, end } }] };
  }
  if (!state) return { ok: false, error: { kind: 'not-found' } };
  switch (command.type) {
    case 'book': {
      if (state.status !== 'free') return { ok: false, error: { kind: 'busy' } };
      const data = {
        appointmentId: nextAppointmentId(state),
        patientId: command.patientId,
        ...(command.rescheduledFrom ? { rescheduledFrom: command.rescheduledFrom } : {}),
        ...(command.reason ? { reason: command.reason } : {}),
      };
      return { ok: true, events: [{ type: SLOT_EVENTS.booked, data }] };
    }
    case 'cancel': {
      if (state.appointmentId !== command.appointmentId) {
        return { ok: false, error: { kind: 'not-booked', appointmentId: command.appointmentId } };
      }
      const data = {
        appointmentId: command.appointmentId,
        ...(command.rescheduledTo ? { rescheduledTo: command.rescheduledTo } : {}),
        ...(command.reason ? { reason: command.reason } : {}),
      };
      return { ok: true, events: [{ type: SLOT_EVENTS.cancelled, data }] };
    }
  }
}

/** The slot decider for the command handler. */
export const SLOT_DECIDER: Decider<SlotState | null, SlotCommand, SlotEvent, SlotDecideError> = {
  initialState: () => null,
  evolve: applySlot,
  decide: decideSlot,
};
