/**
 * The CapabilityStatement of /fhir/R4 (GET /fhir/R4/metadata), built from the resource definitions
 * (resources/, one entry each: definition.ts `capabilityEntryOf`) and the operations' entries
 * (operations/), the same definitions the routes are registered from, so the two cannot drift apart.
 * Security: OAuth bearer tokens from this gateway's authorization server, its endpoints in SMART's
 * `oauth-uris` extension (authorize, token, register: the sub-extensions its R4 definition has;
 * revocation and introspection are in /.well-known/openid-configuration).
 */
import { PATHS } from '../auth/context';
import { FHIR_BASE_PATH, FHIR_VERSION } from './base';
import { capabilityEntryOf } from './definition';
import { SYSTEM_EXPORT_OPERATION } from './operations/export-kickoff';
import { FHIR_RESOURCE_DEFINITIONS } from './resources';
import { subscriptionCapability } from './subscriptions/capability';

export { FHIR_BASE_PATH, FHIR_VERSION } from './base';
/** When this statement last changed (the FHIR `date`). */
const STATEMENT_DATE = '2026-11-25';

const restfulSecurityService = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth', display: 'OAuth' }],
};

/** The statement of this server at `baseUrl` (implementation.url, the SMART oauth-uris), as `version` of the software. */
export function capabilityStatement(baseUrl: string, version: string) {
  return {
    resourceType: 'CapabilityStatement' as const,
    status: 'active',
    date: STATEMENT_DATE,
    publisher: 'Vitalis',
    kind: 'instance',
    software: { name: 'Vitalis', version },
    implementation: {
      description: 'Vitalis FHIR R4 API (read and search over the Vitalis services; Patient create/update and Appointment booking)',
      url: `${baseUrl}${FHIR_BASE_PATH}`,
    },
    fhirVersion: FHIR_VERSION,
    // the FHIR Bulk Data export (docs/export.md); the Group-level kick-off is served too (Group/{id}/$export)
    instantiates: ['http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data'],
    format: ['json', 'application/fhir+json'],
    rest: [
      {
        mode: 'server',
        documentation: `Read and search; Patient create and update, Appointment create (booking). Errors are OperationOutcome resources. See ${baseUrl}/developers.`,
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
          description:
            'OAuth 2.0 Bearer tokens issued by this server (see /auth.md). Patient: read:patients, write:patients (demographics; create, update) or patient/Patient.rs (a patient user, their own record). AllergyIntolerance: read:patients or patient/AllergyIntolerance.rs (own). Observation: read:vitals (a patient user: their own; a sandbox token: synthetic sbx- patients only). Device: read:vitals (the vitals rule of its patient). Schedule, Slot, Appointment: read:appointments (booking: write:appointments; a patient user sees its own appointments). ServiceRequest: read:diagnostics. DiagnosticReport: read:diagnostics or patient/DiagnosticReport.rs (own final reports). DetectedIssue (bedside alarms): read:vitals, doctors and nurses. Practitioner: public.',
        },
        resource: [
          ...FHIR_RESOURCE_DEFINITIONS.map(capabilityEntryOf),
          // topic-based subscriptions (Subscriptions R5 Backport): one block, from subscriptions/capability.ts
          subscriptionCapability(),
        ],
        operation: [SYSTEM_EXPORT_OPERATION],
      },
    ],
  };
}
