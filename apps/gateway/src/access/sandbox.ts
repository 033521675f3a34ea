/**
 * The sandbox data rule, once. `POST /api/v1/sandbox` hands anyone a token (read:appointments,
 * read:vitals) without registration, so a sandbox principal (and every token exchanged from it,
 * `Principal.sandbox`) must never reach real data: it sees synthetic patients and slots only, whose
 * ids carry the reserved prefix `sbx-` (generated on demand by the domains they feed:
 * vitals/synthetic.ts, vitals/synthetic-live.ts, appointments/synthetic-slots.ts; sandbox.md). The
 * prefix is reserved both ways: nobody may write data for an `sbx-` id, so real data can never be
 * smuggled to sandbox users under a synthetic id.
 *
 * The access policy (policy.ts) applies the rule: the `sandbox` kind's cells are `synthetic`
 * or `none`, and no write reaches an `sbx-` id (refusals audited with reason `sandbox`).
 * `dataSourceOf` says where an id's data comes from (the synthetic generator or the append log).
 */
import { badRequest } from '@vitalis/http';

/** Patient, practitioner and slot ids of synthetic sandbox data start with this; no real id may. */
export const SANDBOX_ID_PREFIX = 'sbx-';

export const isSandboxPatientId = (id: string): boolean => id.startsWith(SANDBOX_ID_PREFIX);

/** Where the data of these patients comes from; 400 when a request mixes synthetic and real ids. */
export function dataSourceOf(patientIds: readonly string[]): 'synthetic' | 'log' {
  const synthetic = patientIds.filter(isSandboxPatientId).length;
  if (synthetic === 0) return 'log';
  if (synthetic === patientIds.length) return 'synthetic';
  throw badRequest(
    `A subscription cannot mix synthetic sandbox patients ("${SANDBOX_ID_PREFIX}" ids) with other patients: subscribe to them separately.`,
  );
}
