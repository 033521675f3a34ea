/**
 * The kick-off parameters of a Bulk Data export (Bulk Data Access IG 3.0.0, docs/export.md), read
 * from a GET query or from the FHIR `Parameters` body of a POST into one shape (`ExportAsk`), each
 * value checked as the IG types it: `_outputFormat`, `_since`, `_until` (instants), `_type`,
 * `_elements`, `patient` (POST only, references), `includeAssociatedData` (codes), `_typeFilter`,
 * `organizeOutputBy`, `allowPartialManifests` (boolean). A malformed value or a parameter the
 * operation does not define is a 400 OperationOutcome; what the server does with a well-formed
 * value it does not serve is the kick-off's decision (export-kickoff.ts: 400, or lenient).
 */
import { z } from 'zod';
import { badRequest } from '@vitalis/http';
import { parseElement, type ExportFilter } from '@vitalis/export';
import { dateBounds, notSupported, patientIdOf, vitalCodeOf } from '../search-params';

/** What a kick-off asks for, from either form. */
export interface ExportAsk {
  outputFormat?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  /** `_type`: undefined when not given (every type the caller may read). */
  types?: string[] | undefined;
  elements?: string[] | undefined;
  /** `patient` (POST only): the patient ids named. */
  patients?: string[] | undefined;
  includeAssociatedData?: string[] | undefined;
  typeFilters: ExportFilter[];
  organizeOutputBy?: string | undefined;
  allowPartialManifests: boolean;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const ASSOCIATED_DATA = /^(LatestProvenanceResources|RelevantProvenanceResources|_[A-Za-z0-9]+)$/;
const RESOURCE_TYPE = /^[A-Z][A-Za-z]{1,63}$/;
const oneOrMany = (max: number, inner: z.ZodString) => z.union([inner, z.array(inner).max(max)]).optional();

export const kickOffQuery = z.strictObject({
  _outputFormat: z
    .string()
    .max(100)
    .optional()
    .describe('application/fhir+ndjson (the default and only format; application/ndjson and ndjson are its aliases)'),
  _type: oneOrMany(20, z.string().max(300)).describe(
    'Comma-separated resource types: Patient, Observation and the other patient-compartment types served (docs/export.md); default: every one the token may read',
  ),
  _since: z
    .string()
    .max(40)
    .optional()
    .describe("FHIR instant: only rows written after it (a previous manifest's transactionTime gives exactly the rows since that export)"),
  _until: z.string().max(40).optional().describe('FHIR instant: only rows written up to it'),
  _typeFilter: oneOrMany(20, z.string().max(1_000)).describe(
    "Observation?code=<token>[,<token>]&date=<prefix><date>[&date=...]; several are OR'ed",
  ),
  _elements: oneOrMany(20, z.string().max(500)).describe(
    'Comma-separated top-level elements ([Type.]name): each resource reduced to them (and its mandatory ones), tagged SUBSETTED',
  ),
  includeAssociatedData: oneOrMany(10, z.string().max(200)).describe(
    'LatestProvenanceResources, RelevantProvenanceResources or _custom: none is served (400; with Prefer: handling=lenient, noted in the manifest error file)',
  ),
  organizeOutputBy: z
    .string()
    .max(64)
    .optional()
    .describe('Patient: files of patient blocks (a header Parameters, the Patient, its resources)'),
  allowPartialManifests: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: the status answers the files written so far (202) and pages manifests with link next'),
});

/** One parameter of a kick-off's Parameters body: a name and one value of the types the operation uses. */
const parameter = z.strictObject({
  name: z.string().max(64),
  valueString: z.string().max(1_000).optional(),
  valueInstant: z.string().max(40).optional(),
  valueCode: z.string().max(200).optional(),
  valueBoolean: z.boolean().optional(),
  valueReference: z.looseObject({ reference: z.string().max(300) }).optional(),
});

/** The POST kick-off's body: a FHIR Parameters resource (docs/export.md). */
export const kickOffParameters = z
  .looseObject({
    resourceType: z.literal('Parameters'),
    parameter: z.array(parameter).max(1_000).optional(),
  })
  .describe('A FHIR Parameters resource with the kick-off parameters (Bulk Data Access IG 3.0: the same as the GET query, plus patient)')
  .meta({
    id: 'BulkExportParameters',
    example: {
      resourceType: 'Parameters',
      parameter: [
        { name: '_type', valueString: 'Patient,Observation' },
        { name: '_since', valueInstant: '2026-01-01T00:00:00Z' },
        { name: 'patient', valueReference: { reference: 'Patient/pat-0001' } },
      ],
    },
  });

/** The value type each parameter of the operation takes in a Parameters body, and whether it repeats. */
const PARAMETER_TYPES: Record<
  string,
  { value: 'valueString' | 'valueInstant' | 'valueCode' | 'valueBoolean' | 'valueReference'; many: boolean }
> = {
  _outputFormat: { value: 'valueString', many: false },
  _since: { value: 'valueInstant', many: false },
  _until: { value: 'valueInstant', many: false },
  _type: { value: 'valueString', many: true },
  _elements: { value: 'valueString', many: true },
  patient: { value: 'valueReference', many: true },
  includeAssociatedData: { value: 'valueCode', many: true },
  _typeFilter: { value: 'valueString', many: true },
  organizeOutputBy: { value: 'valueString', many: false },
  allowPartialManifests: { value: 'valueBoolean', many: false },
};

/** One `_typeFilter` value as a filter clause: Observation codes and an effective-time range. */
export function typeFilterOf(value: string): ExportFilter {
  const m = /^Observation\?(.*)$/.exec(value);
  if (!m) throw notSupported(`_typeFilter=${value}: only Observation filters are supported (Observation?code=...&date=...).`);
  const params = new URLSearchParams(m[1]);
  const filter: ExportFilter = {};
  const dates: string[] = [];
  for (const [name, v] of params) {
    if (name === 'code') {
      const codes = v.split(',').map((t) => vitalCodeOf(t));
      filter.codes = [...new Set([...(filter.codes ?? []), ...codes.filter((c): c is string => c !== null)])];
    } else if (name === 'date') dates.push(v);
    else throw notSupported(`_typeFilter: the Observation search parameter ${name} is not supported in an export (code and date are).`);
  }
  const { fromMs, toMs } = dateBounds(dates);
  if (fromMs !== undefined) filter.from = new Date(fromMs).toISOString();
  if (toMs !== undefined) filter.to = new Date(toMs).toISOString();
  return filter;
}

function instantOf(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!INSTANT.test(value) || Number.isNaN(Date.parse(value)))
    throw badRequest(`${name} must be a FHIR instant (e.g. 2026-01-01T00:00:00.000Z).`);
  return new Date(value).toISOString();
}

