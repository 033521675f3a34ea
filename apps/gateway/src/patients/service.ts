/**
 * Patient commands and queries, independent of HTTP (the MCP server calls these with a Principal).
 *
 * Writes are commands: check access → the command handler (@vitalis/eventstore handleCommand with
 * the patient decider of @vitalis/records: fold the stream, decide, append at the expected version,
 * with its audit row in the same transaction; a concurrent change → 412 with If-Match, 409 without)
 * → answer from the state folded from the stream including the new event (read-your-writes, no
 * waiting for the projector). Refusals become problems in one table (`patientRefusal`). Single-record
 * reads fold the stream too (always current, and the ETag is the stream version); search reads the
 * rm_patients projection (eventually consistent, usually within a projector tick).
 */
import { randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import type { Pool, PoolClient } from '@vitalis/db';
import { handleCommand, readStream, type StoredEvent, type VersionConflict } from '@vitalis/eventstore';
import { conflict, HttpProblem, notFound, preconditionFailed, problemOf } from '@vitalis/http';
import { news2FromLatestVitals, type News2Result } from '@vitalis/clinical';
import { allergyEntrySchema, issuesAt, NUMERIC_VITALS, type AllergyEntryInput } from '@vitalis/schemas';
import {
  foldPatient,
  PATIENT_DECIDER,
  patientStream,
  type Allergy,
  type Demographics,
  type Identifier,
  type PatientCommand,
  type PatientDecideError,
  type PatientState,
} from '@vitalis/records';
import { reserveIdentifiers } from './identifiers';
import { queryLatest } from '../vitals/history';
import { vitalsDenial } from '../vitals/service';
import { insufficientScope } from '../access/refusal';
import { access, ACCESS_POLICY, reach } from '../access/policy';
import {
  audit,
  metadataOf,
  PATIENT_READ_SCOPES,
  patientReadScope,
  patientView,
  type Caller,
  type PatientView,
  versionOfIfMatch,
} from '../access/caller';

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

/** The access policy's Patient write cell (and, for allergies, AllergyIntolerance write): 403 when refused. */
function assertWriter(caller: Caller, patientId: string | undefined, resource: 'Patient' | 'AllergyIntolerance' = 'Patient'): void {
  const decision = access(caller.principal, resource, 'write', patientId === undefined ? [] : [patientId]);
  if (!decision.allowed)
    throw insufficientScope(
      resource === 'Patient' || decision.reason === 'missing scope' ? ['write:patients'] : ['write:patients', 'read:patients'],
      { detail: decision.detail },
    );
}

const mintId = () => `pat-${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** `options.id` is for seeding known ids (pat-0001...); the API always mints one. */
export async function registerPatient(pool: Pool, caller: Caller, d: Demographics, options: { id?: string } = {}): Promise<PatientState> {
  assertWriter(caller, undefined);
  const id = options.id ?? mintId();
  try {
    const outcome = await handleCommand(
      pool,
      PATIENT_DECIDER,
      patientStream(id),
      { type: 'register', patientId: id, demographics: d },
      {
        metadata: metadataOf(caller, 'write:patients'),
        beforeAppend: (client) => holdIdentifiers(client, id, d.identifiers ?? []),
        recorded: (tx) =>
          audit(tx, caller, { action: 'patient.register', scope: 'write:patients', resourceType: 'Patient', resourceId: id }),
      },
    );
    // the stream exists, or was registered concurrently: one answer, not audited
    if (!outcome.ok) throw conflict(`Patient ${id} already exists.`);
    return must(outcome.state, 'the patient the decided events fold to');
  } catch (err) {
    if (err instanceof IdentifierTaken) {
      await audit(pool, caller, {
        action: 'patient.register',
        outcome: 'failure',
        scope: 'write:patients',
        resourceType: 'Patient',
        resourceId: id,
        detail: { reason: 'identifier in use', system: err.identifier.system },
      });
      throw err.problem();
    }
    throw err;
  }
}

/** Another patient holds one of the identifiers: the transaction is rolled back, the caller gets a 409. */
class IdentifierTaken extends Error {
  constructor(readonly identifier: Identifier) {
    super('identifier in use');
  }
  problem() {
    return conflict(`Identifier ${this.identifier.system}|${this.identifier.value} is already assigned to another patient.`);
  }
}

async function holdIdentifiers(client: PoolClient, patientId: string, identifiers: Identifier[]): Promise<void> {
  const taken = await reserveIdentifiers(client, patientId, identifiers);
  if (taken) throw new IdentifierTaken(taken);
}

/**
 * A refused change of an existing patient: its problem, and the reason its audit row records
 * (`reason` absent: the refusal is answered, not audited).
 */
function patientRefusal(
  e: PatientDecideError | VersionConflict,
  patientId: string,
  expected: number | undefined,
): { problem: HttpProblem; reason?: string } {
  switch (e.kind) {
    case 'not-found':
      return { problem: notFound(`Patient ${patientId} does not exist.`), reason: 'not found' };
    case 'already-exists':
      return { problem: conflict(`Patient ${patientId} already exists.`) };
    case 'allergy-not-found':
      return { problem: notFound(`Allergy ${e.allergyId} is not recorded for this patient.`) };
    case 'version-mismatch':
      return {
        problem: preconditionFailed(`The patient is at version ${e.actual}, not ${e.expected}; read it again and retry.`),
        reason: 'version mismatch',
      };
    case 'concurrent-change':
      return {
        problem:
          expected !== undefined
            ? preconditionFailed('The patient was changed concurrently; read it again and retry.')
            : conflict('The patient was changed concurrently; retry.'),
        reason: 'concurrent change',
      };
  }
}

/**
 * Runs one command on an existing patient at `expected` (from If-Match) or at the version just
 * read (then a concurrent change is a 409 the client may retry).
 */
async function changePatient(
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  action: string,
  scope: string,
  command: PatientCommand,
  /** Runs in the event's transaction, before it (identifier reservations). */
  beforeAppend?: (client: PoolClient) => Promise<void>,
): Promise<PatientState> {
  const expectedVersion = versionOfIfMatch(expected);
  const failure = (detail: Record<string, unknown>) =>
    audit(pool, caller, { action, outcome: 'failure', scope, resourceType: 'Patient', resourceId: patientId, detail });
  try {
    const outcome = await handleCommand(pool, PATIENT_DECIDER, patientStream(patientId), command, {
      metadata: metadataOf(caller, scope),
      expectedVersion,
      beforeAppend,
      recorded: (tx, r) =>
        audit(tx, caller, {
          action,
          scope,
          resourceType: 'Patient',
          resourceId: patientId,
          detail: { type: must(r.decided[0], 'the decided event').type },
        }),
      refused: async (e) => {
        const { reason } = patientRefusal(e, patientId, expectedVersion);
        if (reason) await failure({ reason });
      },
    });
    if (!outcome.ok) throw patientRefusal(outcome.error, patientId, expectedVersion).problem;
    return must(outcome.state, 'the patient the decided events fold to');
  } catch (err) {
    if (!(err instanceof IdentifierTaken)) throw err;
    await failure({ reason: 'identifier in use', system: err.identifier.system });
    throw err.problem();
  }
}

export function updatePatient(
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  d: Demographics,
): Promise<PatientState> {
  assertWriter(caller, patientId);
  const identifiers = d.identifiers;
  return changePatient(
    pool,
    caller,
    patientId,
    expected,
    'patient.update',
    'write:patients',
    { type: 'update', demographics: d },
    identifiers ? (client) => holdIdentifiers(client, patientId, identifiers) : undefined,
  );
}

/**
 * Allergies are clinical data: recording or removing one needs write:patients AND read:patients
 * (reception registers demographics only), i.e. admin, or a clinician client granted both.
 */
function assertAllergyWriter(caller: Caller, patientId: string): void {
  assertWriter(caller, patientId, 'AllergyIntolerance');
}

/** Where a surface's allergy fields are, for the 422's `errors[].path`: a prefix and the surface's name of a rule path. */
export interface AllergyFields {
  /** `body` (REST, FHIR) or '' (an MCP tool's arguments). */
  at: string;
  /** A rule path (`code.text`, `code.coding.0.code`, `reaction`) in the surface's terms (REST: `reaction.0.description`). */
  rename?: (path: string) => string;
}

/** Input that is not clinically plausible: 422, every field named (`errors[]`), the detail saying what to send. */
export const implausibleInput = (what: string, errors: { path: string; message: string }[]) =>
  problemOf(
    'implausible-clinical-input',
    `The ${what} is not plausible clinical input: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}.`,
    { errors },
  );

/**
 * Records an allergy from any surface (REST, FHIR create, MCP record_allergy): the access policy,
 * then THE allergy rule (@vitalis/schemas allergyEntrySchema: a SNOMED CT or RxNorm coding of the
 * right shape with a display, or plausible text; the reaction plausible text too): 422 naming the
 * field, audited as a refusal (the paths, never the text). The substance kept is the text, else the
 * first coding's display; the codings are kept with it.
 */
export async function recordAllergy(
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  input: AllergyEntryInput,
  fields: AllergyFields = { at: 'body' },
): Promise<{ patient: PatientState; allergyId: string }> {
  assertAllergyWriter(caller, patientId);
  const parsed = allergyEntrySchema.safeParse(input);
  if (!parsed.success) {
    const errors = issuesAt(fields.at, parsed.error.issues, fields.rename);
    await audit(pool, caller, {
      action: 'patient.allergy.record',
      outcome: 'failure',
      scope: 'write:patients',
      resourceType: 'Patient',
      resourceId: patientId,
      detail: { reason: 'implausible input', fields: errors.map((e) => e.path) },
    });
    throw implausibleInput('allergy', errors);
  }
  const a = parsed.data;
  const substance = a.code.text ?? must(a.code.coding?.[0], 'a coding of an allergy without text').display;
  const allergyId = `alg-${randomUUID().slice(0, 8)}`;
  const patient = await changePatient(pool, caller, patientId, expected, 'patient.allergy.record', 'write:patients', {
    type: 'recordAllergy',
    allergy: { id: allergyId, substance, coding: a.code.coding, criticality: a.criticality, reaction: a.reaction },
  });
  return { patient, allergyId };
}

export async function removeAllergy(
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  allergyId: string,
): Promise<PatientState> {
  assertAllergyWriter(caller, patientId);
  return changePatient(pool, caller, patientId, expected, 'patient.allergy.remove', 'write:patients', { type: 'removeAllergy', allergyId });
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
 * exact; `identifier`: `system|value` or `value`.
 */
export interface SearchQuery {
  id?: string | undefined;
  name?: string | undefined;
  family?: string | undefined;
  given?: string | undefined;
  gender?: string | undefined;
  birthdate?: string | undefined;
  identifier?: string | undefined;
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
export async function searchPatients(pool: Pool, caller: Caller, q: SearchQuery): Promise<{ patients: PatientState[]; more: boolean }> {
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
  if (q.id) where.push(`patient_id = ${arg(q.id)}`);
  if (q.name) where.push(`name_search LIKE ${arg(`%${likeEscaped(q.name)}%`)}`);
  if (q.family) where.push(`lower(family) LIKE ${arg(`${likeEscaped(q.family)}%`)}`);
  if (q.given) where.push(`EXISTS (SELECT 1 FROM unnest(given) AS g WHERE lower(g) LIKE ${arg(`${likeEscaped(q.given)}%`)})`);
  if (q.gender) where.push(`gender = ${arg(q.gender)}`);
  if (q.birthdate) where.push(`birth_date = ${arg(q.birthdate)}::date`);
  if (q.identifier) {
    const bar = q.identifier.indexOf('|');
    const ident = bar >= 0 ? { system: q.identifier.slice(0, bar), value: q.identifier.slice(bar + 1) } : { value: q.identifier };
    where.push(`identifiers @> ${arg(JSON.stringify([ident]))}::jsonb`);
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
