/**
 * Patient reads: one record (the stream folded: always current, its version the ETag), a past
 * version, allergies, the history of events, and search over the rm_patients projection (eventually
 * consistent), each behind the access policy's read rule (patientView), audited when refused.
 */
import { countRows, type Pool } from '@vitalis/db';
import { readStream, type StoredEvent } from '@vitalis/eventstore';
import { notFound } from '@vitalis/http';
import { news2FromLatestVitals, type News2Result } from '@vitalis/clinical';
import { NUMERIC_VITALS } from '@vitalis/schemas';
import { foldPatient, patientStream, type Allergy, type PatientState } from '@vitalis/records';
import { queryLatest } from '../vitals/history';
import { vitalsDenial } from '../vitals/service';
import { insufficientScope } from '../access/refusal';
import { access, ACCESS_POLICY, reach } from '../access/policy';
import { audit, PATIENT_READ_SCOPES, patientReadScope, patientView, type Caller, type PatientView } from '../access/caller';

export async function loadPatient(pool: Pool, patientId: string): Promise<PatientState | null> {
  return foldPatient(await readStream(pool, patientStream(patientId)));
}

export interface LatestVital {
  code: string;
  display: string;
  value: number;
  unit: string;
  effective_at: string;
}
export interface PatientRecord {
  patient: PatientState;
  view: PatientView;
  latestVitals?: LatestVital[];
  news2?: News2Result;
}

const recordDenied = () => insufficientScope(PATIENT_READ_SCOPES, { anyOf: true, detail: 'This token may not read this patient record.' });

async function requirePatient(pool: Pool, caller: Caller, patientId: string, action: string, scope: string): Promise<PatientState> {
  const p = await loadPatient(pool, patientId);
  if (!p) {
    await audit(pool, caller, {
      action,
      outcome: 'failure',
      scope,
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'not found' },
    });
    throw notFound(`Patient ${patientId} does not exist.`);
  }
  return p;
}

/** Latest numeric vitals and NEWS2, for callers holding read:vitals. */
export async function vitalsSummary(pool: Pool, patientId: string): Promise<{ latestVitals: LatestVital[]; news2: News2Result }> {
  const codes = Object.keys(NUMERIC_VITALS);
  const latest = await queryLatest(pool, patientId, codes);
  const values: Record<string, number> = {};
  const list: LatestVital[] = [];
  for (const o of latest) {
    if (!('value' in o) || typeof o.value !== 'number') continue;
    values[o.code] = o.value;
    list.push({
      code: o.code,
      display: NUMERIC_VITALS[o.code as keyof typeof NUMERIC_VITALS]?.display ?? o.code,
      value: o.value,
      unit: o.unit,
      effective_at: o.effective_at,
    });
  }
  return { latestVitals: list, news2: news2FromLatestVitals(values) };
}

/** Who may read which record (patientView), audited when refused; the view allowed otherwise. */
async function requireReadable(
  pool: Pool,
  caller: Caller,
  patientId: string,
): Promise<{ view: Exclude<PatientView, 'none'>; scope: string }> {
  const view = patientView(caller.principal, patientId);
  const scope = patientReadScope(caller.principal);
  if (view === 'none') {
    await audit(pool, caller, {
      action: 'patient.read',
      outcome: 'failure',
      scope,
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'forbidden' },
    });
    throw recordDenied();
  }
  return { view, scope };
}

/**
 * The record as it was at stream version `version` (FHIR `_history/{vid}`): the same access rule
 * and audit as the current read (detail `version`); 404 when the patient or that version does not exist.
 */
export async function getPatientVersion(pool: Pool, caller: Caller, patientId: string, version: number): Promise<PatientState> {
  const { view, scope } = await requireReadable(pool, caller, patientId);
  const events = (await readStream(pool, patientStream(patientId))).filter((e) => e.streamVersion <= version);
  const patient = events.length > 0 ? foldPatient(events) : null;
  if (!patient || patient.version !== version) {
    await audit(pool, caller, {
      action: 'patient.read',
      outcome: 'failure',
      scope,
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'not found', version },
    });
    throw notFound(`Patient ${patientId} has no version ${version}.`);
  }
  await audit(pool, caller, { action: 'patient.read', scope, resourceType: 'Patient', resourceId: patientId, detail: { view, version } });
  return patient;
}

/**
 * A patient's allergies (FHIR AllergyIntolerance): readers who see the clinical view only (read:patients;
 * a patient user its own, with patient/AllergyIntolerance.rs), audited as `patient.allergies.read`.
 */
