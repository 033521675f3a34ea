/**
 * The resources of a Bulk Data export other than Observations (which the worker streams out of the
 * append log): Patient and every served type whose search takes `patient` (the patient compartment:
 * AllergyIntolerance, Appointment, ServiceRequest, DiagnosticReport, DetectedIssue, ...), read at
 * kick-off through the very definitions the FHIR API serves them from (resources/<Type>.ts: the
 * domain services, with the caller's access rules and audit, as a FHIR read or search), reduced to
 * `_elements`, filtered by `_since` / `_until` on meta.lastUpdated where the resource has one,
 * and numbered by type then patient (the worker's order; organized by patient it takes each
 * patient's in that order: the Patient first).
 */
import type { FastifyRequest } from 'fastify';
import { HttpProblem } from '@vitalis/http';
import { subsetElements, type ExportMessage, type ExportRecord } from '@vitalis/export';
import type { GatewayDeps } from '../../deps';
import type { Caller } from '../../access/caller';
import { principalMeets } from '../../auth/route-auth';
import { FHIR_BASE_PATH } from '../base';
import type { FhirResourceDefinition, SearchContext, SearchEntry } from '../definition';

/** What reading a type's resources needs: the request, the caller, the definitions served. */
export interface RecordSource {
  req: FastifyRequest;
  deps: GatewayDeps;
  caller: Caller;
  definitions: readonly FhirResourceDefinition[];
}

/** What the export keeps of the records' ask. */
export interface RecordAsk {
  types: readonly string[];
  patients: readonly string[];
  since?: string | undefined;
  until?: string | undefined;
  elements?: readonly string[] | undefined;
}

/** The types exported from the definitions (Observation: the worker's): Patient, and each type searched by `patient`. */
export function recordDefinitions(definitions: readonly FhirResourceDefinition[]): FhirResourceDefinition[] {
  return definitions.filter((d) => d.type !== 'Observation' && (d.type === 'Patient' || 'patient' in d.search.query.shape));
}

/** Whether the caller's token meets the type's route guard (as a FHIR read of it would). */
export function mayRead(caller: Caller, def: FhirResourceDefinition): boolean {
  return principalMeets(caller.principal, def.auth);
}

/** A 404 of a domain service (an unknown patient): nothing to export, not an error of the export. */
const isNotFound = (err: unknown) => err instanceof HttpProblem && err.status === 404;

/** Every page of a type's search with these parameters (paged through `_cursor` where the search has it), its matches only. */
async function searchAll(
  src: RecordSource,
  def: FhirResourceDefinition,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const { req, deps, caller } = src;
  const urlOf = (type: string, id: string) => `${deps.config.baseUrl}${FHIR_BASE_PATH}/${type}/${id}`;
  const entry = (mode: 'match' | 'include') => (type: string, id: string, resource: object) =>
    ({ fullUrl: urlOf(type, id), resource: resource as Record<string, unknown>, search: { mode } }) as SearchEntry;
  const out: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const q = def.search.query.parse({ ...params, ...(cursor === undefined ? {} : { _cursor: cursor }) });
    const ctx: SearchContext<typeof q> = { req, q, deps, caller: () => caller, urlOf, match: entry('match'), included: entry('include') };
    const result = await def.search.search(ctx);
    if ('json' in result) break;
    out.push(...result.entries.filter((e) => e.search?.mode !== 'include').map((e) => e.resource));
    cursor = result.nextCursor && '_cursor' in def.search.query.shape ? result.nextCursor : undefined;
  } while (cursor !== undefined);
  return out;
}

/** One patient's resources of one type: the Patient read, or the type's search by `patient`. */
async function resourcesOf(src: RecordSource, def: FhirResourceDefinition, patient: string): Promise<Record<string, unknown>[]> {
  if (def.type !== 'Patient') return searchAll(src, def, { patient });
  const { resource } = await def.read.read({ req: src.req, id: patient, caller: () => src.caller, deps: src.deps });
  return [resource as Record<string, unknown>];
}

/** The ids of every patient the caller finds (the Patient search, every page): a system-level export's patients. */
export async function allPatientIds(src: RecordSource, patientDefinition: FhirResourceDefinition): Promise<string[]> {
  const found = await searchAll(src, patientDefinition, { _count: 100 });
  return found.map((p) => String(p.id));
}

/** Whether a resource's meta.lastUpdated is within `_since` / `_until` (a resource without one is kept, as the IG allows). */
function withinTimes(resource: Record<string, unknown>, since?: string, until?: string): boolean {
  const updated = (resource.meta as { lastUpdated?: string } | undefined)?.lastUpdated;
  if (updated === undefined) return true;
  const at = Date.parse(updated);
  return !((since !== undefined && at <= Date.parse(since)) || (until !== undefined && at > Date.parse(until)));
}

/**
 * The records of the asked types of each patient, by type then patient, as NDJSON lines; a patient
 * that does not exist is skipped with a warning for the manifest's error file.
 */
export async function gatherRecords(src: RecordSource, ask: RecordAsk): Promise<{ records: ExportRecord[]; messages: ExportMessage[] }> {
  const records: ExportRecord[] = [];
  const missing = new Set<string>();
  for (const def of recordDefinitions(src.definitions).filter((d) => ask.types.includes(d.type))) {
    for (const patient of ask.patients) {
      if (missing.has(patient)) continue;
      let resources: Record<string, unknown>[];
      try {
        resources = await resourcesOf(src, def, patient);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        missing.add(patient);
        continue;
      }
      for (const r of resources.filter((x) => withinTimes(x, ask.since, ask.until))) {
        const resource = ask.elements && ask.elements.length > 0 ? subsetElements(r, ask.elements) : r;
        records.push({ patient, type: def.type, line: JSON.stringify(resource) });
      }
    }
  }
  const messages = [...missing].map((p): ExportMessage => ({
    severity: 'warning',
    code: 'not-found',
    diagnostics: `Patient/${p} is not a registered patient: only its Observations (if any) are exported.`,
  }));
  return { records, messages };
}
