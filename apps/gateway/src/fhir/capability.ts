/**
 * The CapabilityStatement of /fhir/R4 (GET /fhir/R4/metadata): exactly what routes.ts implements,
 * from the one table FHIR_RESOURCES (a test compares it with the routes served), so the two cannot drift apart.
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

interface SearchParamDef {
  name: string;
  type: 'token' | 'string' | 'date' | 'reference' | 'number';
  documentation: string;
}
type Interaction = 'read' | 'vread' | 'search-type' | 'create' | 'update';

/** One resource type the server implements: its interactions, search parameters, includes and operations. */
export interface FhirResourceDef {
  type: string;
  interactions: Interaction[];
  searchParams: SearchParamDef[];
  searchInclude?: string[];
  operations?: { name: string; definition: string; documentation: string }[];
  supportedProfile?: string[];
  documentation?: string;
}

const count = (max: number, dflt: number): SearchParamDef => ({
  name: '_count',
  type: 'number',
  documentation: `Page size, 1-${max} (default ${dflt}); further pages via Bundle.link next.`,
});
const patientRef = (required: boolean): SearchParamDef => ({
  name: 'patient',
  type: 'reference',
  documentation: `${required ? 'Required: ' : ''}Patient/{id} or {id}.`,
});

/**
 * THE table of what /fhir/R4 implements (one entry per resource type; routes.ts and resources.ts
 * serve exactly this, a test compares the two). Search parameters not listed are refused with 400.
 */
export const FHIR_RESOURCES: FhirResourceDef[] = [
  {
    type: 'Patient',
    interactions: ['read', 'vread', 'search-type', 'create', 'update'],
    documentation:
      'create: write:patients (the id is minted). update: write:patients, If-Match required (W/"<versionId>"; 412 when stale, 428 without).',
    operations: [
      {
        name: 'export',
        definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
        documentation: "Bulk Data export of the patients' Observations (docs/export.md).",
      },
    ],
    searchParams: [
      { name: '_id', type: 'token', documentation: 'The patient id.' },
      { name: 'identifier', type: 'token', documentation: 'system|value or value (exact).' },
      { name: 'name', type: 'string', documentation: 'Case-insensitive substring of the given and family names.' },
      { name: 'family', type: 'string', documentation: 'Case-insensitive prefix of the family name.' },
      { name: 'given', type: 'string', documentation: 'Case-insensitive prefix of any given name.' },
      { name: 'birthdate', type: 'date', documentation: 'Exact date YYYY-MM-DD (optionally with the eq prefix).' },
      { name: 'gender', type: 'token', documentation: 'male | female | other | unknown.' },
      count(100, 20),
    ],
  },
  {
    type: 'Observation',
    interactions: ['read', 'search-type'],
    supportedProfile: ['http://hl7.org/fhir/StructureDefinition/vitalsigns'],
    documentation: 'id: {device_id}.{seq} (the stored row; a device numbers its observations with a strictly increasing seq).',
    searchParams: [
      { name: 'patient', type: 'reference', documentation: 'Required (or subject): Patient/{id} or {id}.' },
      { name: 'subject', type: 'reference', documentation: 'Same as patient.' },
      {
        name: 'code',
        type: 'token',
        documentation: `system|code or code (LOINC vital signs; MDC ${VITAL_CODE.ecgLeadII} ECG lead II). One token; no comma lists.`,
      },
      {
        name: 'date',
        type: 'date',
        documentation:
          'Prefixes ge, gt, le, lt, eq (repeatable, combined as AND). Without a lower bound the search covers the 24 hours before the upper bound (default now); at most 31 days per search.',
      },
      { name: 'category', type: 'token', documentation: 'vital-signs (every Observation here is one).' },
      count(1_000, 100),
      { name: '_sort', type: 'string', documentation: 'date (ascending, the default) or -date (newest first); no other sort key.' },
    ],
    searchInclude: ['Observation:patient'],
    operations: [
      {
        name: 'lastn',
        definition: 'http://hl7.org/fhir/OperationDefinition/Observation-lastn',
        documentation: 'patient (required), code, category; max=1 only.',
      },
    ],
  },
  {
    type: 'AllergyIntolerance',
    interactions: ['read', 'search-type', 'create'],
    documentation:
      'create: write:patients and read:patients; `patient` names the Patient; `code` a SNOMED CT or RxNorm coding (with display) or a text of at least 3 printable characters with two letters (422 otherwise).',
    searchParams: [patientRef(true), count(100, 50)],
  },
  {
    type: 'Practitioner',
    interactions: ['read', 'search-type'],
    documentation: 'Public reference data (the clinicians of the catalog).',
    searchParams: [
      { name: '_id', type: 'token', documentation: 'The practitioner id.' },
      { name: 'name', type: 'string', documentation: 'Case-insensitive substring of the name.' },
      count(100, 50),
    ],
  },
  {
    type: 'Schedule',
    interactions: ['read', 'search-type'],
    documentation: "A clinician's Schedule (id = the clinician id); its Slots reference it.",
    searchParams: [
      { name: '_id', type: 'token', documentation: 'The schedule id.' },
      { name: 'actor', type: 'reference', documentation: 'Practitioner/{id} or {id}.' },
      count(100, 50),
    ],
  },
  {
    type: 'Slot',
    interactions: ['read', 'vread', 'search-type'],
    searchParams: [
      { name: 'schedule', type: 'reference', documentation: 'Schedule/{id} or {id}.' },
      { name: 'start', type: 'date', documentation: 'Prefixes ge, gt, le, lt, eq (repeatable, combined as AND).' },
      { name: 'status', type: 'token', documentation: 'free | busy.' },
      count(500, 100),
    ],
  },
  {
    type: 'Appointment',
    interactions: ['read', 'search-type', 'create'],
    documentation:
      'create: book a free Slot (slot, and participant Patient/{id}; a patient user books for themselves); write:appointments; a taken slot: 409.',
    searchParams: [
      patientRef(false),
      { name: 'date', type: 'date', documentation: 'The start; prefixes ge, gt, le, lt, eq (repeatable, combined as AND).' },
      {
        name: 'status',
        type: 'token',
        documentation: 'booked (the current bookings; a cancelled appointment frees its slot and is not listed).',
      },
      count(500, 100),
    ],
    searchInclude: ['Appointment:slot'],
  },
  {
    type: 'Device',
    interactions: ['read', 'search-type'],
    documentation:
      "The devices that report vitals (id = the device id the Observations reference). Read: the device and the patient it last reported for. Search: the devices of the patient's latest observation per code (those reporting now).",
    searchParams: [patientRef(true), count(100, 50)],
  },
  {
    type: 'ServiceRequest',
    interactions: ['read', 'vread', 'search-type'],
    searchParams: [
      patientRef(false),
      {
        name: 'status',
        type: 'token',
        documentation: 'draft | active | on-hold | revoked | completed | entered-in-error (comma-separated: any of them).',
      },
      { name: 'code', type: 'token', documentation: 'system|code or code (LOINC, the orderable tests).' },
      count(100, 50),
    ],
  },
  {
    type: 'DiagnosticReport',
    interactions: ['read', 'vread', 'search-type'],
    searchParams: [
      patientRef(false),
      { name: 'code', type: 'token', documentation: 'system|code or code (LOINC, the orderable tests).' },
      {
        name: 'status',
        type: 'token',
        documentation:
          'registered | partial | preliminary | final | amended | corrected | cancelled | entered-in-error (comma-separated: any of them).',
      },
      { name: 'category', type: 'token', documentation: 'system|code or code (v2-0074 diagnostic service section, e.g. LAB, EC).' },
      count(100, 50),
    ],
  },
  {
    type: 'DetectedIssue',
    interactions: ['read', 'search-type'],
    documentation:
      'A bedside alarm (docs/fhir.md, "Alarms"): status preliminary while it must still be seen, final once resolved; severity from its IEC 60601-1-8 priority; code from urn:vitalis:alert-rule; its acknowledgement (by a signed-in clinician) and escalation as mitigations. Acknowledge through REST (POST /api/v1/alarms/{id}/acknowledge) or MCP.',
    searchParams: [
      {
        name: 'patient',
        type: 'reference',
        documentation: 'Patient/{id} or {id}; without it, the alarms across every patient the caller reaches (a ward view).',
      },
      {
        name: 'status',
        type: 'token',
        documentation:
          'preliminary (raised, acknowledged or latched: the default) | final (resolved in the last 24 h); comma-separated: any of them.',
      },
      { name: '_count', type: 'number', documentation: 'At most this many, 1-500 (default 100), highest severity first; not paged.' },
    ],
  },
];