export async function getAllergies(pool: Pool, caller: Caller, patientId: string): Promise<PatientState> {
  const decision = access(caller.principal, 'AllergyIntolerance', 'read', [patientId]);
  const scope = decision.scope;
  if (!decision.allowed) {
    await audit(pool, caller, {
      action: 'patient.allergies.read',
      outcome: 'failure',
      scope,
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'forbidden' },
    });
    throw insufficientScope(['read:patients', 'patient/AllergyIntolerance.rs'], {
      anyOf: true,
      detail: ACCESS_POLICY.AllergyIntolerance.read.refusal,
    });
  }
  const patient = await requirePatient(pool, caller, patientId, 'patient.allergies.read', scope);
  await audit(pool, caller, {
    action: 'patient.allergies.read',
    scope,
    resourceType: 'Patient',
    resourceId: patientId,
    detail: { allergies: patient.allergies.map((a) => a.id) },
  });
  return patient;
}

/**
 * One allergy by its id (FHIR AllergyIntolerance/{id}): its patient is found in the projection
 * (an allergy id names no patient), then read as getAllergies reads it. 404 when no patient holds it.
 */
export async function getAllergy(pool: Pool, caller: Caller, allergyId: string): Promise<{ patient: PatientState; allergy: Allergy }> {
  const { rows } = await pool.query<{ patient_id: string }>(`SELECT patient_id FROM rm_patients WHERE allergies @> $1::jsonb LIMIT 1`, [
    JSON.stringify([{ id: allergyId }]),
  ]);
  const patientId = rows[0]?.patient_id;
  const patient = patientId === undefined ? null : await getAllergies(pool, caller, patientId);
  const allergy = patient?.allergies.find((a) => a.id === allergyId);
  if (!patient || !allergy) throw notFound(`AllergyIntolerance ${allergyId} does not exist.`);
  return { patient, allergy };
}

export async function getPatient(pool: Pool, caller: Caller, patientId: string): Promise<PatientRecord> {
  const { view, scope } = await requireReadable(pool, caller, patientId);
  const patient = await requirePatient(pool, caller, patientId, 'patient.read', scope);
  const record: PatientRecord = { patient, view };
  if (view === 'clinical' && !vitalsDenial(caller.principal, [patientId])) Object.assign(record, await vitalsSummary(pool, patientId));
  await audit(pool, caller, {
    action: 'patient.read',
    scope,
    resourceType: 'Patient',
    resourceId: patientId,
    detail: { view, vitals: record.news2 !== undefined },
  });
  return record;
}

/**
 * The patient's events: clinical readers (read:patients) only. Events carry clinical data and who
 * changed what; a patient reads their record through the SMART patient/ scopes, not the history.
 */
export async function patientHistory(pool: Pool, caller: Caller, patientId: string): Promise<StoredEvent[]> {
  const decision = access(caller.principal, 'Patient', 'history', [patientId]);
  const scope = patientReadScope(caller.principal);
  if (!decision.allowed) {
    await audit(pool, caller, {
      action: 'patient.history',
      outcome: 'failure',
      scope,
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'forbidden' },
    });
    throw insufficientScope(['read:patients'], { detail: ACCESS_POLICY.Patient.history.refusal });
  }
  const events = await readStream(pool, patientStream(patientId));
  if (events.length === 0) throw notFound(`Patient ${patientId} does not exist.`);
  await audit(pool, caller, {
    action: 'patient.history',
    scope,
    resourceType: 'Patient',
    resourceId: patientId,
    detail: { events: events.length },
  });
  return events;
}

/**
 * `name`: a substring of given + family names; `family`, `given`: a case-insensitive prefix of the
 * family name / of any given name (FHIR string search); `id`, `gender`, `birthdate` (YYYY-MM-DD):
 * exact (`id` and `gender` also any of a list); `bornFrom`/`bornTo`: a birth date range;
 * `identifier`: `system|value` or `value`.
 */
export interface SearchQuery {
  /** One id, or any of several (FHIR `_id=a,b`). */
  id?: string | readonly string[] | undefined;
  name?: string | undefined;
  family?: string | undefined;
  given?: string | undefined;
  /** One gender, or any of several (FHIR `gender=a,b`). */
  gender?: string | readonly string[] | undefined;
  birthdate?: string | undefined;
  /** Birth date bounds [from, to) (ISO instants; a birth date counts as the instant its day starts, UTC). */
  bornFrom?: string | undefined;
  bornTo?: string | undefined;
  /** `system|value` or `value`, or any of several identifiers (FHIR `identifier=a,b`; no system: any). */
  identifier?: string | readonly { system?: string | undefined; value: string }[] | undefined;
  /** meta.lastUpdated bounds [from, to) (ISO instants). */
  updatedFrom?: string | undefined;
  updatedTo?: string | undefined;
  /** Count the matches instead (FHIR `_summary=count`): `total`, no patients. */
  countOnly?: boolean | undefined;
  limit: number;
  after?: { f: string; i: string } | undefined;
}

