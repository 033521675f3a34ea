/**
 * `GET /fhir/R4/Observation/$lastn`: the latest Observation per code of one patient (max=1 only),
 * from the vitals service's latest read (its access rule and audit, `via: fhir`); the latest
 * systolic and diastolic as their blood-pressure panel where they pair (docs/adr/0026). Its
 * CapabilityStatement entry is declared here, beside the route (Observation lists it).
 */
import { z } from 'zod';
import { fhirReply } from '@vitalis/http';
import { BP_PANEL_CODE, observationSearchsetJson, searchsetBundle } from '@vitalis/schemas';
import type { GatewayDeps } from '../../deps';
import { callerOf } from '../../access/http';
import { readLatestEntries, requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry } from '../definition';
import type { FhirApp } from '../register';
import { fhirObservationBundle, outcomes } from '../schemas';
import { observationCodesOf } from '../observation-codes';
import { categoryMatches, format, notSupported, referenceParam, searchedPatient, tokenList } from '../search-params';

/** The statement's `operation` entry under Observation. */
export const LASTN_OPERATION: FhirOperationEntry = {
  name: 'lastn',
  definition: 'http://hl7.org/fhir/OperationDefinition/Observation-lastn',
  documentation: `patient (required), code (comma: OR; ${BP_PANEL_CODE} the blood-pressure panel), category; max=1 only.`,
};

const lastnQuery = z.strictObject({
  patient: referenceParam('Patient').optional(),
  subject: referenceParam('Patient').optional(),
  code: tokenList().optional(),
  category: tokenList().optional(),
  max: z.coerce.number().int().min(1).default(1).describe('1 only (the latest per code)'),
  _format: format,
});

/** Registers `Observation/$lastn`. */
export function registerLastn(app: FhirApp, deps: GatewayDeps): void {
  app.get(
    `${FHIR_BASE_PATH}/Observation/$lastn`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Observation $lastn',
        operationId: 'fhirLastnObservation',
        description:
          "The latest Observation per code of one patient (patient|subject required; code, category optional; max=1 only), from the vitals service's latest read.",
        querystring: lastnQuery,
        response: { 200: fhirObservationBundle, ...outcomes(400, 401, 403, 406) },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const self = `${deps.config.baseUrl}${req.url}`;
      if (q.max !== 1) throw notSupported('$lastn supports max=1 only (the latest Observation per code).');
      const patient = searchedPatient(q);
      const codes = observationCodesOf(q.code);
      const caller = callerOf(req);
      if (codes === null || !categoryMatches(q.category)) {
        await requireVitalsAccess(deps.pool, caller, [patient], { action: 'vitals.read_latest', via: 'fhir' });
        return fhirReply(reply).send(searchsetBundle([], { self }));
      }
      const rows = await readLatestEntries(deps.pool, caller, patient, codes, 'fhir');
      return fhirReply(reply).send(
        observationSearchsetJson(rows, { self, observationBase: `${deps.config.baseUrl}${FHIR_BASE_PATH}/Observation` }),
      );
    },
  );
}