/** The search parameters of one resource type (the routes' query schemas follow these). */
export const searchParamsOf = (type: string): SearchParamDef[] => FHIR_RESOURCES.find((r) => r.type === type)?.searchParams ?? [];

const restfulSecurityService = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'OAuth', display: 'OAuth' }],
};

const resourceEntry = (r: FhirResourceDef) => ({
  type: r.type,
  ...(r.supportedProfile ? { supportedProfile: r.supportedProfile } : {}),
  ...(r.documentation ? { documentation: r.documentation } : {}),
  interaction: r.interactions.map((code) => ({ code })),
  ...(r.interactions.includes('vread') ? { versioning: 'versioned', readHistory: true } : {}),
  ...(r.interactions.includes('update') ? { updateCreate: false } : {}),
  ...(r.type === 'Patient' ? { conditionalRead: 'not-match' } : {}),
  searchParam: r.searchParams.map((d) => ({ name: d.name, type: d.type, documentation: d.documentation })),
  ...(r.searchInclude ? { searchInclude: r.searchInclude } : {}),
  ...(r.operations ? { operation: r.operations } : {}),
});

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
          ...FHIR_RESOURCES.map(resourceEntry),
          // topic-based subscriptions (Subscriptions R5 Backport): one block, from subscriptions/capability.ts
          subscriptionCapability(),
        ],
        operation: [
          {
            name: 'export',
            definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export',
            documentation: "Bulk Data export (Observations; Prefer: respond-async). Group/{id}/$export exports a Group's members.",
          },
        ],
      },
    ],
  };
}
