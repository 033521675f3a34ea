/**
 * Who may read or publish a patient's vitals (`vitalsDenial`: the access policy's Observation cells,
 * a patient user only their own patient id), refused and audited; and the one audit row of every
 * vitals read, stream, replay and write (ids and counts, never values).
 */
import type { Pool } from '@vitalis/db';
import { type Scope } from '@vitalis/schemas';
import type { Principal } from '../access/principal';
import { insufficientScope } from '../access/refusal';
import { audit, type Caller } from '../access/caller';
import { access, type RefusalReason } from '../access/policy';

/** Where a read came from (audit detail `via`). */
export type VitalsChannel = 'rest' | 'fhir' | 'mcp' | 'sse' | 'websocket';
export type VitalsScope = Extract<Scope, 'read:vitals' | 'write:vitals'>;

// ---------------------------------------------------------------------------------------------
// Access

export interface VitalsDenial {
  /** The audit trail's reason. */
  reason: RefusalReason;
  /** The patients refused (every one asked for when the scope or the role is missing). */
  patients: string[];
  /** The problem's detail. */
  detail: string;
}

/**
 * The access policy's Observation cells (access/policy.ts), for vitals: `read:vitals` reads,
 * `write:vitals` publishes. Undefined when every patient in `patientIds` is allowed.
 */
export function vitalsDenial(p: Principal, patientIds: readonly string[], scope: VitalsScope = 'read:vitals'): VitalsDenial | undefined {
  const decision = access(p, 'Observation', scope === 'write:vitals' ? 'write' : 'read', patientIds);
  return decision.allowed ? undefined : { reason: decision.reason, patients: decision.patients, detail: decision.detail };
}

/** The rule as a guard (403), for places that have nothing to audit (a session restored for its own subject). */
export function assertMayAccessVitals(p: Principal, patientIds: readonly string[], scope: VitalsScope = 'read:vitals'): void {
  const denied = vitalsDenial(p, patientIds, scope);
  if (denied) throw insufficientScope([scope], { detail: denied.detail });
}

/** The rule with its audit: one failure row per refused patient, then 403. */
export async function requireVitalsAccess(
  pool: Pool,
  caller: Caller,
  patientIds: readonly string[],
  e: { action: string; via: VitalsChannel; scope?: VitalsScope },
): Promise<void> {
  const scope = e.scope ?? 'read:vitals';
  const denied = vitalsDenial(caller.principal, patientIds, scope);
  if (!denied) return;
  await Promise.all(
    denied.patients.map((patientId) =>
      auditVitals(pool, caller, { action: e.action, outcome: 'failure', scope, patientId, detail: { reason: denied.reason, via: e.via } }),
    ),
  );
  throw insufficientScope([scope], { detail: denied.detail });
}

// ---------------------------------------------------------------------------------------------
// Audit

export interface VitalsAuditEntry {
  action: string;
  outcome?: 'success' | 'failure';
  scope?: VitalsScope;
  /** The patient read (resource Patient/<id>); absent for a write batch (resource Observation). */
  patientId?: string;
  detail: Record<string, unknown>;
}

/**
 * The one audit helper for vitals, with the one failure policy of access/caller `audit`: a row
 * that cannot be written throws a 503 problem, so nothing is served or published unrecorded.
 */
export function auditVitals(pool: Pool, caller: Caller, e: VitalsAuditEntry): Promise<void> {
  return audit(pool, caller, {
    action: e.action,
    outcome: e.outcome ?? 'success',
    scope: e.scope ?? 'read:vitals',
    resourceType: e.patientId !== undefined ? 'Patient' : 'Observation',
    resourceId: e.patientId,
    detail: e.detail,
  });
}
