/**
 * FHIR AllergyIntolerance (patients service: the clinical view of a record): one patient's
 * allergies, paged in the record's order; a read finds the allergy's patient in the projection.
 * Create: recordAllergy of the Patient that `patient` references (its one allergy rule answers 422
 * naming the field).
 */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { decodeKey, encodeKey } from '../../access/http';
import { allergyCreateIn, allergyEntryOf, toFhirAllergy } from '../../patients/fhir';
import { getAllergies, getAllergy, recordAllergy } from '../../patients/service';
import { countParam, defineCreate, defineFhirResource, patientParam } from '../definition';
import { fhirAllergyIntolerance, fhirAllergyIntoleranceBundle, outcomes } from '../schemas';
import { cursor, format, patientIdOf, referenceIdOf, referenceParam } from '../search-params';

export const allergyIntoleranceResource = defineFhirResource({
  type: 'AllergyIntolerance',
  auth: { anyOf: ['read:patients', 'patient/AllergyIntolerance.rs'] },
  interactions: ['read', 'search-type', 'create'],
  schema: fhirAllergyIntolerance,
  bundle: fhirAllergyIntoleranceBundle,
  documentation:
    'create: write:patients and read:patients; `patient` names the Patient; `code` a SNOMED CT or RxNorm coding (with display) or a text of at least 3 printable characters with two letters (422 otherwise).',
  search: {
    description:
      "One patient's allergies (patient required; a patient user: its own, with patient/AllergyIntolerance.rs). Served by the patients service (folds the record; audited patient.allergies.read).",
    query: z.strictObject({
      patient: patientParam(referenceParam('Patient').describe('Patient/{id} or {id} (required)'), true),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    errors: outcomes(400, 401, 403, 406, 404), // 404: the patient does not exist
    search: async ({ q, deps, caller, match, count }) => {
      const patient = await getAllergies(deps.pool, caller(), patientIdOf('patient', q.patient));
      if (count === true) return { entries: [], total: patient.allergies.length };
      const after = decodeKey(q._cursor, ['a'])?.a;
      const from = after === undefined ? 0 : patient.allergies.findIndex((a) => a.id === after) + 1;
      const page = patient.allergies.slice(from, from + q._count);
      const last = page[page.length - 1];
      return {
        entries: page.map((a) => match('AllergyIntolerance', a.id, toFhirAllergy(patient.id, a))),
        nextCursor: from + q._count < patient.allergies.length && last ? encodeKey({ a: last.id }) : null,
      };
    },
  },
  read: {
    description:
      'One allergy: its patient is found in the projection (eventually consistent: a just-recorded allergy may take a projector tick), then read as the search reads it.',
    read: async ({ deps, caller, id }) => {
      const { patient, allergy } = await getAllergy(deps.pool, caller(), id);
      return { resource: toFhirAllergy(patient.id, allergy) };
    },
  },
  create: defineCreate({
    auth: { scopes: ['write:patients', 'read:patients'] },
    description:
      "Records an allergy of the Patient that `patient` references (the patients service, as POST /api/v1/patients/{id}/allergies; write:patients and read:patients). `code`: a SNOMED CT (http://snomed.info/sct, a concept id with its check digit) or RxNorm (http://www.nlm.nih.gov/research/umls/rxnorm, an RXCUI) coding with a display, and/or a text of at least 3 printable characters with two letters; a reaction's description (else its first manifestation's text) the same. Anything else is a 422 OperationOutcome naming each field (`body.code.text: …`). criticality, and one reaction, are kept; other elements are ignored. 201 with the AllergyIntolerance and Location. An unknown patient: 404.",
    body: allergyCreateIn,
    errors: outcomes(400, 401, 403, 404, 406, 409, 422),
    create: async ({ deps, caller, body }) => {
      const patientId = referenceIdOf('Patient', 'patient', body.patient.reference);
      const { patient, allergyId } = await recordAllergy(deps.pool, caller(), patientId, undefined, allergyEntryOf(body), {
        at: 'body',
        rename: (path) => (path === 'reaction' ? 'reaction.0.description' : path),
      });
      const allergy = must(
        patient.allergies.find((a) => a.id === allergyId),
        'the allergy just recorded',
      );
      return { resource: toFhirAllergy(patient.id, allergy), id: allergy.id };
    },
  }),
});
