/**
 * Diagnostic orders and reports as FHIR R4 JSON: ServiceRequest, DiagnosticReport with its
 * Observations contained (referenced from `result` as `#obs-n`), and the parsing of a posted
 * DiagnosticReport into the decider's result inputs. Every object built here that says
 * `resourceType` is meant to validate as FHIR R4 (tests check it with an independent validator
 * where it is available).
 */
import { z } from 'zod';
import {
  INTERPRETATION_DISPLAY,
  INTERPRETATION_SYSTEM,
  LOINC,
  ORDERABLE_TESTS,
  UCUM,
  isOrderableCode,
  type OrderableCode,
} from '@vitalis/clinical';
import { must } from '@vitalis/runtime';
import { DIAGNOSTIC_REPORT_STATUSES, SERVICE_REQUEST_PRIORITIES, SERVICE_REQUEST_STATUSES } from '@vitalis/records';
import type {
  DiagnosticReportState,
  DiagnosticReportStatus,
  ReportContent,
  ResultInput,
  ResultValue,
  ServiceRequestState,
} from '@vitalis/records';
import { absoluteUri, fhirCode, fhirObservationSchema, instant, type FhirObservation, nonBlankText } from '@vitalis/schemas';

/** Where a Reference names a Vitalis principal (who ordered, who acknowledged): by identifier, not by a Practitioner we do not hold. */
export const SUBJECT_SYSTEM = 'urn:vitalis:subject';

const codeableLoinc = (code: string, display: string) => ({ coding: [{ system: LOINC, code, display }], text: display });
const testDisplay = (code: string) => (isOrderableCode(code) ? ORDERABLE_TESTS[code as OrderableCode].display : code);
/** The report codes of a diagnostic service section (DiagnosticReport.category, v2-0074: LAB, EC, ...). */
export const codesInSection = (section: string): string[] =>
  Object.values(ORDERABLE_TESTS)
    .filter((t) => t.section === section)
    .map((t) => t.code);
export const SECTION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v2-0074';
const sectionOf = (code: string) => (isOrderableCode(code) ? ORDERABLE_TESTS[code as OrderableCode].section : 'LAB');

// ---- output: exactly what the builders below produce (strict: a field added to a builder without
// its schema is a serialization error in the tests, never a silent drop or an `unknown` in a client)

const reference = z.object({ reference: z.string() });
const versionMeta = z.object({
  versionId: z.string().describe('The stream version (the ETag); r<n> for a revision of the history'),
  lastUpdated: z.string(),
});
const codeableOut = z.object({
  coding: z.array(z.object({ system: z.string(), code: z.string(), display: z.string() })),
  text: z.string(),
});
const quantityOut = z.object({ value: z.number(), unit: z.string(), system: z.string(), code: z.string() });

export const serviceRequestOut = z
  .strictObject({
    resourceType: z.literal('ServiceRequest'),
    id: z.string(),
    meta: versionMeta,
    status: z.enum(SERVICE_REQUEST_STATUSES),
    intent: z.enum(['order', 'proposal']),
    priority: z.enum(SERVICE_REQUEST_PRIORITIES),
    code: codeableOut,
    subject: reference,
    authoredOn: z.string(),
    requester: z.object({ identifier: z.object({ system: z.literal(SUBJECT_SYSTEM), value: z.string() }) }),
    performer: z.array(z.object({ display: z.string() })),
    reasonCode: z.array(z.object({ text: z.string() })).optional(),
    note: z.array(z.object({ text: z.string() })).optional(),
  })
  .meta({ id: 'ServiceRequest', description: 'FHIR R4 ServiceRequest (https://hl7.org/fhir/R4/servicerequest.html): a diagnostic order' });

const observationStatus = z.enum(['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error']);
/** A laboratory or narrative result, contained in its report. */
const resultObservationOut = z.strictObject({
  resourceType: z.literal('Observation'),
  id: z.string().describe("obs-<n>, referenced from the report's result as #obs-<n>"),
  status: observationStatus,
  code: codeableOut,
  subject: reference,
  effectiveDateTime: z.string(),
  valueQuantity: quantityOut.optional(),
  valueString: z.string().optional(),
  interpretation: z
    .array(z.object({ coding: z.array(z.object({ system: z.string(), code: z.string(), display: z.string() })) }))
    .optional(),
  referenceRange: z.array(z.object({ low: quantityOut.optional(), high: quantityOut.optional() })).optional(),
});
/** A telemetry result: the vitals mapping's Observation (same samples, device, time), local id, the report's status. */
const telemetryObservationOut = fhirObservationSchema.extend({ id: z.string(), status: observationStatus });
export type ContainedObservation = z.infer<typeof resultObservationOut> | z.infer<typeof telemetryObservationOut>;

