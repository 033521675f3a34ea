/**
 * The CapabilityStatement of /fhir/R4 (GET /fhir/R4/metadata): exactly what routes.ts implements,
 * from the same tables (FHIR_SEARCH_PARAMS), so the statement and the routes cannot drift apart.
 * Security: OAuth bearer tokens from this gateway's authorization server, its endpoints in SMART's
 * `oauth-uris` extension (authorize, token, register: the sub-extensions its R4 definition has;
 * revocation and introspection are in /.well-known/openid-configuration).
 */
import { VITAL_CODE } from '@vitalis/schemas';
import { PATHS } from '../auth/context';
import { subscriptionCapability } from './subscriptions/capability';

export const FHIR_BASE_PATH = '/fhir/R4';
export const FHIR_VERSION = '4.0.1';
/** When this statement last changed (the FHIR `date`). */
const STATEMENT_DATE = '2026-11-25';

interface SearchParamDef { name: string; type: 'token' | 'string' | 'date' | 'reference' | 'number'; documentation: string }

/** The search parameters each resource type answers; anything else is refused with 400. */
export const FHIR_SEARCH_PARAMS: { Patient: SearchParamDef[]; Observation: SearchParamDef[] } = {
  Patient: [
    { name: '_id', type: 'token', documentation: 'The patient id.' },
    { name: 'identifier', type: 'token', documentation: 'system|value or value (exact).' },
    { name: 'name', type: 'string', documentation: 'Case-insensitive substring of the given and family names.' },
    { name: 'family', type: 'string', documentation: 'Case-insensitive prefix of the family name.' },
    { name: 'given', type: 'string', documentation: 'Case-insensitive prefix of any given name.' },
    { name: 'birthdate', type: 'date', documentation: 'Exact date YYYY-MM-DD (optionally with the eq prefix).' },
    { name: 'gender', type: 'token', documentation: 'male | female | other | unknown.' },
    { name: '_count', type: 'number', documentation: 'Page size, 1-100 (default 20); further pages via Bundle.link next.' },
  ],
  Observation: [
    { name: 'patient', type: 'reference', documentation: 'Required (or subject): Patient/{id} or {id}.' },
    { name: 'subject', type: 'reference', documentation: 'Same as patient.' },
    { name: 'code', type: 'token', documentation: `system|code or code (LOINC vital signs; MDC ${VITAL_CODE.ecgLeadII} ECG lead II). One token; no comma lists.` },
    { name: 'date', type: 'date', documentation: 'Prefixes ge, gt, le, lt, eq (repeatable, combined as AND). Without a lower bound the search covers the 24 hours before the upper bound (default now); at most 31 days per search.' },
    { name: 'category', type: 'token', documentation: 'vital-signs (every Observation here is one).' },
    { name: '_count', type: 'number', documentation: 'Page size, 1-1000 (default 100); further pages via Bundle.link next.' },
    { name: '_sort', type: 'string', documentation: 'date (ascending, the default) or -date (newest first); no other sort key.' },
  ],
};

const restfulSecurityService = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth', display: 'OAuth' }] };

const searchParams = (defs: SearchParamDef[]) => defs.map((d) => ({ name: d.name, type: d.type, documentation: d.documentation }));

export function capabilityStatement(baseUrl: string, version: string) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active',
    date: STATEMENT_DATE,
    publisher: 'Vitalis',
    kind: 'instance',
    software: { name: 'Vitalis', version },
    implementation: { description: 'Vitalis FHIR R4 API (read and search over the Vitalis services; writes stay on REST v1)', url: `${baseUrl}${FHIR_BASE_PATH}` },
    fhirVersion: FHIR_VERSION,
    format: ['json', 'application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation: `Read and search only. Errors are OperationOutcome resources. See ${baseUrl}/developers.`,
        security: {
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [
                { url: 'authorize', valueUri: `${baseUrl}${PATHS.authorize}` },
                { url: 'token', valueUri: `${baseUrl}${PATHS.token}` },
                { url: 'register', valueUri: `${baseUrl}${PATHS.register}` },
              ],
            },
          ],
          cors: false,
          service: [restfulSecurityService],
          description: 'OAuth 2.0 Bearer tokens issued by this server (see /auth.md). Patient: read:patients, write:patients (demographics) or patient/Patient.rs (a patient user, their own record). Observation: read:vitals (a patient user: their own; a sandbox token: synthetic sbx- patients only).',
        },
        resource: [
          {
            type: 'Patient',
            interaction: [{ code: 'read' }, { code: 'vread' }, { code: 'search-type' }],
            versioning: 'versioned',
            readHistory: true,
            conditionalRead: 'not-match',
            searchParam: searchParams(FHIR_SEARCH_PARAMS.Patient),
          },
          {
            type: 'Observation',
            supportedProfile: ['http://hl7.org/fhir/StructureDefinition/vitalsigns'],
            interaction: [{ code: 'search-type' }],
            searchParam: searchParams(FHIR_SEARCH_PARAMS.Observation),
            operation: [{ name: 'lastn', definition: 'http://hl7.org/fhir/OperationDefinition/Observation-lastn', documentation: 'patient (required), code, category; max=1 only.' }],
          },
          // topic-based subscriptions (Subscriptions R5 Backport): one block, from subscriptions/capability.ts
          subscriptionCapability(),
        ],
      },
    ],
  };
}
