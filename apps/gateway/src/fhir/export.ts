/**
 * FHIR Bulk Data export (Bulk Data Access IG 3.0.0, issues 23 and 33, docs/export.md): the kick-off at the
 * system, Patient and Group levels (GET, or POST with a Parameters body), the status URL (202 with X-Progress and Retry-After while the
 * job runs, with the files written so far when partial manifests are allowed; 200 with the manifest
 * after, DELETE to cancel), and the file downloads (same token,
 * Range, gzip when asked, audited). The work itself is a job in PostgreSQL that the projector's
 * export worker runs (@vitalis/export); the operations (operations/export-kickoff.ts, export-status.ts,
 * export-file.ts) only ask, answer and serve; this plugin registers them.
 *
 * Who sees what: the route needs read:vitals (system/Observation.rs and user/Observation.rs stand
 * for it; a patient user's patient/Observation.rs too), the vitals service's rule decides which
 * patients (a patient user only itself, a sandbox principal nothing of the append log); the other
 * types are read through the FHIR definitions served (the same definitions as the routes: their
 * scopes, services, access rules and audit); a job is visible only to the client and subject that
 * kicked it off (404 to anyone else).
 *
 * The CapabilityStatement `operation` entries of the kick-offs are declared beside their routes
 * (export-kickoff.ts; the system-level one in rest.operation, the Patient-level one under Patient).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportStorage } from '@vitalis/export';
import type { GatewayDeps } from '../deps';
import { FHIR_RESOURCE_DEFINITIONS } from './resources';
import { registerExportFile } from './operations/export-file';
import { registerExportKickOffs } from './operations/export-kickoff';
import { registerExportStatus } from './operations/export-status';

/** The export's routes: the kick-offs, the status URL and the file downloads. */
export function exportRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const storage = exportStorage(deps.config);
  return async (app) => {
    registerExportKickOffs(app, deps, FHIR_RESOURCE_DEFINITIONS);
    registerExportStatus(app, deps, storage);
    registerExportFile(app, deps, storage);
  };
}
