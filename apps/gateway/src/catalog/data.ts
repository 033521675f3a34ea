/**
 * The catalog: reference data, no patient data. Clinicians are demo reference data (the seed
 * creates slots for them); vital-sign codes come from schemas/src/vitals.ts with adult normal
 * ranges as the NEWS2 0-point bands (RCP 2017).
 */
import { NUMERIC_VITALS, ECG_LEAD_II, ROLE_SCOPES, SCOPES } from '@vitalis/schemas';

export const CLINICIANS = [
  { id: 'clin-001', name: 'Dr. Amara Okafor', specialty: 'General practice' },
  { id: 'clin-002', name: 'Dr. Lukas Berger', specialty: 'Cardiology' },
  { id: 'clin-003', name: 'Dr. Mei Tanaka', specialty: 'Pulmonology' },
  { id: 'clin-004', name: 'Nurse Practitioner Sam Reyes', specialty: 'Emergency medicine' },
] as const;

export const APPOINTMENT_TYPES = [
  { code: 'consultation', display: 'Consultation', minutes: 30 },
  { code: 'follow-up', display: 'Follow-up', minutes: 15 },
  { code: 'telehealth', display: 'Telehealth video visit', minutes: 20 },
] as const;

/** Adult normal ranges (NEWS2 0-point band; SpO2 scale 1). */
const NORMAL: Record<string, { low: number; high: number }> = {
  '8867-4': { low: 51, high: 90 },
  '59408-5': { low: 96, high: 100 },
  '8480-6': { low: 111, high: 219 },
  '8462-4': { low: 60, high: 90 },
  '9279-1': { low: 12, high: 20 },
  '8310-5': { low: 36.1, high: 38.0 },
};

export const vitalCodes = () => [
  ...Object.values(NUMERIC_VITALS).map((v) => ({
    code: v.code, system: v.system, display: v.display, unit: v.unit, possible: { min: v.min, max: v.max },
    ...(NORMAL[v.code] ? { normal: NORMAL[v.code] } : {}),
  })),
  { code: ECG_LEAD_II.code, system: ECG_LEAD_II.system, display: ECG_LEAD_II.display, unit: ECG_LEAD_II.unit, waveform: true },
];

export const scopesAndRoles = () => ({
  scopes: Object.entries(SCOPES).map(([name, description]) => ({ name, description })),
  roles: Object.entries(ROLE_SCOPES).map(([role, scopes]) => ({ role, scopes })),
});