const likeEscaped = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

interface PatientRow {
  patient_id: string;
  version: number;
  family: string;
  given: string[];
  birth_date: string | null;
  gender: PatientState['gender'];
  identifiers: PatientState['identifiers'];
  telecom: PatientState['telecom'];
  allergies: PatientState['allergies'];
  registered_at: Date;
  updated_at: Date;
}

export function rowToState(r: PatientRow): PatientState {
  return {
    id: r.patient_id,
    version: r.version,
    family: r.family,
    given: r.given,
    birthDate: r.birth_date,
    gender: r.gender,
    identifiers: r.identifiers,
    telecom: r.telecom,
    allergies: r.allergies,
    registeredAt: r.registered_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** Search over the projection, keyset-paginated by (family, id). */
export async function searchPatients(
  pool: Pool,
  caller: Caller,
  q: SearchQuery,
): Promise<{ patients: PatientState[]; more: boolean; total?: number }> {
  const reached = reach(caller.principal, 'Patient', 'read');
  if (!reached.allowed) {
    throw insufficientScope(PATIENT_READ_SCOPES, {
      anyOf: true,
      detail: 'Searching patients needs read:patients or write:patients (a patient user: patient/Patient.rs, for their own record).',
    });
  }
  const scope = reached.scope;
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (reached.patient !== undefined) where.push(`patient_id = ${arg(reached.patient)}`);
  if (typeof q.id === 'string') where.push(`patient_id = ${arg(q.id)}`);
  else if (q.id) where.push(`patient_id = ANY(${arg(q.id)}::text[])`);
  if (q.name) where.push(`name_search LIKE ${arg(`%${likeEscaped(q.name)}%`)}`);
  if (q.family) where.push(`lower(family) LIKE ${arg(`${likeEscaped(q.family)}%`)}`);
  if (q.given) where.push(`EXISTS (SELECT 1 FROM unnest(given) AS g WHERE lower(g) LIKE ${arg(`${likeEscaped(q.given)}%`)})`);
  if (typeof q.gender === 'string') where.push(`gender = ${arg(q.gender)}`);
  else if (q.gender) where.push(`gender = ANY(${arg(q.gender)}::text[])`);
  if (q.birthdate) where.push(`birth_date = ${arg(q.birthdate)}::date`);
  if (q.bornFrom) where.push(`birth_date >= (${arg(q.bornFrom)}::timestamptz AT TIME ZONE 'UTC')`);
  if (q.bornTo) where.push(`birth_date < (${arg(q.bornTo)}::timestamptz AT TIME ZONE 'UTC')`);
  if (typeof q.identifier === 'string') {
    const bar = q.identifier.indexOf('|');
    const ident = bar >= 0 ? { system: q.identifier.slice(0, bar), value: q.identifier.slice(bar + 1) } : { value: q.identifier };
    where.push(`identifiers @> ${arg(JSON.stringify([ident]))}::jsonb`);
  } else if (q.identifier) {
    const anyOf = q.identifier.map((ident) => `identifiers @> ${arg(JSON.stringify([ident]))}::jsonb`);
    where.push(anyOf.length ? `(${anyOf.join(' OR ')})` : 'false');
  }
  if (q.updatedFrom) where.push(`updated_at >= ${arg(q.updatedFrom)}::timestamptz`);
  if (q.updatedTo) where.push(`updated_at < ${arg(q.updatedTo)}::timestamptz`);
  if (q.countOnly) {
    const total = await countRows(pool, 'rm_patients', where, args);
    await audit(pool, caller, { action: 'patient.search', scope, resourceType: 'Patient', detail: { count: total } });
    return { patients: [], more: false, total };
  }
  if (q.after) where.push(`(family, patient_id) > (${arg(q.after.f)}, ${arg(q.after.i)})`);
  const { rows } = await pool.query<PatientRow>(
    `SELECT patient_id, version, family, given, to_char(birth_date, 'YYYY-MM-DD') AS birth_date, gender, identifiers, telecom, allergies, registered_at, updated_at
       FROM rm_patients ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY family, patient_id LIMIT ${arg(q.limit + 1)}`,
    args,
  );
  const patients = rows.slice(0, q.limit).map(rowToState);
  await audit(pool, caller, {
    action: 'patient.search',
    scope,
    resourceType: 'Patient',
    detail: { results: patients.length, ids: patients.map((x) => x.id) },
  });
  return { patients, more: rows.length > q.limit };
}
