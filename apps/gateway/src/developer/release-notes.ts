/**
 * Release and migration notes of the v1 API (spec 9.6: mirrored at /developers and in
 * /openapi.json). Deprecations are not listed here: they come from the route metadata.
 */
export interface Release {
  version: string;
  date: string;
  notes: string[];
}

export const RELEASES: Release[] = [
  {
    version: '0.2.0',
    date: '2026-11-25',
    notes: [
      'FHIR R4: every resource the v1 API returns validates against the R4 base StructureDefinitions (vital-sign Observations also against the vital-signs profiles), checked by an independent validator (HAPI FHIR) in the test suite. Vitalis is 0.x: the v1 shapes below changed without a deprecation period (from 1.0 on, a shape change follows the 24-month deprecation rule).',
      'Breaking: GET /api/v1/patients/{id} answers an envelope `{ view, patient, allergies?, latest_vitals?, news2? }` instead of a Patient carrying the non-FHIR properties `allergies` and `vitals`: `patient` is the FHIR Patient, `allergies` the FHIR AllergyIntolerance resources, `latest_vitals` and `news2` what `vitals.latest` and `vitals.news2` were. With `Accept: application/fhir+json` it answers the bare Patient. The MCP tool get_patient answers the same envelope (flat forms): its `allergies` moved from `patient.allergies` to the top level.',
      'Breaking: the patient search (GET /api/v1/patients) and appointment listing (GET /api/v1/appointments) Bundles page with `link` (relation `next`); the top-level `next` property is gone. Every entry has a `fullUrl` and `search.mode`.',
      "Breaking: Slot.schedule references `Schedule/{clinician id}` (it pointed at a Practitioner, which FHIR does not allow); the appointment listing includes each clinician's Schedule (search mode `include`, `actor` = the Practitioner).",
      "Bundle `fullUrl`s resolve: a Patient's or Appointment's URL in this API, or a stable `urn:uuid:` for resources without a URL of their own (Observation, Slot, Schedule). The vitals Bundles no longer point at `/fhir/Observation/...`, which never existed.",
      'AllergyIntolerance carries `clinicalStatus` (active) and each reaction a `manifestation` (the reaction text), as R4 requires; `reaction[].description` is unchanged.',
      'Clients: TypeScript `patients.get()` returns a `PatientRecord` (`getResource()` the bare Patient), `nextLink(bundle)`; Python `get_patient()` returns `PatientRecord`, `Bundle.next_url()`; Go `GetPatient` returns `*PatientRecord`, `Bundle.NextURL()`.',
    ],
  },
  {
    version: '0.1.0',
    date: '2026-11-23',
    notes: [
      'OAuth 2: dynamic client registration (RFC 7591), client credentials, authorization code with PKCE, refresh-token rotation, token exchange (RFC 8693), revocation (RFC 7009), introspection (RFC 7662), sandbox credentials.',
      'Vitals: batch publish, history (raw, bucketed aggregates, FHIR R4 Bundles) and latest values.',
      'New: GET /api/v1/vitals/latest?patient={id} (the latest values with a count); GET /api/v1/patients/{id}/vitals/latest is deprecated in its favour.',
      'Developer surface: /openapi.json (OpenAPI 3.1), /auth.md, /developers; RFC 9457 problem details for every error.',
    ],
  },
];

export interface MigrationNote {
  title: string;
  steps: string[];
}

export const MIGRATIONS: MigrationNote[] = [
  {
    title: 'From 0.1.0 to 0.2.0 (FHIR R4 shapes)',
    steps: [
      'GET /api/v1/patients/{id}: read the Patient from `body.patient` (was the body itself); `body.allergies` holds the same AllergyIntolerance resources as before, now beside the Patient; `body.vitals.latest` is now `body.latest_vitals` and `body.vitals.news2` is `body.news2` (as on the triage board and in MCP). Reception gets `{ view: "demographics", patient }`. A FHIR client sends `Accept: application/fhir+json` and gets the bare Patient.',
      'MCP get_patient: read allergies from `structuredContent.allergies` (was `structuredContent.patient.allergies`); search_patients is unchanged.',
      'Paging of GET /api/v1/patients and GET /api/v1/appointments: follow `link.find(l => l.relation === "next")?.url` instead of `next`; no such link on the last page (`next` was null).',
      'Appointment listings: filter entries by `resource.resourceType` (`Slot`, `Appointment`, and now `Schedule`) or by `search.mode === "match"`; a Slot\'s clinician is the Schedule id in `schedule.reference` (`Schedule/clin-001`), or the `actor` of that Schedule in the same Bundle (`Practitioner/clin-001`).',
      'Vitals FHIR Bundles (`Accept: application/fhir+json`): `fullUrl` is now a `urn:uuid:` (stable per observation) instead of a `/fhir/Observation/...` URL that answered 404; identify an Observation by its `identifier` (`urn:vitalis:observation`, `<device_id>/<seq>`) as before.',
      'AllergyIntolerance: nothing to change when reading `code.text`, `criticality` or `reaction[0].description`; new `clinicalStatus` and `reaction[].manifestation`.',
      'Client libraries: update to 0.2.0 (TypeScript `patients.get(id).patient`, Python `get_patient(id).patient`, Go `GetPatient(...).Patient`).',
    ],
  },
  {
    title: 'Adopting v1',
    steps: [
      'Every endpoint lives under /api/v1 (the version is the path prefix); a breaking change gets a new prefix, v1 keeps working until its announced sunset.',
      'Send `Authorization: Bearer <token>`; every clinical endpoint needs the scopes listed in /openapi.json (`security` of each operation).',
      'Branch on the `type` URL of an error (RFC 9457, `application/problem+json`), not on its `detail` text.',
      'Watch for `Deprecation` and `Sunset` response headers; the `Link` header with rel="successor-version" names the replacement.',
    ],
  },
];

/** The notes as Markdown, for the OpenAPI `info.description`. */
export function notesMarkdown(): string {
  const releases = RELEASES.map((r) => `### ${r.version} (${r.date})\n\n${r.notes.map((n) => `- ${n}`).join('\n')}`).join('\n\n');
  const migrations = MIGRATIONS.map((m) => `### ${m.title}\n\n${m.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`).join('\n\n');
  return `## Release notes\n\n${releases}\n\n## Migration notes\n\n${migrations}`;
}
