/**
 * Pure mapping from the Vitalis wire observation to a FHIR R4 `Observation` resource (vital signs).
 *
 * - status `final`, category `vital-signs` (observation-category code system).
 * - code.coding: the LOINC code (SpO2 additionally carries 2708-6, which the R4 oxygen saturation
 *   profile requires next to 59408-5); ECG: MDC 131330 lead II.
 * - subject `Patient/<patient_id>`, device `Device/<device_id>`, effectiveDateTime.
 * - valueQuantity with the UCUM system, or valueSampledData for ECG (origin in mV, period in ms,
 *   dimensions 1, data = space-separated samples).
 * - identifier `urn:vitalis:observation` = `<device_id>/<seq>`: the idempotency key, stable across
 *   redelivery. id is `<device_id>.<seq>` (FHIR id charset), at most 64 characters or omitted.
 *
 * Systolic and diastolic are separate observations on the wire (a cuff reports both at once, but
 * a device may also report one). The read side pairs a device's two readings of one instant into
 * one blood-pressure panel (`BloodPressurePanel`, `toFhirBloodPressure`: LOINC 85354-9 with the
 * components 8480-6 and 8462-4, the R4 `bp` profile; docs/adr/0026); a reading without a partner
 * maps alone, to its own LOINC code.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BP_PANEL_CODE, ECG_LEAD_II, LOINC_SYSTEM, NUMERIC_VITALS, UCUM_SYSTEM, VITAL_CODE, type VitalsObservation } from './vitals';

export interface FhirCoding {
  system: string;
  code: string;
  display?: string;
}

const coding = z.object({ system: z.string(), code: z.string(), display: z.string().optional() });
const ucumQuantity = z.object({ value: z.number(), unit: z.string(), system: z.string(), code: z.string() });

/**
 * A vital-sign Observation exactly as toFhirObservation builds it (the OpenAPI component
 * `FhirObservation`; strict, so a field added to the mapping without its schema fails loudly).
 */
export const fhirObservationSchema = z
  .strictObject({
    resourceType: z.literal('Observation'),
    id: z.string().optional().describe('<device_id>.<seq>, omitted when longer than 64 characters'),
    meta: z.object({ profile: z.array(z.string()) }).optional(),
    identifier: z.array(z.object({ system: z.string(), value: z.string() })),
    status: z.literal('final'),
    category: z.array(z.object({ coding: z.array(coding), text: z.string().optional() })),
    code: z.object({ coding: z.array(coding), text: z.string() }),
    subject: z.object({ reference: z.string() }),
    device: z.object({ reference: z.string() }),
    effectiveDateTime: z.string(),
    valueQuantity: ucumQuantity.optional(),
    component: z
      .array(z.object({ code: z.object({ coding: z.array(coding), text: z.string() }), valueQuantity: ucumQuantity }))
      .optional()
      .describe(`Blood pressure panel (${BP_PANEL_CODE}): systolic ${VITAL_CODE.systolic} and diastolic ${VITAL_CODE.diastolic}`),
    valueSampledData: z
      .object({
        origin: ucumQuantity,
        period: z.number(),
        dimensions: z.literal(1),
        lowerLimit: z.number(),
        upperLimit: z.number(),
        data: z.string(),
      })
      .optional(),
  })
  .meta({
    id: 'FhirObservation',
    description:
      'A FHIR R4 vital-sign Observation (https://hl7.org/fhir/R4/observation-vitalsigns.html): valueQuantity, or valueSampledData for ECG',
  });

/** A type alias (not an interface): it is assignable to the open record the response schemas describe. */
export type FhirObservation = z.infer<typeof fhirObservationSchema>;

export const OBSERVATION_IDENTIFIER_SYSTEM = 'urn:vitalis:observation';
/** The extra LOINC coding the R4 oxygen saturation profile requires on SpO2 (searches by it find SpO2). */
export const SPO2_PROFILE_CODE = '2708-6';

const VITAL_SIGNS_CATEGORY = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs', display: 'Vital Signs' }],
  text: 'Vital Signs',
};

/** An Observation's FHIR id, `{device_id}.{seq}` (one stored row), or undefined when it is longer than FHIR allows (64). */
export function observationId(deviceId: string, seq: number): string | undefined {
  const id = `${deviceId}.${seq}`;
  return id.length <= 64 ? id : undefined;
}
const fhirId = (o: VitalsObservation) => observationId(o.device_id, o.seq);