export const diagnosticReportOut = z
  .strictObject({
    resourceType: z.literal('DiagnosticReport'),
    id: z.string(),
    meta: versionMeta,
    contained: z
      .array(z.union([resultObservationOut, telemetryObservationOut]))
      .optional()
      .describe('The results, as FHIR Observations'),
    identifier: z.array(z.object({ system: z.string(), value: z.string() })).describe("The filler's identifier"),
    basedOn: z.array(reference).describe('ServiceRequest/<order id>'),
    status: z.enum(DIAGNOSTIC_REPORT_STATUSES),
    category: z.array(z.object({ coding: z.array(z.object({ system: z.string(), code: z.string() })) })),
    code: codeableOut,
    subject: reference,
    effectiveDateTime: z.string(),
    issued: z.string(),
    performer: z.array(z.object({ display: z.string() })),
    result: z.array(reference).optional().describe('#obs-<n>: the contained Observations'),
    conclusion: z.string().optional(),
  })
  .meta({
    id: 'DiagnosticReport',
    description: 'FHIR R4 DiagnosticReport (https://hl7.org/fhir/R4/diagnosticreport.html), its Observations contained',
  });

/** A result as the critical-result views show it (the decider's ResultValue; a telemetry Observation is never critical). */
export const resultValueOut = z
  .object({
    code: z.string(),
    display: z.string(),
    value: z.number().optional(),
    unit: z.string().optional(),
    text: z.string().optional(),
    interpretation: z.enum(['N', 'L', 'H', 'LL', 'HH', 'A', 'AA']).optional(),
    referenceRange: z.object({ low: z.number().optional(), high: z.number().optional() }).optional(),
  })
  .meta({
    id: 'ResultValue',
    description: 'One result of a report: LOINC code, value (UCUM unit) or text, interpretation against its reference range',
  });

export function toFhirServiceRequest(o: ServiceRequestState): z.infer<typeof serviceRequestOut> {
  return {
    resourceType: 'ServiceRequest',
    id: o.id,
    meta: { versionId: String(o.version), lastUpdated: o.updatedAt },
    status: o.status,
    intent: o.intent,
    priority: o.priority,
    code: codeableLoinc(o.code, testDisplay(o.code)),
    subject: { reference: `Patient/${o.patientId}` },
    authoredOn: o.authoredAt,
    requester: { identifier: { system: SUBJECT_SYSTEM, value: o.requester } },
    performer: [{ display: o.performer }],
    ...(o.reason ? { reasonCode: [{ text: o.reason }] } : {}),
    ...(o.note ? { note: [{ text: o.note }] } : {}),
  };
}

const OBSERVATION_STATUS: Record<DiagnosticReportStatus, z.infer<typeof observationStatus>> = {
  registered: 'registered',
  partial: 'preliminary',
  preliminary: 'preliminary',
  final: 'final',
  amended: 'amended',
  corrected: 'corrected',
  cancelled: 'cancelled',
  'entered-in-error': 'entered-in-error',
};

const quantity = (value: number, unit: string) => ({ value, unit, system: UCUM, code: unit });

function toFhirObservation(
  r: ResultValue,
  i: number,
  status: DiagnosticReportStatus,
  patientId: string,
  effectiveAt: string,
): ContainedObservation {
  // telemetry from the append log: the vitals mapping's Observation (same samples, device, time), local id, the report's status
  if (r.observation) return { ...(r.observation as FhirObservation), id: `obs-${i + 1}`, status: OBSERVATION_STATUS[status] };
  const range =
    r.referenceRange && r.unit
      ? [
          {
            ...(r.referenceRange.low !== undefined ? { low: quantity(r.referenceRange.low, r.unit) } : {}),
            ...(r.referenceRange.high !== undefined ? { high: quantity(r.referenceRange.high, r.unit) } : {}),
          },
        ]
      : [];
  return {
    resourceType: 'Observation',
    id: `obs-${i + 1}`,
    status: OBSERVATION_STATUS[status],
    code: codeableLoinc(r.code, r.display),
    subject: { reference: `Patient/${patientId}` },
    effectiveDateTime: effectiveAt,
    ...(r.value !== undefined && r.unit ? { valueQuantity: quantity(r.value, r.unit) } : { valueString: r.text ?? '' }),
    ...(r.interpretation
      ? {
          interpretation: [
            { coding: [{ system: INTERPRETATION_SYSTEM, code: r.interpretation, display: INTERPRETATION_DISPLAY[r.interpretation] }] },
          ],
        }
      : {}),
    ...(range[0] && Object.keys(range[0]).length ? { referenceRange: range } : {}),
  };
}