/** Comma-separated values of a repeatable parameter, trimmed, without empties; undefined when not given. */
function listOf(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The checked ask from the raw values of each parameter (strings, as the query gives them; `patient`: references). */
function askOf(raw: Partial<Record<keyof typeof PARAMETER_TYPES, string[]>>): ExportAsk {
  const one = (name: string) => {
    const values = raw[name];
    if (values && values.length > 1) throw badRequest(`${name} may be given once.`);
    return values?.[0];
  };
  const types = listOf(raw._type);
  const badType = types?.find((t) => !RESOURCE_TYPE.test(t));
  if (badType !== undefined) throw badRequest(`_type: ${badType} is not a FHIR resource type.`);
  const elements = listOf(raw._elements);
  const badElement = elements?.find((e) => parseElement(e) === undefined);
  if (badElement !== undefined)
    throw badRequest(`_elements: ${badElement} is not a top-level element ([Type.]name, e.g. Observation.valueQuantity or id).`);
  const associated = listOf(raw.includeAssociatedData);
  const badValue = associated?.find((v) => !ASSOCIATED_DATA.test(v));
  if (badValue !== undefined)
    throw badRequest(
      `includeAssociatedData: ${badValue} is not LatestProvenanceResources, RelevantProvenanceResources or a _custom value.`,
    );
  const organizeOutputBy = one('organizeOutputBy');
  if (organizeOutputBy !== undefined && !RESOURCE_TYPE.test(organizeOutputBy))
    throw badRequest(`organizeOutputBy: ${organizeOutputBy} is not a FHIR resource type.`);
  const partial = one('allowPartialManifests');
  const typeFilters = (raw._typeFilter ?? []).flatMap((f) => f.split(/,(?=Observation\?)/)).map(typeFilterOf);
  return {
    outputFormat: one('_outputFormat'),
    since: instantOf('_since', one('_since')),
    until: instantOf('_until', one('_until')),
    types,
    elements,
    patients: raw.patient?.map((r) => patientIdOf('patient', r)),
    includeAssociatedData: associated,
    typeFilters,
    organizeOutputBy,
    allowPartialManifests: partial === 'true',
  };
}

/** The ask of a GET kick-off, from its query (already shaped by kickOffQuery). */
export function askOfQuery(q: z.infer<typeof kickOffQuery>): ExportAsk {
  const many = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);
  return askOf({
    _outputFormat: many(q._outputFormat),
    _since: many(q._since),
    _until: many(q._until),
    _type: many(q._type),
    _elements: many(q._elements),
    includeAssociatedData: many(q.includeAssociatedData),
    _typeFilter: many(q._typeFilter),
    organizeOutputBy: many(q.organizeOutputBy),
    allowPartialManifests: many(q.allowPartialManifests),
  });
}

/** The ask of a POST kick-off, from its Parameters body: each parameter known, once unless it repeats, of its value type. */
export function askOfParameters(body: z.infer<typeof kickOffParameters>): ExportAsk {
  const raw: Record<string, string[]> = {};
  for (const p of body.parameter ?? []) {
    const type = PARAMETER_TYPES[p.name];
    if (!type) throw badRequest(`Parameters: ${p.name} is not a parameter of the export operation.`);
    const given = Object.keys(p).filter((k) => k.startsWith('value'));
    if (given.length !== 1 || given[0] !== type.value) throw badRequest(`Parameters: ${p.name} takes exactly one ${type.value}.`);
    const value = p.valueReference ? p.valueReference.reference : String(p[type.value] as string | boolean);
    if (!type.many && raw[p.name]) throw badRequest(`Parameters: ${p.name} may be given once.`);
    (raw[p.name] ??= []).push(value);
  }
  return askOf(raw);
}