export function toFhirObservation(o: VitalsObservation): FhirObservation {
  const base = {
    resourceType: 'Observation' as const,
    ...(fhirId(o) ? { id: fhirId(o) } : {}),
    identifier: [{ system: OBSERVATION_IDENTIFIER_SYSTEM, value: `${o.device_id}/${o.seq}` }],
    status: 'final' as const,
    category: [VITAL_SIGNS_CATEGORY],
    subject: { reference: `Patient/${o.patient_id}` },
    device: { reference: `Device/${o.device_id}` },
    effectiveDateTime: o.effective_at,
  };
  if (o.code === ECG_LEAD_II.code) {
    return {
      ...base,
      code: { coding: [{ system: ECG_LEAD_II.system, code: ECG_LEAD_II.code, display: ECG_LEAD_II.display }], text: 'ECG lead II' },
      valueSampledData: {
        origin: { value: o.waveform.origin, unit: ECG_LEAD_II.quantityUnit, system: UCUM_SYSTEM, code: ECG_LEAD_II.unit },
        period: o.waveform.period_ms,
        dimensions: 1,
        lowerLimit: ECG_LEAD_II.min,
        upperLimit: ECG_LEAD_II.max,
        data: o.waveform.samples.map(formatSample).join(' '),
      },
    };
  }
  const def = NUMERIC_VITALS[o.code];
  const coding: FhirCoding[] = [{ system: LOINC_SYSTEM, code: def.code, display: def.display }];
  if (o.code === VITAL_CODE.spo2)
    coding.unshift({ system: LOINC_SYSTEM, code: SPO2_PROFILE_CODE, display: 'Oxygen saturation in Arterial blood' });
  const profile: string | undefined = 'fhirProfile' in def ? def.fhirProfile : undefined;
  return {
    ...base,
    ...(profile ? { meta: { profile: [profile] } } : {}),
    code: { coding, text: def.display },
    valueQuantity: { value: o.value, unit: def.quantityUnit, system: UCUM_SYSTEM, code: def.unit },
  };
}

export const BP_PROFILE = 'http://hl7.org/fhir/StructureDefinition/bp';

/**
 * A device's systolic and diastolic readings of one instant, paired on the read side (the append
 * log keeps them as two rows). The panel takes the systolic row's identity: its id is the
 * systolic's `{device_id}.{seq}` (so it sorts and pages where the systolic row does).
 */
export interface BloodPressurePanel {
  kind: 'bp-panel';
  patient_id: string;
  device_id: string;
  /** The systolic row's seq. */
  seq: number;
  /** The diastolic row's seq. */
  diastolic_seq: number;
  effective_at: string;
  systolic: number;
  diastolic: number;
}

/** What an Observation search serves: a stored reading, or a blood-pressure panel of two. */
export type ObservationEntry = VitalsObservation | BloodPressurePanel;

export const isBloodPressurePanel = (o: ObservationEntry): o is BloodPressurePanel => 'kind' in o && o.kind === 'bp-panel';

/** A component of the panel: one of the two LOINC codes with its value in mm[Hg]. */
function bpComponent(code: typeof VITAL_CODE.systolic | typeof VITAL_CODE.diastolic, value: number) {
  const def = NUMERIC_VITALS[code];
  return {
    code: { coding: [{ system: LOINC_SYSTEM, code, display: def.display }], text: def.display },
    valueQuantity: { value, unit: def.quantityUnit, system: UCUM_SYSTEM, code: def.unit },
  };
}

/**
 * A blood-pressure panel as the R4 vital-signs `bp` Observation: code 85354-9, components 8480-6
 * and 8462-4 (valueQuantity in mm[Hg]), no value of its own; both stored rows named in `identifier`.
 */
export function toFhirBloodPressure(p: BloodPressurePanel): FhirObservation {
  const id = observationId(p.device_id, p.seq);
  return {
    resourceType: 'Observation',
    ...(id ? { id } : {}),
    meta: { profile: [BP_PROFILE] },
    identifier: [
      { system: OBSERVATION_IDENTIFIER_SYSTEM, value: `${p.device_id}/${p.seq}` },
      { system: OBSERVATION_IDENTIFIER_SYSTEM, value: `${p.device_id}/${p.diastolic_seq}` },
    ],
    status: 'final',
    category: [VITAL_SIGNS_CATEGORY],
    code: {
      coding: [{ system: LOINC_SYSTEM, code: BP_PANEL_CODE, display: 'Blood pressure panel with all children optional' }],
      text: 'Blood pressure',
    },
    subject: { reference: `Patient/${p.patient_id}` },
    device: { reference: `Device/${p.device_id}` },
    effectiveDateTime: p.effective_at,
    component: [bpComponent(VITAL_CODE.systolic, p.systolic), bpComponent(VITAL_CODE.diastolic, p.diastolic)],
  };
}

