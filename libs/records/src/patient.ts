/**
 * The patient aggregate: its events, the pure fold that turns a stream into state, and the pure
 * decider (`decidePatient`: a command and the state → the events, or a refusal of PatientDecideError)
 * the gateway's commands run through the command handler (@vitalis/eventstore handleCommand). The
 * projector's rm_patients read model is the same fold, so live and rebuilt read models cannot disagree.
 */
import { STREAM_CATEGORIES, streamName, type Decider, type Decision } from '@vitalis/eventstore';

export const patientStream = (patientId: string) => streamName(STREAM_CATEGORIES.patient, patientId);

export interface Identifier {
  system: string;
  value: string;
}
/** A code naming an allergy's substance (SNOMED CT or RxNorm: @vitalis/schemas allergyEntrySchema says which and what shape). */
export interface AllergyCoding {
  system: string;
  code: string;
  display: string;
}
/** `substance`: the text a person reads (the entry's text, else its first coding's display); `coding` when it was coded. */
export interface Allergy {
  id: string;
  substance: string;
  coding?: AllergyCoding[] | undefined;
  criticality: 'low' | 'high' | 'unable-to-assess';
  reaction?: string | undefined;
  recordedAt: string;
}

export interface PatientState {
  id: string;
  version: number;
  family: string;
  given: string[];
  birthDate: string | null;
  gender: 'male' | 'female' | 'other' | 'unknown' | null;
  identifiers: Identifier[];
  telecom: { system: string; value: string }[];
  allergies: Allergy[];
  registeredAt: string;
  updatedAt: string;
}

export interface Demographics {
  family: string;
  given: string[];
  birthDate?: string | null | undefined;
  gender?: PatientState['gender'] | undefined;
  identifiers?: Identifier[] | undefined;
  telecom?: { system: string; value: string }[] | undefined;
}

interface Folded {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
  recordedAt: string;
}

/** Applies one event; unknown event types (e.g. alerts other teams append) are ignored. */
export function applyPatient(state: PatientState | null, event: Folded): PatientState | null {
  const at = event.recordedAt;
  const d = event.data;
  if (event.type === 'PatientRegistered') {
    const r = d as unknown as { patientId: string } & Demographics;
    return {
      id: r.patientId,
      version: event.streamVersion,
      family: r.family,
      given: r.given ?? [],
      birthDate: r.birthDate ?? null,
      gender: r.gender ?? null,
      identifiers: r.identifiers ?? [],
      telecom: r.telecom ?? [],
      allergies: [],
      registeredAt: at,
      updatedAt: at,
    };
  }
  if (!state) return null;
  const next = { ...state, version: event.streamVersion };
  switch (event.type) {
    case 'PatientUpdated': {
      const u = d as Partial<Demographics>;
      return {
        ...next,
        family: u.family ?? state.family,
        given: u.given ?? state.given,
        birthDate: u.birthDate !== undefined ? u.birthDate : state.birthDate,
        gender: u.gender !== undefined ? u.gender : state.gender,
        identifiers: u.identifiers ?? state.identifiers,
        telecom: u.telecom ?? state.telecom,
        updatedAt: at,
      };
    }
    case 'AllergyRecorded': {
      const a = d as Omit<Allergy, 'recordedAt'>;
      return { ...next, allergies: [...state.allergies.filter((x) => x.id !== a.id), { ...a, recordedAt: at }], updatedAt: at };
    }
    case 'AllergyRemoved':
      return { ...next, allergies: state.allergies.filter((x) => x.id !== (d as { id: string }).id), updatedAt: at };
    default:
      return next; // other event types on the stream advance the version only
  }
}

export function foldPatient(events: Folded[]): PatientState | null {
  return events.reduce<PatientState | null>(applyPatient, null);
}

export const PATIENT_EVENTS = {
  registered: 'PatientRegistered',
  updated: 'PatientUpdated',
  allergyRecorded: 'AllergyRecorded',
  allergyRemoved: 'AllergyRemoved',
} as const;

/** An allergy as its event records it (the time recorded is the event's). */
export type RecordedAllergy = Omit<Allergy, 'recordedAt'>;

export type PatientEvent =
  | { type: typeof PATIENT_EVENTS.registered; data: { patientId: string } & Demographics }
  | { type: typeof PATIENT_EVENTS.updated; data: Demographics }
  | { type: typeof PATIENT_EVENTS.allergyRecorded; data: RecordedAllergy }
  | { type: typeof PATIENT_EVENTS.allergyRemoved; data: { id: string } };

export type PatientCommand =
  | { type: 'register'; patientId: string; demographics: Demographics }
  | { type: 'update'; demographics: Demographics }
  | { type: 'recordAllergy'; allergy: RecordedAllergy }
  | { type: 'removeAllergy'; allergyId: string };

/** Why a patient command was refused (the gateway maps each to a problem). */
export type PatientDecideError = { kind: 'not-found' } | { kind: 'already-exists' } | { kind: 'allergy-not-found'; allergyId: string };

/** The allergy's event data: optional fields only when given. */
function allergyData(a: RecordedAllergy): RecordedAllergy {
  return {
    id: a.id,
    substance: a.substance,
    ...(a.coding ? { coding: a.coding } : {}),
    criticality: a.criticality,
    ...(a.reaction ? { reaction: a.reaction } : {}),
  };
}

export function decidePatient(command: PatientCommand, state: PatientState | null): Decision<PatientEvent, PatientDecideError> {
  if (command.type === 'register') {
    if (state) return { ok: false, error: { kind: 'already-exists' } };
    return { ok: true, events: [{ type: PATIENT_EVENTS.registered, data: { patientId: command.patientId, ...command.demographics } }] };
  }
  if (!state) return { ok: false, error: { kind: 'not-found' } };
  switch (command.type) {
    case 'update':
      return { ok: true, events: [{ type: PATIENT_EVENTS.updated, data: { ...command.demographics } }] };
    case 'recordAllergy':
      return { ok: true, events: [{ type: PATIENT_EVENTS.allergyRecorded, data: allergyData(command.allergy) }] };
    case 'removeAllergy':
      if (!state.allergies.some((a) => a.id === command.allergyId)) {
        return { ok: false, error: { kind: 'allergy-not-found', allergyId: command.allergyId } };
      }
      return { ok: true, events: [{ type: PATIENT_EVENTS.allergyRemoved, data: { id: command.allergyId } }] };
  }
}

/** The patient decider for the command handler. */
export const PATIENT_DECIDER: Decider<PatientState | null, PatientCommand, PatientEvent, PatientDecideError> = {
  initialState: () => null,
  evolve: applyPatient,
  decide: decidePatient,
};
