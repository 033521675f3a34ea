/**
 * FHIR Observation: vital signs (vitals service: readHistory, readObservation; its range rules,
 * cursors and audit, `via: fhir`). One patient's Observations in a date range, sent as text through
 * the per-code templates; `_include=Observation:patient` adds the Patient. `$lastn`: operations/lastn.ts.
 */
import { z } from 'zod';
import { VITAL_CODE, observationSearchsetJson, toFhirObservation } from '@vitalis/schemas';
import { nextPageUrl } from '@vitalis/http';
import { toFhirPatient } from '../../patients/fhir';
import { getPatient } from '../../patients/service';
import { orderedRange, readHistory, readObservation, requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import { countParam, defineFhirResource, searchParam, type SearchContext } from '../definition';
import { LASTN_OPERATION } from '../operations/lastn';
import { fhirObservation, fhirObservationBundle } from '../schemas';
import {
  categoryMatches,
  cursor,
  format,
  listOf,
  notSupported,
  observationRange,
  oneOrMany,
  searchedPatient,
  vitalCodeOf,
} from '../search-params';

const query = z.strictObject({
  patient: searchParam(
    z.string().max(300).optional().describe('Patient/{id} or {id} (this or subject is required)'),
    'reference',
    'Required (or subject): Patient/{id} or {id}.',
  ),
  subject: searchParam(z.string().max(300).optional().describe('Patient/{id} or {id}'), 'reference', 'Same as patient.'),
  code: searchParam(
    z.string().max(300).optional().describe('system|code or code'),
    'token',
    `system|code or code (LOINC vital signs; MDC ${VITAL_CODE.ecgLeadII} ECG lead II). One token; no comma lists.`,
  ),
  date: searchParam(
    oneOrMany.optional().describe('[prefix]date-time, prefixes ge gt le lt eq; repeat for a range'),
    'date',
    'Prefixes ge, gt, le, lt, eq (repeatable, combined as AND). Without a lower bound the search covers the 24 hours before the upper bound (default now); at most 31 days per search.',
  ),
  category: searchParam(z.string().max(300).optional().describe('vital-signs'), 'token', 'vital-signs (every Observation here is one).'),
  _include: z.string().max(100).optional().describe('Observation:patient (the searched Patient, search mode include)'),
  _count: countParam(1_000, 100),
  _sort: searchParam(
    z.string().max(20).optional().describe('date (ascending, the default) or -date (newest first)'),
    'string',
    'date (ascending, the default) or -date (newest first); no other sort key.',
  ),
  _cursor: cursor,
  _format: format,
});

/** `_include` values an Observation search answers: the subject, a Patient. */
const OBSERVATION_INCLUDES = new Set([
  'Observation:patient',
  'Observation:patient:Patient',
  'Observation:subject',
  'Observation:subject:Patient',
]);

/** One page of a patient's Observations, with the next page's link (the range made explicit) and the included Patient. */
async function searchObservations({ q, req, deps, caller: callerOfRequest }: SearchContext<z.infer<typeof query>>) {
  if (q._sort !== undefined && q._sort !== 'date' && q._sort !== '-date')
    throw notSupported(
      `_sort=${q._sort} is not supported: Observations sort by date only (_sort=date, the default, or -date: newest first).`,
    );
  const descending = q._sort === '-date';
  if (q._include !== undefined && !OBSERVATION_INCLUDES.has(q._include))
    throw notSupported(`_include=${q._include} is not supported (Observation:patient is).`);
  const patient = searchedPatient(q);
  const code = q.code === undefined ? undefined : vitalCodeOf(q.code);
  const { from, to } = observationRange(listOf(q.date), Date.now());
  const range = orderedRange(from, to);
  const caller = callerOfRequest();
  const self = `${deps.config.baseUrl}${req.url}`;
  if (code === null || !categoryMatches(q.category)) {
    // matches nothing stored; the access rule still holds (a refusal is a 403, audited)
    await requireVitalsAccess(deps.pool, caller, [patient], { action: 'vitals.read', via: 'fhir' });
    return { entries: [] };
  }
  const page = await readHistory(deps.pool, caller, { patient, code, range, limit: q._count, cursor: q._cursor, descending }, 'fhir');
  if (page.kind !== 'raw') throw new Error('unreachable: a raw query answered buckets');
  const observationBase = `${deps.config.baseUrl}${FHIR_BASE_PATH}/Observation`;
  // the range made explicit, so the next page is the same query whatever "now" is then
  const nextQuery = {
    patient,
    code: q.code,
    date: [`ge${range.from}`, `lt${range.to}`],
    category: q.category,
    _count: q._count,
    _sort: descending ? '-date' : undefined,
    _include: q._include,
  };
  const next = page.next ? nextPageUrl(observationBase, nextQuery, page.next) : undefined;
  const links = { self, observationBase, ...(next ? { next } : {}) };
  // _include=Observation:patient: the searched Patient, read through the patients service (its access rule and audit)
  const included = q._include !== undefined && page.rows.length > 0 ? (await getPatient(deps.pool, caller, patient)).patient : undefined;
  const include = included
    ? [
        {
          fullUrl: `${deps.config.baseUrl}${FHIR_BASE_PATH}/Patient/${included.id}`,
          resource: toFhirPatient(included),
          search: { mode: 'include' as const },
        },
      ]
    : [];
  // Sent as text, each Observation through its per-code template (schemas/src/fhir-json.ts): a page is up to
  // 1,000 Observations, and building and re-validating them as objects doubled the search's time (test/bench/fhir.bench.ts)
  return { json: observationSearchsetJson(page.rows, links, include) };
}

export const observationResource = defineFhirResource({
  type: 'Observation',
  auth: { scopes: ['read:vitals'] },
  interactions: ['read', 'search-type'],
  schema: fhirObservation,
  bundle: fhirObservationBundle,
  supportedProfile: ['http://hl7.org/fhir/StructureDefinition/vitalsigns'],
  documentation: 'id: {device_id}.{seq} (the stored row; a device numbers its observations with a strictly increasing seq).',
  searchInclude: ['Observation:patient'],
  operations: [LASTN_OPERATION],
  search: {
    summary: 'Search Observation (vital signs)',
    description:
      "One patient's vital-sign Observations (ECG as valueSampledData) in a date range, ascending by date: patient|subject (required), code, date (ge/gt/le/lt/eq; default the 24 h before now; at most 31 days), category=vital-signs, _count, _sort (date or -date). Served by the vitals service (same range rules, access rules and audit as GET /api/v1/vitals). Next page: Bundle.link next.",
    query,
    search: searchObservations,
  },
  read: {
    description:
      'One stored vital-sign Observation by its id `{device_id}.{seq}` (a device numbers its observations with a strictly increasing seq, so that is one stored row; the ids the searches answer). Served by the vitals service (the same access rule as a search: a patient user its own, a sandbox token no stored row; audited vitals.read).',
    read: async ({ deps, caller, id }) => ({ resource: toFhirObservation(await readObservation(deps.pool, caller(), id, 'fhir')) }),
  },
});
