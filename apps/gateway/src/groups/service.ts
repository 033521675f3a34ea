/**
 * Reading Groups of patients (wards, cohorts; FHIR Group read and search). A Group's membership
 * names patients, so it is patient data: the access policy's Patient read cell decides (a clinician,
 * reception or an admin: every Group; a patient user: only a Group whose one member is itself, so
 * it never learns who else is on a ward; a sandbox principal: none), refusals and reads audited
 * (`group.read`, `group.search`), as the patients service does for a record.
 */
import type { Pool } from '@vitalis/db';
import { notFound } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { searchGroups as findGroups, type GroupQuery, type StoredGroup } from '@vitalis/export';
import { audit, requireAccess, type Caller } from '../access/caller';

const READ = { auditAction: 'group.read', resourceType: 'Group' } as const;

/**
 * One Group, for a caller who may read every one of its members (403 otherwise, audited: a patient
 * user reads no ward it shares with others); audited `group.read`, and as a failure when there is none.
 */
export async function readGroup(pool: Pool, caller: Caller, id: string): Promise<StoredGroup> {
  const reached = await requireAccess(pool, caller, 'Patient', 'read', [], { ...READ, resourceId: id });
  const [group] = (await findGroups(pool, { ids: [id], limit: 1 })).groups;
  if (!group) {
    await audit(pool, caller, {
      action: READ.auditAction,
      outcome: 'failure',
      scope: reached.scope,
      resourceType: 'Group',
      resourceId: id,
      detail: { reason: 'not found' },
    });
    throw notFound(`There is no Group ${id}.`);
  }
  await requireAccess(pool, caller, 'Patient', 'read', group.members, { ...READ, resourceId: id });
  await audit(pool, caller, {
    action: READ.auditAction,
    scope: reached.scope,
    resourceType: 'Group',
    resourceId: id,
    detail: { members: group.members.length, via: 'fhir' },
  });
  return group;
}

/**
 * The Groups a search matches among those the caller may read whole (under the policy's `own` rule,
 * a patient user's: only Groups whose members are its own patient alone), one page; audited `group.search`.
 */
export async function searchGroups(
  pool: Pool,
  caller: Caller,
  q: Omit<GroupQuery, 'within'>,
): Promise<{ groups: StoredGroup[]; more: boolean }> {
  const reached = await requireAccess(pool, caller, 'Patient', 'read', [], { auditAction: 'group.search', resourceType: 'Group' });
  if (reached.rule === 'synthetic') return { groups: [], more: false }; // the sandbox's synthetic patients are in no Group
  const within = reached.rule === 'own' ? [must(reached.patient, "the token's patient under the own rule")] : undefined;
  const found = await findGroups(pool, { ...q, within });
  await audit(pool, caller, {
    action: 'group.search',
    scope: reached.scope,
    resourceType: 'Group',
    detail: { groups: found.groups.map((g) => g.id), via: 'fhir' },
  });
  return found;
}
