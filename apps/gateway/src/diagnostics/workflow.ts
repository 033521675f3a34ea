/**
 * What the diagnostics workflows share (orders.ts, reports.ts, report-reads.ts, critical-results.ts):
 * their dependencies, the access checks that refuse and audit, the problems a refused command is
 * answered with, and the command handler's audit callbacks for a change and a refusal.
 */
import { must } from '@vitalis/runtime';
import type { Pool, PoolClient } from '@vitalis/db';
import type { VersionConflict } from '@vitalis/eventstore';
import { conflict, type HttpProblem, notFound, preconditionFailed, problemOf } from '@vitalis/http';
import type { Redis } from '@vitalis/redis';
import type { DecideError, DiagnosticReportDecideError } from '@vitalis/records';
import { insufficientScope } from '../access/refusal';
import { audit, type Caller } from '../access/caller';
import { reach, type PolicyAction, type RefusalReason } from '../access/policy';

export interface DiagnosticsDeps {
  pool: Pool;
  redis: Redis;
  /** DIAGNOSTICS_ESCALATION_SECONDS: an unacknowledged critical result escalates this long after it was raised. */
  escalationSeconds: number;
}

/** Where a listing page ended (keyset: newest first, then by id); `t` is PostgreSQL's text of the timestamp (microseconds). */
export interface ListPosition {
  t: string;
  i: string;
}

// ---- access ----

/** Audits a refused act (its reason) and refuses it: the one 403 contract. */
export async function refuse(
  pool: Pool,
  caller: Caller,
  action: string,
  scope: string,
  resourceType: string,
  resourceId: string | undefined,
  detail: string,
  reason: RefusalReason = 'forbidden',
): Promise<never> {
  await audit(pool, caller, { action, outcome: 'failure', scope, resourceType, ...(resourceId ? { resourceId } : {}), detail: { reason } });
  // The one 403 contract (auth/oauth-errors): the scope the refused act needs, and why it was not enough.
  throw insufficientScope([scope], { detail });
}

/** The access policy's cell for an order or report act (access/policy.ts): refused and audited when it does not allow it. */
export async function requireCell<R extends 'ServiceRequest' | 'DiagnosticReport' | 'CriticalResult'>(
  pool: Pool,
  caller: Caller,
  resource: R,
  policyAction: PolicyAction<R>,
  action: string,
  resourceId?: string,
): Promise<void> {
  const decision = reach(caller.principal, resource, policyAction);
  // the audit row keeps why (a machine refused a user-only act: `no user`)
  if (!decision.allowed)
    await refuse(
      pool,
      caller,
      action,
      decision.scope,
      resource === 'CriticalResult' ? 'DiagnosticReport' : resource,
      resourceId,
      decision.detail,
      decision.reason === 'no user' ? 'no user' : 'forbidden',
    );
}

// ---- problems ----

export const unprocessable = (detail: string, errors: { path: string; message: string }[] = []) =>
  problemOf('unprocessable', detail, errors.length ? { errors } : {});

/** A refused decision as a problem: an illegal transition is a 409 naming the current state. */
export function decisionProblem(what: string, id: string, e: DecideError): HttpProblem {
  if (e.kind === 'not-found') return notFound(`${what} ${id} does not exist.`);
  if (e.kind === 'already-exists') return conflict(`${what} ${id} already exists.`);
  return conflict(`${what} ${id} is ${e.from}; it cannot become ${e.to}.`, { current_status: e.from, requested_status: e.to });
}

/** Why a command on an order or a report was refused: the deciders' refusals and the command handler's. */
export type Refusal = DiagnosticReportDecideError | VersionConflict;

/**
 * A refused command on an order or a report as a problem: the decider's refusals (decisionProblem),
 * a result that cannot be interpreted (422 with the offending Observation's path; nothing is
 * stored), a version other than If-Match's (412), a concurrent change (412 with If-Match, else 409).
 */
export function refusalProblem(what: 'Order' | 'Report', id: string, e: Refusal, expected: number | undefined): HttpProblem {
  const name = what.toLowerCase();
  switch (e.kind) {
    case 'invalid-result':
      return unprocessable(e.message, [{ path: `body.contained.${e.index}`, message: e.message }]);
    case 'version-mismatch':
      return preconditionFailed(`The ${name} is at version ${e.actual}, not ${e.expected}; read it again and retry.`);
    case 'concurrent-change':
      return expected !== undefined
        ? preconditionFailed(`The ${name} was changed concurrently; read it again and retry.`)
        : conflict(`The ${name} was changed concurrently; retry.`);
    default:
      return decisionProblem(what, id, e);
  }
}

/** The reason a refusal's audit row records; none: answered, not audited (an uninterpretable result, as a 422 before). */
export const REFUSAL_REASONS: Record<Refusal['kind'], string | undefined> = {
  'not-found': 'not found',
  'already-exists': 'refused',
  'illegal-transition': 'illegal transition',
  'invalid-result': undefined,
  'version-mismatch': 'version mismatch',
  'concurrent-change': 'concurrent change',
};

/** The command handler's `recorded` callback for a change of an order or report: its patient, the status it left, the event. */
export function auditChange(caller: Caller, action: string, resourceType: 'ServiceRequest' | 'DiagnosticReport', id: string) {
  return (tx: PoolClient, r: { before: { patientId: string; status: string } | null; decided: { type: string }[] }): Promise<void> => {
    const before = must(r.before, `${resourceType} ${id} as it was (a change needs one)`);
    const detail = { patient: before.patientId, from: before.status, type: must(r.decided[0], 'the decided event').type };
    return audit(tx, caller, { action, scope: 'write:diagnostics', resourceType, resourceId: id, detail });
  };
}

/** The command handler's `refused` callback for an order or report command: one failure row, with the refusal's reason. */
export function auditRefusal(
  pool: Pool,
  caller: Caller,
  action: string,
  resourceType: 'ServiceRequest' | 'DiagnosticReport',
  id: string,
  reasons = REFUSAL_REASONS,
) {
  return async (e: Refusal): Promise<void> => {
    const reason = reasons[e.kind];
    if (!reason) return;
    await audit(pool, caller, { action, outcome: 'failure', scope: 'write:diagnostics', resourceType, resourceId: id, detail: { reason } });
  };
}
