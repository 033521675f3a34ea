/**
 * The access policy as a table: for a resource type and an action, what each kind of principal
 * may reach. A rule is `none` (nothing), `own` (only the patient the token names: a patient user's
 * own record) or `all`. A principal's kinds are its roles (a user's role, or the role an operator
 * gave a client), or `no-role` (an openly registered client, a sandbox principal).
 *
 * Two rules hold for every cell, here and not in the services:
 *  - `own` needs a patient in the token: a patient-role client acting for itself (client
 *    credentials, no user, no patient_id) may act for no patient at all;
 *  - a token that names a patient is held to that patient, whatever its roles allow.
 *
 * The scope check stays the route guard's (a cell never grants a scope the token lacks); the table
 * says which patients' data a holder of the scope reaches. Resource types move here from their
 * services one by one (issue 30); today: Appointment (who booked a slot, and why, and booking for a
 * patient). A resource type or action not in the table is `none`.
 */
import type { Role } from '@vitalis/schemas';
import type { Principal } from '../auth/route-auth';

export type AccessRule = 'none' | 'own' | 'all';
export type PrincipalKind = Role | 'no-role';
type Row = Record<PrincipalKind, AccessRule>;

export const ACCESS_POLICY = {
  Appointment: {
    /** Read a booking (its patient and reason); without it a caller sees slot availability only. */
    read: { doctor: 'all', nurse: 'all', reception: 'all', admin: 'all', system: 'all', patient: 'own', device: 'none', lab: 'none', 'no-role': 'none' },
    /** Book, cancel or reschedule for a patient (with write:appointments). */
    write: { doctor: 'all', nurse: 'none', reception: 'all', admin: 'none', system: 'all', patient: 'own', device: 'none', lab: 'none', 'no-role': 'none' },
  },
} as const satisfies Record<string, Record<string, Row>>;

export type PolicyResource = keyof typeof ACCESS_POLICY;
export type PolicyAction<R extends PolicyResource> = keyof (typeof ACCESS_POLICY)[R];

const RANK: Record<AccessRule, number> = { none: 0, own: 1, all: 2 };

/** The rule for `p` on `resource`/`action`: the widest of its kinds' cells, then the two rules above. */
export function accessRule<R extends PolicyResource>(p: Principal, resource: R, action: PolicyAction<R>): AccessRule {
  const row = ACCESS_POLICY[resource][action] as Row;
  const kinds: PrincipalKind[] = p.roles.length > 0 ? (p.roles as Role[]) : ['no-role'];
  let rule: AccessRule = 'none';
  for (const kind of kinds) if (RANK[row[kind] ?? 'none'] > RANK[rule]) rule = row[kind] ?? 'none';
  if (p.patientId !== undefined) return rule === 'none' ? 'none' : 'own';
  return rule === 'own' ? 'none' : rule;
}

/** Whether `p` may reach patient `patientId`'s `resource` under `action`. */
export function mayReach<R extends PolicyResource>(p: Principal, resource: R, action: PolicyAction<R>, patientId: string | null | undefined): boolean {
  const rule = accessRule(p, resource, action);
  return rule === 'all' || (rule === 'own' && patientId !== null && patientId !== undefined && patientId === p.patientId);
}
