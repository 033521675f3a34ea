/** Patient tools: search_patients, get_patient, register_patient, record_allergy (access/caller decides what a caller sees). */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { ALLERGY_CRITICALITIES, RXNORM, SNOMED_CT, resourceId, nonBlankText } from '@vitalis/schemas';
import { badRequest } from '@vitalis/http';
import { patientView } from '../../access/caller';
import { identifierIn } from '../../patients/fhir';
import { getPatient, recordAllergy, registerPatient, searchPatients } from '../../patients/service';
import { defineTool, UI } from './types';
import { allergiesOut, allergyShape, latestOut, latestVitalShape, news2Out, news2Shape, patientOut, patientShape } from './shapes';

const text = nonBlankText;

/** Keyset cursor of the search: (family, id) of the last result, opaque to the agent. */
const encodeAfter = (f: string, i: string) => Buffer.from(JSON.stringify({ f, i })).toString('base64url');
function decodeAfter(cursor: string | undefined): { f: string; i: string } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { f?: unknown; i?: unknown };
    if (typeof v.f === 'string' && typeof v.i === 'string') return { f: v.f, i: v.i };
  } catch {
    /* fall through */
  }
  throw badRequest('The cursor is invalid: pass next_cursor from a previous search unchanged.');
}

export const searchPatientsTool = defineTool({
  name: 'search_patients',
  title: 'Search patients',
  description:
    'Search the master patient index by name (substring of given + family names), birth date (YYYY-MM-DD) and/or identifier (`system|value` or `value`). ' +
    'Returns demographics, and allergies for clinical readers. Needs read:patients or write:patients (demographics only); a patient user finds only themselves. Paginate with next_cursor.',
  scopes: [],
  input: z.object({
    name: text(100).optional().describe('Part of the name, case-insensitive'),
    birthdate: z.iso.date().optional().describe('YYYY-MM-DD'),
    identifier: text(300).optional().describe('`system|value` or just `value` (e.g. an MRN)'),
    limit: z.number().int().min(1).max(50).default(10),
    cursor: z.string().max(512).optional().describe('next_cursor of the previous page'),
  }),
  output: z.object({ count: z.number().int(), patients: z.array(patientShape), next_cursor: z.string().nullable() }),
  annotations: { title: 'Search patients', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: UI.search,
  async run({ deps, caller }, a) {
    const { patients, more } = await searchPatients(deps.pool, caller, {
      name: a.name,
      birthdate: a.birthdate,
      identifier: a.identifier,
      limit: a.limit,
      after: decodeAfter(a.cursor),
    });
    const last = patients[patients.length - 1];
    const out = patients.map((p) => patientOut(p, patientView(caller.principal, p.id) === 'clinical'));
    return {
      data: { count: out.length, patients: out, next_cursor: more && last ? encodeAfter(last.family, last.id) : null },
      text:
        out.length === 0
          ? 'No patient matches.'
          : `${out.length} patient(s): ${out.map((p) => `${p.name} (${p.id}${p.birth_date ? `, born ${p.birth_date}` : ''})`).join('; ')}${more ? '; more with next_cursor' : ''}.`,
    };
  },
});

export const getPatientTool = defineTool({
  name: 'get_patient',
  title: 'Read a patient record',
  description:
    'One patient: demographics; for clinical readers (read:patients, or the patient themselves) also allergies and, with read:vitals, the latest vitals and the NEWS2 early-warning score. Reception (write:patients) sees demographics only.',
  scopes: [],
  input: z.object({ patient_id: resourceId.describe('Patient id, e.g. pat-0001') }),
  // The patient record envelope, the same keys as REST GET /api/v1/patients/{id} (flat forms here, FHIR there).
  output: z.object({
    view: z.enum(['clinical', 'demographics']),
    patient: patientShape.omit({ allergies: true }),
    allergies: z.array(allergyShape).optional().describe('Only for clinical readers (read:patients, or the patient themselves)'),
    latest_vitals: z.array(latestVitalShape).optional(),
    news2: news2Shape.optional(),
  }),
  annotations: { title: 'Read a patient record', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: UI.search,
  async run({ deps, caller }, a) {
    const r = await getPatient(deps.pool, caller, a.patient_id);
    const view: 'clinical' | 'demographics' = r.view === 'clinical' ? 'clinical' : 'demographics';
    const patient = patientOut(r.patient, false);
    const allergyList = view === 'clinical' ? allergiesOut(r.patient) : undefined;
    const allergies = allergyList?.length
      ? `allergies: ${allergyList.map((x) => `${x.substance} (${x.criticality})`).join(', ')}`
      : view === 'clinical'
        ? 'no known allergies'
        : 'allergies not visible to this token';
    return {
      data: {
        view,
        patient,
        ...(allergyList ? { allergies: allergyList } : {}),
        ...(r.news2 ? { latest_vitals: (r.latestVitals ?? []).map(latestOut), news2: news2Out(r.news2) } : {}),
      },
      text: `${patient.name} (${patient.id})${patient.birth_date ? `, born ${patient.birth_date}` : ''}; ${allergies}${r.news2 ? `; NEWS2 ${r.news2.score} (${r.news2.risk})` : ''}.`,
    };
  },
});

export const registerPatientTool = defineTool({
  name: 'register_patient',
  title: 'Register a patient',
  description:
    'Registers a new patient (the id is minted by the server) and returns the record. Needs write:patients. Calling it twice registers two patients: search first.',
  scopes: ['write:patients'],
  input: z.object({
    family: text(100).describe('Family name'),
    given: z.array(text(100)).max(5).default([]).describe('Given names'),
    birth_date: z.iso.date().optional().describe('YYYY-MM-DD'),
    gender: z.enum(['male', 'female', 'other', 'unknown']).optional(),
    identifiers: z
      .array(identifierIn)
      .max(10)
      .optional()
      .describe('Business identifiers: system an absolute URI (e.g. urn:oid:…), value the identifier'),
    telecom: z
      .array(z.object({ system: z.enum(['phone', 'email', 'fax', 'pager', 'url', 'sms', 'other']), value: text(200) }))
      .max(10)
      .optional(),
  }),
  output: z.object({ patient: patientShape }),
  annotations: { title: 'Register a patient', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ deps, caller }, a) {
    const p = await registerPatient(deps.pool, caller, {
      family: a.family,
      given: a.given,
      birthDate: a.birth_date ?? null,
      gender: a.gender ?? null,
      identifiers: a.identifiers ?? [],
      telecom: a.telecom ?? [],
    });
    const patient = patientOut(p, patientView(caller.principal, p.id) === 'clinical');
    return { data: { patient }, text: `Registered ${patient.name} as ${patient.id}.` };
  },
});

/**
 * record_allergy: the MCP twin of POST /api/v1/patients/{id}/allergies (the same service, access
 * policy, rule and audit). The substance is judged by the one allergy rule (@vitalis/schemas
 * allergyEntrySchema): a tool error with the 422 problem naming `substance.text`,
 * `substance.coding.0.code`, `reaction`, … when it is not plausible.
 */
export const recordAllergyTool = defineTool({
  name: 'record_allergy',
  title: 'Record an allergy',
  description: `Records an allergy or intolerance of a patient. substance: a coding (system ${SNOMED_CT} with a SNOMED CT concept id, or ${RXNORM} with an RXCUI; with its display) and/or a text of at least 3 printable characters with two letters ("Penicillin", "Latex"); junk such as "0" is refused (422 tool error naming the field). criticality: low, high or unable-to-assess (default). Optional reaction (text) and expected_version (the patient version you read). Needs write:patients and read:patients.`,
  scopes: ['write:patients', 'read:patients'],
  input: z.object({
    patient_id: resourceId.describe('Patient id, e.g. pat-0001'),
    substance: z
      .object({
        text: text(200).optional().describe('The substance in words, e.g. "Penicillin"'),
        coding: z
          .array(z.object({ system: z.string().max(200), code: z.string().max(40), display: text(200).optional() }))
          .max(3)
          .optional()
          .describe(`e.g. [{ "system": "${SNOMED_CT}", "code": "764146007", "display": "Penicillin" }]`),
      })
      .describe('A coding (SNOMED CT or RxNorm, with display) and/or a text'),
    criticality: z.enum(ALLERGY_CRITICALITIES).optional(),
    reaction: text(500).optional().describe('What happened, e.g. "Hives"'),
    expected_version: z.number().int().min(1).optional().describe('The patient version you read (optimistic concurrency)'),
  }),
  output: z.object({ allergy: allergyShape, patient_version: z.number().int() }),
  annotations: { title: 'Record an allergy', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run({ deps, caller }, a) {
    const { patient, allergyId } = await recordAllergy(
      deps.pool,
      caller,
      a.patient_id,
      a.expected_version,
      { code: a.substance, criticality: a.criticality, reaction: a.reaction },
      {
        at: '',
        rename: (path) => path.replace(/^code(?=\.|$)/, 'substance'),
      },
    );
    const allergy = must(
      allergiesOut(patient).find((x) => x.id === allergyId),
      `allergy ${allergyId}, just recorded`,
    );
    return {
      data: { allergy, patient_version: patient.version },
      text: `Recorded ${allergy.substance}${allergy.coding ? ` (${allergy.coding.map((c) => `${c.system === SNOMED_CT ? 'SNOMED CT' : 'RxNorm'} ${c.code}`).join(', ')})` : ''}, criticality ${allergy.criticality}, as ${allergy.id} for ${patient.id}.`,
    };
  },
});
