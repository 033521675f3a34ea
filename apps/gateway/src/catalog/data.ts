/**
 * The catalog: reference data, no patient data. Clinicians are demo reference data (the seed
 * creates slots for them); vital-sign codes come from schemas/src/vitals.ts with adult normal
 * ranges as the NEWS2 0-point bands (RCP 2017), read from the NEWS2 table in @vitalis/clinical.
 */
import { news2ZeroBand, NEWS2_SCALE_BY_VITAL_CODE } from '@vitalis/clinical';
import { NUMERIC_VITALS, ECG_LEAD_II, ROLE_SCOPES, SCOPES, VITAL_CODE, type NumericVitalCode } from '@vitalis/schemas';

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

/**
 * Adult normal range of a code: its NEWS2 0-point band (SpO2 scale 1), an open end closed by the
 * plausible range (SpO2 ≥ 96 → 96–100). Diastolic pressure is not in NEWS2: the conventional
 * adult range.
 */
function normalRange(code: NumericVitalCode): { low: number; high: number } | undefined {
  if (code === VITAL_CODE.diastolic) return { low: 60, high: 90 };
  const scale = NEWS2_SCALE_BY_VITAL_CODE[code];
  if (!scale) return undefined;
  const band = news2ZeroBand(scale);
  return { low: band.low ?? NUMERIC_VITALS[code].min, high: band.high ?? NUMERIC_VITALS[code].max };
}

export const vitalCodes = () => [
  ...Object.values(NUMERIC_VITALS).map((v) => ({
    code: v.code,
    system: v.system,
    display: v.display,
    unit: v.unit,
    possible: { min: v.min, max: v.max },
    ...(normalRange(v.code) ? { normal: normalRange(v.code) } : {}),
  })),
  { code: ECG_LEAD_II.code, system: ECG_LEAD_II.system, display: ECG_LEAD_II.display, unit: ECG_LEAD_II.unit, waveform: true },
];

export const scopesAndRoles = () => ({
  scopes: Object.entries(SCOPES).map(([name, description]) => ({ name, description })),
  roles: Object.entries(ROLE_SCOPES).map(([role, scopes]) => ({ role, scopes })),
});
