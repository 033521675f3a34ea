/**
 * The patient aggregate: its events and the pure fold that turns a stream into state. Used by the
 * gateway (commands answer from the folded stream: read-your-writes) and by the projector (the
 * rm_patients read model is the same fold), so live and rebuilt read models cannot disagree.
 */
import { STREAM_CATEGORIES, streamName } from '@vitalis/eventstore';

export const patientStream = (patientId: string) => streamName(STREAM_CATEGORIES.patient, patientId);

export interface Identifier { system: string; value: string }
/** A code naming an allergy's substance (SNOMED CT or RxNorm: @vitalis/schemas allergyEntrySchema says which and what shape). */
export interface AllergyCoding { system: string; code: string; display: string }
/** `substance`: the text a person reads (the entry's text, else its first coding's display); `coding` when it was coded. */
export interface Allergy { id: string; substance: string; coding?: AllergyCoding[] | undefined; criticality: 'low' | 'high' | 'unable-to-assess'; reaction?: string | undefined; recordedAt: string }

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

interface Folded { type: string; data: Record<string, unknown>; streamVersion: number; recordedAt: string }

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
