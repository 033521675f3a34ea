/**
 * FHIR Observation: vital signs (vitals service: readObservationPage, readObservationEntry; its
 * cursors and audit, `via: fhir`). All of one patient's Observations, or those of a date range,
 * paged by keyset over the whole history (work bounded per page, not per range); a device's
 * systolic and diastolic of one instant served as one R4 `bp` panel (85354-9, docs/adr/0026); sent
 * as text through the per-code templates; `_include=Observation:patient` adds the Patient.
 * `$lastn`: operations/lastn.ts.
 */
import { z } from 'zod';
import {
  BP_PANEL_CODE,
  BP_PROFILE,
  LOINC_SYSTEM,
  SPO2_PROFILE_CODE,
  VITAL_CODE,
  observationSearchsetJson,
  toFhirObservationEntry,
} from '@vitalis/schemas';
import { nextPageUrl } from '@vitalis/http';
import { toFhirPatient } from '../../patients/fhir';
import { getPatient } from '../../patients/service';
import { orderedRange, readObservationEntry, readObservationPage, requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import { countParam, defineFhirResource, searchParam, type SearchContext } from '../definition';
import { observationCodesOf } from '../observation-codes';
import { LASTN_OPERATION } from '../operations/lastn';
import { fhirObservation, fhirObservationBundle } from '../schemas';
import {
  categoryMatches,
  cursor,
  dateParam,
  format,
  isoDateFilter,
  listOf,
  searchedPatient,
  tokenList,
  referenceParam,
  tokensOf,
} from '../search-params';

const query = z.strictObject({
  patient: searchParam(
    referenceParam('Patient').optional().describe('Patient/{id} or {id} (this or subject is required)'),
    'reference',
    'Required (or subject): Patient/{id} or {id}.',
  ),
  subject: searchParam(referenceParam('Patient').optional().describe('Patient/{id} or {id}'), 'reference', 'Same as patient.'),
  code: searchParam(
    tokenList().optional().describe('[system|]code, comma-separated (OR)'),
    'token',
    `[system|]code, comma-separated (OR): LOINC vital signs (${SPO2_PROFILE_CODE} finds SpO2), ${BP_PANEL_CODE} the blood-pressure panel (${VITAL_CODE.systolic} and ${VITAL_CODE.diastolic} find the panels holding them, and a reading without its partner), MDC ${VITAL_CODE.ecgLeadII} ECG lead II.`,
  ),
  'component-code': searchParam(
    tokenList().optional().describe('[system|]code, comma-separated (OR)'),
    'token',
    `The blood-pressure panels by a component: ${VITAL_CODE.systolic} (systolic) or ${VITAL_CODE.diastolic} (diastolic), LOINC.`,
  ),
  date: searchParam(
    dateParam.optional().describe('[prefix]date-time (eq ne gt lt ge le sa eb ap); repeat for AND, comma for OR'),
    'date',
    "Every prefix (eq ne gt lt ge le sa eb ap), repeatable (AND), comma-separated (OR); honoured exactly. Without date: all of the patient's Observations, paged.",
  ),
  category: searchParam(tokenList().optional().describe('vital-signs'), 'token', 'vital-signs (every Observation here is one).'),
  _include: z
    .enum(['Observation:patient', 'Observation:patient:Patient', 'Observation:subject', 'Observation:subject:Patient'])
    .optional()
    .describe('Observation:patient (the searched Patient, search mode include)'),
  _count: countParam(1_000, 100),
  _sort: searchParam(
    z.enum(['date', '-date']).optional().describe('date (ascending, the default) or -date (newest first)'),
    'string',
    'date (ascending, the default) or -date (newest first); no other sort key.',
  ),
  _cursor: cursor,
  _format: format,
});

/** The widest instants a search reads when `date` leaves a side open (PostgreSQL's and JavaScript's common range). */
const OPEN_FROM = '0001-01-01T00:00:00.000Z';
const OPEN_TO = '9999-12-31T23:59:59.999Z';

/**
 * The codes an Observation search asks for from `code` and `component-code` (both: AND): undefined
 * for every code, null when nothing can match. `component-code` matches the blood-pressure panels
 * (their components are 8480-6 and 8462-4), so it narrows the search to the panel code.
 */
function searchedCodes(code: string | undefined, componentCode: string | undefined): string[] | undefined | null {
  const codes = observationCodesOf(code);
  if (componentCode === undefined) return codes;
  const bpParts: string[] = [VITAL_CODE.systolic, VITAL_CODE.diastolic];
  const component = tokensOf(componentCode).some(
    (t) => bpParts.includes(t.code) && (t.system === undefined || t.system === '' || t.system === LOINC_SYSTEM),
  );
  if (!component || codes === null) return null;
  if (codes === undefined) return [BP_PANEL_CODE];
  return codes.some((c) => c === BP_PANEL_CODE || bpParts.includes(c)) ? [BP_PANEL_CODE] : null;
}

/** The searched Patient as an `_include` entry, read through the patients service (its access rule and audit). */
async function includedPatient({ deps, caller }: SearchContext<z.infer<typeof query>>, patient: string) {
  const included = (await getPatient(deps.pool, caller(), patient)).patient;
  return {
    fullUrl: `${deps.config.baseUrl}${FHIR_BASE_PATH}/Patient/${included.id}`,
    resource: toFhirPatient(included),
    search: { mode: 'include' as const },
  };
}

/**
 * One page of a patient's Observations, in the order of `_sort`, with the next page's link (the
 * same parameters and the cursor after this page) and the included Patient. Without `date` the
 * whole history is searched; the `self` link holds every parameter applied (the request's, less those
 * a lenient search left out).
 */
async function searchObservations(ctx: SearchContext<z.infer<typeof query>>) {
  const { q, req, deps } = ctx;
  // _sort and _include are enums of what is served (the schema refuses any other value, 400)
  const descending = q._sort === '-date';
  const patient = searchedPatient(q);
  const codes = searchedCodes(q.code, q['component-code']);
  const dates = isoDateFilter('date', listOf(q.date));
  const caller = ctx.caller();
  if (codes === null || dates.none || !categoryMatches(q.category)) {
    // matches nothing stored; the access rule still holds (a refusal is a 403, audited)
    await requireVitalsAccess(deps.pool, caller, [patient], { action: 'vitals.read', via: 'fhir' });
    return { entries: [] };
  }
  const range = orderedRange(dates.from ?? OPEN_FROM, dates.to ?? OPEN_TO);
  const page = await readObservationPage(
    deps.pool,
    caller,
    { patient, codes, range, limit: q._count, cursor: q._cursor, descending },
    'fhir',
  );
  // ne and comma lists of apart dates: the range read is their hull, the rows kept are those they select
  const matches = dates.exact ? page.entries : page.entries.filter((e) => dates.matches(e.effective_at));
  const observationBase = `${deps.config.baseUrl}${FHIR_BASE_PATH}/Observation`;
  // the next page: every parameter applied (the same query: the cursor is bound to it), and its cursor
  const { _cursor, _format, ...applied } = q;
  const next = page.next ? nextPageUrl(observationBase, applied, page.next) : undefined;
  // the parameters applied: the request, or under Prefer: handling=lenient without those left out (register.ts)
  const links = { self: ctx.self ?? `${deps.config.baseUrl}${req.url}`, observationBase, ...(next ? { next } : {}) };
  const include = q._include !== undefined && matches.length > 0 ? [await includedPatient(ctx, patient)] : [];
  // Sent as text, each Observation through its per-code template (schemas/src/fhir-json.ts): a page is up to
  // 1,000 Observations, and building and re-validating them as objects doubled the search's time (test/bench/fhir.bench.ts)
  return { json: observationSearchsetJson(matches, links, include) };
}

export const observationResource = defineFhirResource({
  type: 'Observation',
  auth: { scopes: ['read:vitals'] },
  interactions: ['read', 'search-type'],
  schema: fhirObservation,
  bundle: fhirObservationBundle,
  supportedProfile: ['http://hl7.org/fhir/StructureDefinition/vitalsigns', BP_PROFILE],
  documentation: `id: {device_id}.{seq} (the stored row; a device numbers its observations with a strictly increasing seq). A blood-pressure panel (${BP_PANEL_CODE}, profile bp) has its systolic row's id.`,
  searchInclude: ['Observation:patient'],
  operations: [LASTN_OPERATION],
  search: {
    summary: 'Search Observation (vital signs)',
    description: `One patient's vital-sign Observations (ECG as valueSampledData; a device's systolic and diastolic of one instant as one blood-pressure panel, ${BP_PANEL_CODE}), ascending by date: patient|subject (required), code and component-code (comma: OR), date (every prefix; without it the patient's whole history), category=vital-signs, _count, _sort (date or -date). Paged by keyset (Bundle.link next), each page bounded work whatever the range. Served by the vitals service (same access rules and audit as GET /api/v1/vitals).`,
    query,
    search: searchObservations,
  },
  read: {
    description:
      'One stored vital-sign Observation by its id `{device_id}.{seq}` (a device numbers its observations with a strictly increasing seq, so that is one stored row; the ids the searches answer): a systolic with its diastolic partner reads as their blood-pressure panel. Served by the vitals service (the same access rule as a search: a patient user its own, a sandbox token no stored row; audited vitals.read).',
    read: async ({ deps, caller, id }) => ({
      resource: toFhirObservationEntry(await readObservationEntry(deps.pool, caller(), id, 'fhir')),
    }),
  },
});
