/**
 * Appointment slots: each slot is its own event stream (`slot-<id>`), so booking is an append at
 * the expected version — two concurrent bookings of one slot cannot both commit (the stream's
 * UNIQUE (stream_id, stream_version) decides), whatever the number of gateways.
 */
import { STREAM_CATEGORIES, streamName } from '@vitalis/eventstore';

export const slotStream = (slotId: string) => streamName(STREAM_CATEGORIES.slot, slotId);
/** An appointment id names its slot and the booking's version: no lookup table needed. */
export const appointmentId = (slotId: string, version: number) => `${slotId}.${version}`;
export function parseAppointmentId(id: string): { slotId: string; version: number } | undefined {
  const m = /^([A-Za-z0-9-]{1,64})\.(\d{1,9})$/.exec(id);
  return m ? { slotId: m[1]!, version: Number(m[2]) } : undefined;
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

interface Folded { type: string; data: Record<string, unknown>; streamVersion: number; recordedAt: string }

export function applySlot(state: SlotState | null, e: Folded): SlotState | null {
  const d = e.data as Record<string, string | undefined>;
  if (e.type === 'SlotCreated') {
    return {
      id: d.slotId!, version: e.streamVersion, clinicianId: d.clinicianId!, appointmentType: d.appointmentType!,
      start: d.start!, end: d.end!, status: 'free', appointmentId: null, patientId: null, reason: null, bookedAt: null,
    };
  }
  if (!state) return null;
  switch (e.type) {
    case 'AppointmentBooked':
      return { ...state, version: e.streamVersion, status: 'busy', appointmentId: d.appointmentId!, patientId: d.patientId!, reason: d.reason ?? null, bookedAt: e.recordedAt };
    case 'AppointmentCancelled':
      return { ...state, version: e.streamVersion, status: 'free', appointmentId: null, patientId: null, reason: null, bookedAt: null };
    default:
      return { ...state, version: e.streamVersion };
  }
}

export const foldSlot = (events: Folded[]) => events.reduce<SlotState | null>(applySlot, null);
