/**
 * ED triage: one stream per patient (`triage-<patientId>`): arrival with complaint and ESI level,
 * ESI changes as events, discharge removes the patient from the board.
 */
import { STREAM_CATEGORIES, streamName } from '@vitalis/eventstore';

export const triageStream = (patientId: string) => streamName(STREAM_CATEGORIES.triage, patientId);

export interface TriageState {
  patientId: string;
  version: number;
  esi: 1 | 2 | 3 | 4 | 5;
  complaint: string;
  arrivedAt: string;
  updatedAt: string;
  present: boolean;
}

interface Folded { type: string; data: Record<string, unknown>; streamVersion: number; recordedAt: string }

export function applyTriage(state: TriageState | null, e: Folded): TriageState | null {
  const d = e.data as { patientId?: string; esi?: TriageState['esi']; complaint?: string };
  switch (e.type) {
    case 'PatientArrived':
      return { patientId: d.patientId!, version: e.streamVersion, esi: d.esi!, complaint: d.complaint!, arrivedAt: e.recordedAt, updatedAt: e.recordedAt, present: true };
    case 'TriageLevelSet':
      return state ? { ...state, version: e.streamVersion, esi: d.esi!, complaint: d.complaint ?? state.complaint, updatedAt: e.recordedAt } : null;
    case 'PatientDischarged':
      return state ? { ...state, version: e.streamVersion, present: false, updatedAt: e.recordedAt } : null;
    default:
      return state ? { ...state, version: e.streamVersion } : null;
  }
}

export const foldTriage = (events: Folded[]) => events.reduce<TriageState | null>(applyTriage, null);
