/**
 * Synthetic appointment slots for sandbox principals, generated on demand: three `sbx-`
 * practitioners, 30-minute slots from 09:00 to 17:00 UTC on each of the 7 days from today (UTC),
 * some busy. Status and type are pure functions of the slot id, so paging is stable; a busy slot
 * names no patient (a sandbox principal sees availability only, like any caller without a role).
 * Nothing is stored, and nothing can be booked (a sandbox token has no write:appointments).
 */
import { must } from '@vitalis/runtime';
import type { SlotState } from '@vitalis/records';

export const SANDBOX_CLINICIANS = ['sbx-dr-0001', 'sbx-dr-0002', 'sbx-dr-0003'] as const;
const DAYS = 7;
const DAY_MS = 86_400_000;
const SLOT_MS = 30 * 60_000;
const FIRST_MS = 9 * 3_600_000;
const LAST_MS = 17 * 3_600_000;
const TYPES = ['consultation', 'follow-up', 'telehealth'] as const;

export interface SyntheticSlotQuery {
  clinician?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  status?: 'free' | 'busy' | undefined;
  limit: number;
  after?: { t: string; s: string } | undefined;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const compact = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace(/[-:T]/g, '');

function slotAt(clinicianId: string, startMs: number): SlotState {
  const id = `sbx-slot-${clinicianId.slice(-4)}-${compact(startMs)}`;
  const h = hash(id);
  const busy = h % 3 === 0;
  return {
    id,
    version: busy ? 2 : 1,
    clinicianId,
    appointmentType: must(TYPES[h % TYPES.length], 'an appointment type (the index is modulo their count)'),
    start: new Date(startMs).toISOString(),
    end: new Date(startMs + SLOT_MS).toISOString(),
    status: busy ? 'busy' : 'free',
    appointmentId: null,
    patientId: null,
    reason: null,
    bookedAt: null,
  };
}

/** The listing's contract (rm_slots ordered by (start, slot id), `limit + 1` to know `more`). */
export function syntheticSlots(q: SyntheticSlotQuery, nowMs = Date.now()): { slots: SlotState[]; more: boolean } {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const fromMs = q.from ? Date.parse(q.from) : -Infinity;
  const toMs = q.to ? Date.parse(q.to) : Infinity;
  const after = q.after ? { ms: Date.parse(q.after.t), s: q.after.s } : undefined;
  const clinicians = SANDBOX_CLINICIANS.filter((c) => q.clinician === undefined || c === q.clinician);
  const out: SlotState[] = [];
  for (let day = today; day < today + DAYS * DAY_MS && out.length <= q.limit; day += DAY_MS) {
    for (let start = day + FIRST_MS; start < day + LAST_MS && out.length <= q.limit; start += SLOT_MS) {
      if (start < fromMs || start >= toMs) continue;
      for (const c of clinicians) {
        const slot = slotAt(c, start);
        if (q.status && slot.status !== q.status) continue;
        if (after && (start < after.ms || (start === after.ms && slot.id <= after.s))) continue;
        out.push(slot);
      }
    }
  }
  return { slots: out.slice(0, q.limit), more: out.length > q.limit };
}
