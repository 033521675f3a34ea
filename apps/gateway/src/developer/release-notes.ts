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
