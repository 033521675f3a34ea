/** Output shapes shared by several tools (flat, agent-friendly; FHIR stays on the REST surface). */
import { z } from 'zod';
import type { PatientState, SlotState, TriageState } from '@vitalis/records';
import type { News2Result } from '@vitalis/clinical';
import type { LatestVital } from '../../patients/service';

export const allergyShape = z.object({
  id: z.string(),
  substance: z.string(),
  coding: z
    .array(z.object({ system: z.string(), code: z.string(), display: z.string() }))
    .optional()
    .describe('SNOMED CT or RxNorm codings of the substance, when recorded with one'),
  criticality: z.enum(['low', 'high', 'unable-to-assess']),
  reaction: z.string().optional(),
  recorded_at: z.string(),
});

export const patientShape = z.object({
  id: z.string(),
  version: z.number().int(),
  name: z.string().describe('Given names then family name'),
  family: z.string(),
  given: z.array(z.string()),
  birth_date: z.string().nullable(),
  gender: z.enum(['male', 'female', 'other', 'unknown']).nullable(),
  identifiers: z.array(z.object({ system: z.string(), value: z.string() })),
  allergies: z.array(allergyShape).optional().describe('Only for clinical readers (read:patients, or the patient themselves)'),
});

export const allergiesOut = (p: PatientState): z.infer<typeof allergyShape>[] =>
  p.allergies.map((a) => ({
    id: a.id,
    substance: a.substance,
    ...(a.coding?.length ? { coding: a.coding.map(({ system, code, display }) => ({ system, code, display })) } : {}),
    criticality: a.criticality,
    ...(a.reaction ? { reaction: a.reaction } : {}),
    recorded_at: a.recordedAt,
  }));

/** `clinical` = the caller may see allergies (access/caller patientView): search results carry them per patient. */
export function patientOut(p: PatientState, clinical: boolean): z.infer<typeof patientShape> {
  return {
    id: p.id,
    version: p.version,
    name: [...p.given, p.family].join(' '),
    family: p.family,
    given: p.given,
    birth_date: p.birthDate,
    gender: p.gender,
    identifiers: p.identifiers,
    ...(clinical ? { allergies: allergiesOut(p) } : {}),
  };
}

export const latestVitalShape = z.object({
  code: z.string(),
  display: z.string(),
  value: z.number(),
  unit: z.string(),
  effective_at: z.string(),
});
export const news2Shape = z.looseObject({ score: z.number(), risk: z.string(), complete: z.boolean() });

export const latestOut = (l: LatestVital) => ({
  code: l.code,
  display: l.display,
  value: l.value,
  unit: l.unit,
  effective_at: l.effective_at,
});
export const news2Out = (n: News2Result) => ({ ...n }) as z.infer<typeof news2Shape>;

export const slotShape = z.object({
  slot_id: z.string(),
  clinician_id: z.string(),
  appointment_type: z.string(),
  start: z.string(),
  end: z.string(),
  status: z.enum(['free', 'busy']),
});
export const slotOut = (s: SlotState) => ({
  slot_id: s.id,
  clinician_id: s.clinicianId,
  appointment_type: s.appointmentType,
  start: s.start,
  end: s.end,
  status: s.status,
});

export const appointmentShape = z.object({
  appointment_id: z.string(),
  status: z.enum(['booked', 'cancelled']),
  slot_id: z.string(),
  patient_id: z.string().nullable(),
  clinician_id: z.string(),
  appointment_type: z.string(),
  start: z.string(),
  end: z.string(),
  reason: z.string().nullable(),
});
export const appointmentOut = (s: SlotState, status: 'booked' | 'cancelled') => ({
  appointment_id: s.appointmentId ?? '',
  status,
  slot_id: s.id,
  patient_id: s.patientId,
  clinician_id: s.clinicianId,
  appointment_type: s.appointmentType,
  start: s.start,
  end: s.end,
  reason: s.reason,
});

export const triageEntryShape = z.object({
  patient_id: z.string(),
  version: z.number().int(),
  esi: z.number().int().min(1).max(5),
  complaint: z.string(),
  arrived_at: z.string(),
  updated_at: z.string(),
});
export const triageOut = (t: TriageState) => ({
  patient_id: t.patientId,
  version: t.version,
  esi: t.esi,
  complaint: t.complaint,
  arrived_at: t.arrivedAt,
  updated_at: t.updatedAt,
});

export const observationShape = z.looseObject({
  patient_id: z.string(),
  device_id: z.string(),
  seq: z.number(),
  effective_at: z.string(),
  code: z.string(),
  unit: z.string(),
  value: z.number().optional(),
  waveform: z.object({ origin: z.number(), period_ms: z.number(), samples: z.array(z.number()) }).optional(),
});
