/**
 * Who is a Practitioner, once (issue 33 item 5): the catalog's clinicians (bookable people,
 * reference data) and the staff users (every user not linked to a patient record, auth/users.ts
 * isStaffUser; fhirUserOf names each one Practitioner/{user id}, so every signed-in staff user's
 * `fhirUser` resolves here). Clinician ids (`clin-…`) come first where an id were both.
 *
 * What a caller sees (the access policy's Practitioner read cell, access/policy.ts): the clinicians
 * with any token; the staff with the staff directory (doctors, nurses, reception, admins, trusted
 * backends: read:patients or write:patients); its own Practitioner with the SMART `fhirUser` scope
 * (ownFhirUser), whatever its role. A patient, a device or an open client sees no staff member.
 * Not audited: no patient data, as the catalog, Schedule and Slot (docs/fhir.md).
 */
import type { z } from 'zod';
import type { Pool } from '@vitalis/db';
import type { Scope } from '@vitalis/schemas';
import { notFound } from '@vitalis/http';
import { findStaffUsers } from '../auth/users';
import type { Caller } from '../access/caller';
import { ownFhirUser, reach } from '../access/policy';
import { insufficientScope } from '../access/refusal';
import { CLINICIANS } from './data';
import { practitionerOut, toFhirPractitioner, toFhirStaffPractitioner } from './fhir';

export type FhirPractitioner = z.infer<typeof practitionerOut>;

/** The staff a caller may see: every staff user (the staff directory) or only `only` (itself, its fhirUser; or none), and why not all. */
interface StaffReach {
  all: boolean;
  only: string[];
  refusal?: { scope: Scope; detail: string };
}

function staffReach(caller: Caller): StaffReach {
  const r = reach(caller.principal, 'Practitioner', 'read');
  if (r.allowed) return { all: true, only: [] };
  const own = ownFhirUser(caller.principal);
  return { all: false, only: own === undefined ? [] : [own], refusal: { scope: r.scope, detail: r.detail } };
}

const isClinicianId = (id: string) => CLINICIANS.some((c) => c.id === id);

/** One Practitioner: a clinician of the catalog (any token), or a staff user the caller may see (403 otherwise, before any lookup). */
export async function readPractitioner(pool: Pool, caller: Caller, id: string): Promise<FhirPractitioner> {
  const clinician = CLINICIANS.find((c) => c.id === id);
  if (clinician) return toFhirPractitioner(clinician);
  const staff = staffReach(caller);
  if (!staff.all && !staff.only.includes(id) && staff.refusal)
    throw insufficientScope([staff.refusal.scope], { detail: staff.refusal.detail });
  const [user] = await findStaffUsers(pool, { ids: [id], limit: 1 });
  if (!user) throw notFound(`Practitioner ${id} does not exist.`);
  return toFhirStaffPractitioner(user);
}

/** What a Practitioner search asks: any of `ids` (null: none can match), a name substring, after `after` by id. */
export interface PractitionerQuery {
  ids?: string[] | null | undefined;
  name?: string | undefined;
  after?: string | undefined;
  limit: number;
}

/**
 * The Practitioners a search matches, by id (clinicians and the staff the caller may see merged),
 * one page and whether more follow. Staff the caller may not see are left out, never refused.
 */
export async function searchPractitioners(
  pool: Pool,
  caller: Caller,
  q: PractitionerQuery,
): Promise<{ practitioners: FhirPractitioner[]; more: boolean }> {
  const wanted = q.ids;
  if (wanted === null) return { practitioners: [], more: false };
  const name = q.name?.toLowerCase();
  const clinicians = CLINICIANS.filter(
    (c) =>
      (wanted === undefined || wanted.includes(c.id)) &&
      (name === undefined || c.name.toLowerCase().includes(name)) &&
      (q.after === undefined || c.id > q.after),
  ).map((c) => toFhirPractitioner(c) as FhirPractitioner);
  const staff = staffReach(caller);
  const ids = staff.all ? wanted : (wanted ?? staff.only).filter((id) => staff.only.includes(id));
  const users = ids?.length === 0 ? [] : await findStaffUsers(pool, { ids, name: q.name, after: q.after, limit: q.limit + 1 });
  const all = [...clinicians, ...users.filter((u) => !isClinicianId(u.userId)).map(toFhirStaffPractitioner)].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return { practitioners: all.slice(0, q.limit), more: all.length > q.limit };
}
