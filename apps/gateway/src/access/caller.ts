/**
 * Shared by the event-sourced features (patients, appointments, triage): who may see what, the
 * audit helper, ETags and event metadata from a Principal. Domain services take a Principal (not
 * a request) so the MCP server can call them too.
 */
import { recordAudit } from '@vitalis/audit';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@vitalis/db';
import type { EventMetadata } from '@vitalis/eventstore';
import { preconditionFailed, problemOf, serviceUnavailable } from '@vitalis/http';
import type { Scope } from '@vitalis/schemas';
import type { Principal } from './principal';
import { insufficientScope } from './refusal';
import { access, ACCESS_POLICY, reach, type PolicyAction, type PolicyResource, type Reach } from './policy';

export interface Caller {
  principal: Principal;
  requestId?: string | undefined;
  ip?: string | undefined;
}

export const preconditionRequired = (detail: string) => problemOf('precondition-required', detail);

/**
 * What a caller may see of a patient record, from the access policy (access/policy.ts):
 *  - 'clinical': it may read the record and its allergies (Patient read + AllergyIntolerance read:
 *    read:patients; a patient user its own, with patient/Patient.rs and patient/AllergyIntolerance.rs);
 *    with Observation read it also gets the latest vitals and NEWS2;
 *  - 'demographics': the record only (reception's write:patients; a patient user's patient/Patient.rs alone);
 *  - 'none': anything else, and a patient user reading someone else's record.
 */
export type PatientView = 'clinical' | 'demographics' | 'none';
/** The scopes the Patient read cell names: one of them is needed to see anything of a patient record. */
export const PATIENT_READ_SCOPES: Scope[] = [
  ...new Set<Scope>([...ACCESS_POLICY.Patient.read.scopes, ...ACCESS_POLICY.Patient.read.patientScopes]),
];
export function patientView(p: Principal, patientId: string): PatientView {
  if (!access(p, 'Patient', 'read', [patientId]).allowed) return 'none';
  return access(p, 'AllergyIntolerance', 'read', [patientId]).allowed ? 'clinical' : 'demographics';
}

/** The scope that authorised a patient read (recorded as the audit trail's "why"). */
export const patientReadScope = (p: Principal): Scope => reach(p, 'Patient', 'read').scope;

export function metadataOf(caller: Caller, scope: string): EventMetadata {
  return { actor: caller.principal.subject, client: caller.principal.clientId, correlationId: caller.requestId, scope };
}

export interface AuditEntry {
  action: string;
  outcome?: 'success' | 'failure';
  scope: string;
  resourceType: string;
  resourceId?: string | undefined;
  detail?: Record<string, unknown>;
}

/** One audit row, on the pool (committed at once) or on a transaction's client (committed with it). */
export async function audit(db: Queryable, caller: Caller, e: AuditEntry): Promise<void> {
  try {
    await recordAudit(db, {
      action: e.action,
      outcome: e.outcome ?? 'success',
      clientId: caller.principal.clientId,
      subject: caller.principal.subject,
      scope: e.scope,
      resourceType: e.resourceType,
      resourceId: e.resourceId,
      requestId: caller.requestId,
      ip: caller.ip,
      detail: e.detail ?? {},
    });
  } catch {
    // No audit row, no answer: patient data is never served unrecorded.
    throw serviceUnavailable('The access could not be recorded in the audit trail; try again.');
  }
}

/**
 * The access policy's cell for these patients (none: the act as a whole), as a guard: a refusal is
 * audited (one row, reason and the refused patient) and answered 403 with the scope the act needs.
 */
export async function requireAccess<R extends PolicyResource>(
  pool: Pool,
  caller: Caller,
  resource: R,
  action: PolicyAction<R>,
  patientIds: readonly string[],
  e: { auditAction: string; resourceType?: string; resourceId?: string },
): Promise<Reach> {
  const decision = access(caller.principal, resource, action, patientIds);
  if (decision.allowed) return decision;
  const resourceId = e.resourceId ?? decision.patients[0];
  await audit(pool, caller, {
    action: e.auditAction,
    outcome: 'failure',
    scope: decision.scope,
    resourceType: e.resourceType ?? 'Patient',
    ...(resourceId !== undefined ? { resourceId } : {}),
    detail: { reason: decision.reason },
  });
  throw insufficientScope([decision.scope], { detail: decision.detail });
}

/**
 * A change and its audit row in ONE transaction (security finding 11): `write` runs first, then the
 * row of `entry(result)`, last (it holds the audit chain's lock until COMMIT). An audit row that
 * cannot be written rolls the change back (503): no change is ever stored unrecorded. Refusals
 * (nothing changed) are audited on the pool, after the rollback, as reads are.
 */
export function auditedWrite<T>(
  pool: Pool,
  caller: Caller,
  write: (client: PoolClient) => Promise<T>,
  entry: (result: T) => AuditEntry,
): Promise<T> {
  return withTransaction(pool, async (client) => {
    const result = await write(client);
    await audit(client, caller, entry(result));
    return result;
  });
}

/** Strong ETag = the stream version. */
export const etag = (version: number) => `"${version}"`;

/** Parses If-Match into an expected version; '*' = any existing version. */
export function expectedFromIfMatch(header: string | undefined, required: boolean): number | '*' | undefined {
  if (header === undefined || header.trim() === '') {
    if (required) throw preconditionRequired('This update needs If-Match with the ETag of the version you read (optimistic concurrency).');
    return undefined;
  }
  if (header.trim() === '*') return '*';
  const m = /^(?:W\/)?"(\d{1,9})"$/.exec(header.trim());
  if (!m) throw preconditionFailed('If-Match does not name a version of this resource.');
  return Number(m[1]);
}

/** The stream version an If-Match names, as the command handler takes it: `*` (any version) and no If-Match both name none. */
export const versionOfIfMatch = (expected: number | '*' | undefined): number | undefined =>
  typeof expected === 'number' ? expected : undefined;