/** A report as of one content (the current state, or a revision of the history). */
export function toFhirDiagnosticReport(
  r: DiagnosticReportState,
  content: ReportContent = r,
  meta: { versionId: string; lastUpdated: string } = { versionId: String(r.version), lastUpdated: r.updatedAt },
): z.infer<typeof diagnosticReportOut> {
  const observations = content.results.map((x, i) => toFhirObservation(x, i, content.status, r.patientId, r.effectiveAt));
  return {
    resourceType: 'DiagnosticReport',
    id: r.id,
    meta,
    ...(observations.length ? { contained: observations } : {}),
    identifier: [{ system: r.identifier.system, value: r.identifier.value }],
    basedOn: [{ reference: `ServiceRequest/${r.orderId}` }],
    status: content.status,
    category: [{ coding: [{ system: SECTION_SYSTEM, code: sectionOf(r.code) }] }],
    code: codeableLoinc(r.code, testDisplay(r.code)),
    subject: { reference: `Patient/${r.patientId}` },
    effectiveDateTime: r.effectiveAt,
    issued: r.issuedAt,
    performer: [{ display: r.performer }],
    ...(observations.length ? { result: observations.map((o) => ({ reference: `#${o.id}` })) } : {}),
    ...(content.conclusion ? { conclusion: content.conclusion } : {}),
  };
}

// ---- input ----

/** A posted Coding: `system` an absolute URI, `code` a FHIR code (the FHIR primitive rules); the display is not kept. */
const coding = z.object({
  system: absoluteUri(200).optional(),
  code: fhirCode(64),
  display: z.string().max(500).optional(),
});

const observationBase = z.object({
  resourceType: z.literal('Observation'),
  id: z.string().max(64).optional(),
  status: z.string().max(32).optional(),
  code: z.object({
    coding: z
      .array(coding.extend({ system: z.literal(LOINC) }))
      .min(1)
      .max(5),
    text: z.string().max(500).optional(),
  }),
  interpretation: z
    .array(
      z.object({
        coding: z
          .array(coding.extend({ code: z.enum(['N', 'A', 'AA']) }))
          .min(1)
          .max(1),
      }),
    )
    .max(1)
    .optional()
    .describe('Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges'),
});
const valueQuantity = z.object({
  value: z.number().finite(),
  unit: z.string().max(40).optional(),
  system: z.literal(UCUM).optional(),
  code: z.string().max(40).optional(),
});
const valueString = nonBlankText(4_000);

/**
 * A contained result: exactly one of valueQuantity or valueString, said as a union (the document
 * publishes it as anyOf, the other value absent), not a refinement JSON Schema cannot show.
 */
export const observationIn = z
  .union(
    [
      observationBase.extend({ valueQuantity, valueString: z.never().optional() }),
      observationBase.extend({ valueString, valueQuantity: z.never().optional() }),
    ],
    { error: 'give exactly one of valueQuantity or valueString' },
  )
  .describe('A result: a FHIR Observation with exactly one of valueQuantity or valueString');

/** The filler's identifier: `system` an absolute URI (FHIR Identifier.system), `value` a FHIR string. */
const identifierIn = z.object({
  system: absoluteUri(200).describe('An absolute URI, e.g. urn:oid:… or https://lab.example/accession'),
  value: nonBlankText(200),
});
const resultStatus = z.enum(['registered', 'partial', 'preliminary', 'final']);

/** A posted report: FHIR DiagnosticReport basedOn one order, results as contained Observations. */
export const reportIn = z.object({
  resourceType: z.literal('DiagnosticReport'),
  status: resultStatus,
  identifier: z.array(identifierIn).min(1).max(5).describe("The filler's identifier (the first one): a re-post with it is stored once"),
  basedOn: z
    .array(z.object({ reference: z.string().regex(/^ServiceRequest\/[A-Za-z0-9-]{1,64}$/, 'must be ServiceRequest/<id>') }))
    .length(1),
  effectiveDateTime: instant.optional(),
  conclusion: nonBlankText(10_000).optional(),
  contained: z.array(observationIn).max(100).default([]),
});

/** An update (PUT): the same shape; identifier and basedOn, when given, must not change. */
export const reportUpdateIn = reportIn.extend({
  identifier: z.array(identifierIn).min(1).max(5).optional(),
  basedOn: reportIn.shape.basedOn.optional(),
});

export const amendIn = z.object({
  status: z.enum(['amended', 'corrected']).default('amended'),
  reason: nonBlankText(2_000),
  conclusion: nonBlankText(10_000).optional(),
  contained: z.array(observationIn).max(100),
});

export class UnitMismatch extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** Contained Observations → the decider's inputs (the unit, when given, must be the analyte's UCUM code). */
export function resultInputs(observations: z.infer<typeof observationIn>[], unitOf: (code: string) => string | undefined): ResultInput[] {
  return observations.map((o, i) => {
    const code = must(o.code.coding[0], `the coding of contained Observation ${i} (the schema requires one)`).code;
    if (o.valueQuantity) {
      const expected = unitOf(code);
      const given = o.valueQuantity.code ?? o.valueQuantity.unit;
      if (expected !== undefined && given !== undefined && given !== expected)
        throw new UnitMismatch(i, `${code} is reported in ${expected} (UCUM), not ${given}`);
      return { code, value: o.valueQuantity.value };
    }
    return { code, text: o.valueString, interpretation: o.interpretation?.[0]?.coding[0]?.code };
  });
}
