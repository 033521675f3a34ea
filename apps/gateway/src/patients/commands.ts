/**
 * Patient commands: register, update, record and remove an allergy. Check access → the command
 * handler (@vitalis/eventstore handleCommand with the patient decider of @vitalis/records) → answer
 * from the state folded from the stream including the new event; refusals become problems in one
 * table (`patientRefusal`).
 */
import { randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import type { Pool, PoolClient } from '@vitalis/db';
import { handleCommand, type VersionConflict } from '@vitalis/eventstore';
import { conflict, HttpProblem, notFound, preconditionFailed, problemOf } from '@vitalis/http';
import { allergyEntrySchema, issuesAt, type AllergyEntryInput } from '@vitalis/schemas';
import {
  PATIENT_DECIDER,
  patientStream,
  type Demographics,
  type Identifier,
  type PatientCommand,
  type PatientDecideError,
  type PatientState,
} from '@vitalis/records';
import { reserveIdentifiers } from './identifiers';
import { insufficientScope } from '../access/refusal';
import { access } from '../access/policy';
import { audit, metadataOf, type Caller, versionOfIfMatch } from '../access/caller';

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