/** Any Observation entry as its FHIR resource (a panel, or a stored reading). */
export const toFhirObservationEntry = (o: ObservationEntry): FhirObservation =>
  isBloodPressurePanel(o) ? toFhirBloodPressure(o) : toFhirObservation(o);

/** Samples as decimals without float noise (real[] round-trips as e.g. 0.10000000149). */
function formatSample(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}

/**
 * FHIR R4 searchset Bundles, the one builder every listing uses (REST v1 patients, appointments,
 * vitals, diagnostics; every /fhir/R4 search): paging is `link` (relation `self`, `next`), never a
 * property of its own; every entry has a `fullUrl` (bundle rule: the identity of the resource) and
 * `search.mode` (`match` for the results, `include` for resources they reference, e.g. a Slot's
 * Schedule). Nothing matched: no `entry` at all (FHIR ele-1: an array is never empty).
 */
export interface FhirBundleEntry<R = Record<string, unknown>> {
  fullUrl: string;
  resource: R;
  search: { mode: 'match' | 'include' };
}
export interface FhirBundle<R = Record<string, unknown>> {
  resourceType: 'Bundle';
  type: 'searchset';
  /** Bundle.total: only where the listing knows it (the whole result fits one page). */
  total?: number;
  link: { relation: 'self' | 'next'; url: string }[];
  /** Absent when nothing matched. */
  entry?: FhirBundleEntry<R>[];
}

export function searchsetBundle<R>(
  entry: FhirBundleEntry<R>[],
  links: { self: string; next?: string | null | undefined; total?: number | undefined },
): FhirBundle<R> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(links.total !== undefined ? { total: links.total } : {}),
    link: [{ relation: 'self', url: links.self }, ...(links.next ? [{ relation: 'next' as const, url: links.next }] : [])],
    ...(entry.length > 0 ? { entry } : {}),
  };
}

/** The response schema of a searchset Bundle of `resource` (OpenAPI). */
export function bundleSchema<T extends z.ZodType>(resource: T) {
  return z.object({
    resourceType: z.literal('Bundle'),
    type: z.literal('searchset'),
    total: z.number().int().optional().describe('The number of matches, where the listing knows it'),
    link: z
      .array(z.object({ relation: z.enum(['self', 'next']), url: z.string() }))
      .describe('`self`, and `next` (the next page) unless this is the last page'),
    entry: z
      .array(
        z.object({
          fullUrl: z.string().describe('The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one'),
          resource,
          search: z.object({ mode: z.enum(['match', 'include']) }),
        }),
      )
      .optional()
      .describe('Absent when nothing matched (a FHIR array is never empty)'),
  });
}

/**
 * `urn:uuid:` fullUrl of a resource the API has no URL for (an Observation, a Slot, a Schedule):
 * a name-based UUID (RFC 4122 version 5 layout over SHA-1 of `<type>/<id>`), so the same resource
 * has the same fullUrl in every response and page.
 */
export function entryUuid(resourceType: string, id: string): string {
  const h = createHash('sha1').update(`vitalis:${resourceType}/${id}`).digest();
  h.writeUInt8((h.readUInt8(6) & 0x0f) | 0x50, 6);
  h.writeUInt8((h.readUInt8(8) & 0x3f) | 0x80, 8);
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/**
 * Vitals as a searchset Bundle of vital-sign Observations. REST v1 has no URL for one Observation:
 * urn:uuid fullUrls; the FHIR API reads them at `{observationBase}/{id}` (give it), so theirs are
 * that URL (an id too long for FHIR keeps its urn:uuid).
 */
/**
 * The fullUrl of an Observation entry: its read URL under `observationBase` (the FHIR API's
 * `/Observation`) when it has an id, else the stable urn:uuid of its identity.
 */
export function observationFullUrl(o: Pick<VitalsObservation, 'device_id' | 'seq' | 'effective_at'>, observationBase?: string): string {
  const id = observationBase ? observationId(o.device_id, o.seq) : undefined;
  return id !== undefined ? `${observationBase}/${id}` : entryUuid('Observation', `${o.device_id}/${o.seq}/${o.effective_at}`);
}

export function toSearchsetBundle(
  observations: ObservationEntry[],
  links: { self: string; next?: string | undefined; observationBase?: string },
): FhirBundle<FhirObservation> {
  return searchsetBundle(
    observations.map((o) => {
      const resource = toFhirObservationEntry(o);
      return { fullUrl: observationFullUrl(o, links.observationBase), resource, search: { mode: 'match' as const } };
    }),
    { self: links.self, next: links.next },
  );
}
