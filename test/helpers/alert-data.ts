/**
 * An alert event's data as the ingest's live stage writes it (@vitalis/live AlertData), for the
 * tests that append alert events themselves: a high-priority latching condition triggered by an
 * SpO2 reading of `patient`'s oximeter at `seq` (its effective time `seq` seconds into 2026).
 */
import { randomUUID } from 'node:crypto';
import type { AlertData } from '@vitalis/live';

export function alertData(patient: string, rule: string, state: AlertData['state'], seq: number, offset: number): AlertData {
  return {
    alert_id: randomUUID(),
    rule,
    state,
    patient_id: patient,
    priority: 'high',
    severity: 'high',
    kind: 'physiological',
    latching: true,
    label: rule,
    message: `${rule} ${state}`,
    value: 85,
    triggered_by: {
      partition: 3,
      offset,
      device_id: `${patient}-ox`,
      seq,
      code: '59408-5',
      effective_at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    },
    flag: { resourceType: 'Flag' },
  };
}
