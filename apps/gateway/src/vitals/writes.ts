/**
 * Vitals writes (POST /api/v1/vitals): the access rule for every patient in a batch and its one
 * audit row, before anything is published.
 */
import type { Pool } from '@vitalis/db';
import { type VitalsObservation } from '@vitalis/schemas';
import { type Caller } from '../access/caller';
import { type VitalsChannel, requireVitalsAccess, auditVitals } from './access';

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * A batch about to be published (POST /api/v1/vitals): the access rule for every patient in it
 * (write:vitals; a patient user only their own id), then one `vitals.write` row for the request
 * with ids and counts (observations, patients, devices), never values. Call it before publishing:
 * a batch that cannot be audited is refused (503) and nothing is published.
 */
export async function recordVitalsWrite(
  pool: Pool,
  caller: Caller,
  observations: readonly VitalsObservation[],
  via: VitalsChannel,
): Promise<void> {
  const patients = [...new Set(observations.map((o) => o.patient_id))].sort();
  await requireVitalsAccess(pool, caller, patients, { action: 'vitals.write', via, scope: 'write:vitals' });
  const devices = [...new Set(observations.map((o) => o.device_id))].sort();
  await auditVitals(pool, caller, {
    action: 'vitals.write',
    scope: 'write:vitals',
    detail: { via, observations: observations.length, patients, devices },
  });
}

/** The publish of an audited batch failed (the client gets a 503 and retries the same batch). */
export function recordVitalsWriteFailed(
  pool: Pool,
  caller: Caller,
  observations: number,
  reason: string,
  via: VitalsChannel,
): Promise<void> {
  return auditVitals(pool, caller, {
    action: 'vitals.write',
    outcome: 'failure',
    scope: 'write:vitals',
    detail: { via, observations, reason },
  });
}
