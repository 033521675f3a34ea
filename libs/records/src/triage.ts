/**
 * ED triage: one stream per patient (`triage-<patientId>`): arrival with complaint and ESI level,
 * ESI changes as events, discharge removes the patient from the board. The fold, and the pure
 * decider (`decideTriage`: admit, set the level, discharge → events, or a refusal of TriageDecideError).
 */
import { STREAM_CATEGORIES, streamName, type Decider, type Decision } from '@vitalis/eventstore';

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

interface Folded {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
  recordedAt: string;
}

export function applyTriage(state: TriageState | null, e: Folded): TriageState | null {
  switch (e.type) {
    case 'PatientArrived': {
      const d = e.data as Extract<TriageEvent, { type: 'PatientArrived' }>['data']; // as decideTriage writes it
      return {
        patientId: d.patientId,
        version: e.streamVersion,
        esi: d.esi,
        complaint: d.complaint,
        arrivedAt: e.recordedAt,
        updatedAt: e.recordedAt,
        present: true,
      };
    }
    case 'TriageLevelSet': {
      // as decideTriage writes it; a complaint, when the event carries one, replaces the arrival's
      const d = e.data as Extract<TriageEvent, { type: 'TriageLevelSet' }>['data'] & { complaint?: string };
      return state
        ? { ...state, version: e.streamVersion, esi: d.esi, complaint: d.complaint ?? state.complaint, updatedAt: e.recordedAt }
        : null;
    }
    case 'PatientDischarged':
      return state ? { ...state, version: e.streamVersion, present: false, updatedAt: e.recordedAt } : null;
    default:
      return state ? { ...state, version: e.streamVersion } : null;
  }
}

export const foldTriage = (events: Folded[]) => events.reduce<TriageState | null>(applyTriage, null);

export const TRIAGE_EVENTS = {
  arrived: 'PatientArrived',
  levelSet: 'TriageLevelSet',
  discharged: 'PatientDischarged',
} as const;

export type TriageEvent =
  | { type: typeof TRIAGE_EVENTS.arrived; data: { patientId: string; esi: TriageState['esi']; complaint: string } }
  | { type: typeof TRIAGE_EVENTS.levelSet; data: { esi: TriageState['esi']; reason?: string } }
  | { type: typeof TRIAGE_EVENTS.discharged; data: Record<string, never> };

export type TriageCommand =
  | { type: 'admit'; patientId: string; esi: TriageState['esi']; complaint: string }
  | { type: 'setLevel'; esi: TriageState['esi']; reason?: string | undefined }
  | { type: 'discharge' };

/** Why a triage command was refused: `not-found` is a patient not on the board (never admitted, or discharged). */
export type TriageDecideError = { kind: 'not-found' } | { kind: 'already-on-board' };

/** A reason in the event's data only when one was given. */
const reasonOf = (c: { reason?: string | undefined }) => (c.reason ? { reason: c.reason } : {});

/** Whether the patient is on the board now (admitted and not discharged since). */
export const onBoard = (state: TriageState | null): state is TriageState => state?.present === true;

export function decideTriage(command: TriageCommand, state: TriageState | null): Decision<TriageEvent, TriageDecideError> {
  switch (command.type) {
    case 'admit': {
      if (onBoard(state)) return { ok: false, error: { kind: 'already-on-board' } };
      const { patientId, esi, complaint } = command;
      return { ok: true, events: [{ type: TRIAGE_EVENTS.arrived, data: { patientId, esi, complaint } }] };
    }
    case 'setLevel':
      if (!onBoard(state)) return { ok: false, error: { kind: 'not-found' } };
      return { ok: true, events: [{ type: TRIAGE_EVENTS.levelSet, data: { esi: command.esi, ...reasonOf(command) } }] };
    case 'discharge':
      if (!onBoard(state)) return { ok: false, error: { kind: 'not-found' } };
      return { ok: true, events: [{ type: TRIAGE_EVENTS.discharged, data: {} }] };
  }
}

/** The triage decider for the command handler. */
export const TRIAGE_DECIDER: Decider<TriageState | null, TriageCommand, TriageEvent, TriageDecideError> = {
  initialState: () => null,
  evolve: applyTriage,
  decide: decideTriage,
};
