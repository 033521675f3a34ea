/**
 * What the Bulk Data export's operations share (operations/export-kickoff.ts, export-status.ts,
 * export-file.ts; docs/export.md): the NDJSON media type, the owner a job is visible to (the client
 * and subject that kicked it off), the status URL, the error file's name and the informational
 * OperationOutcome of a 202.
 */
import type { Caller } from '../../access/caller';
import type { GatewayDeps } from '../../deps';
import { FHIR_BASE_PATH } from '../base';

export const NDJSON = 'application/fhir+ndjson';

/** The name of a job's OperationOutcome file (the manifest's `error`: its messages). */
export const ERROR_FILE = 'OperationOutcome-1.ndjson';

/** The owner of the jobs a caller may see: its client and subject. */
export const ownerOf = (caller: Caller) => ({ clientId: caller.principal.clientId, subject: caller.principal.subject });

/** The status URL of an export job. */
export const exportStatusUrl = (deps: GatewayDeps, id: string) => `${deps.config.baseUrl}${FHIR_BASE_PATH}/$export-status/${id}`;

/** An informational OperationOutcome (the kick-off's and the cancel's 202 body). */
export function accepted(text: string) {
  return { resourceType: 'OperationOutcome' as const, issue: [{ severity: 'information', code: 'informational', diagnostics: text }] };
}
