/**
 * Stream names: `<category>-<id>` (the Emmett convention). The category is everything before the
 * FIRST `-` and may not contain one, so two streams of different categories can never share a
 * name, whatever their ids hold (`patient-alerts-x` used to be both patient `alerts-x` and the
 * alert stream of patient `x`). Every category is listed here, once, so no two owners pick the
 * same one; each owner builds its names with `streamName` and reads a category by exact match.
 */

/** The stream categories and their owners. */
export const STREAM_CATEGORIES = {
  /** Patient records (@vitalis/records patient.ts). */
  patient: 'patient',
  /** Appointment slots (@vitalis/records slot.ts). */
  slot: 'slot',
  /** ED triage entries, one per patient (@vitalis/records triage.ts). */
  triage: 'triage',
  /** Vitals alerts raised and cleared by the ingest, one stream per patient (@vitalis/live alerts.ts). */
  patientAlerts: 'patientAlerts',
  /** Diagnostic orders, FHIR ServiceRequest, one stream per order (@vitalis/records service-request.ts). */
  serviceRequest: 'serviceRequest',
  /** Diagnostic reports and their critical results, one stream per report (@vitalis/records diagnostic-report.ts). */
  diagnosticReport: 'diagnosticReport',
} as const;

export type StreamCategory = (typeof STREAM_CATEGORIES)[keyof typeof STREAM_CATEGORIES];

/** A category: a letter, then letters and digits (no `-`, and nothing LIKE would read as a wildcard). */
const CATEGORY = /^[A-Za-z][A-Za-z0-9]*$/;

export class StreamNameError extends Error {
  override name = 'StreamNameError';
}

/** `<category>-<id>`; refuses a category holding `-` (its streams could collide with another's). */
export function streamName(category: string, id: string): string {
  if (!CATEGORY.test(category)) throw new StreamNameError(`stream category ${JSON.stringify(category)} must be letters and digits`);
  return `${category}-${id}`;
}

/** The category and id of a stream name (split at the first `-`); undefined if it has none. */
export function parseStreamName(stream: string): { category: string; id: string } | undefined {
  const at = stream.indexOf('-');
  if (at <= 0) return undefined;
  return { category: stream.slice(0, at), id: stream.slice(at + 1) };
}

/** The category of a stream name ('' if it has none). */
export const streamCategory = (stream: string): string => parseStreamName(stream)?.category ?? '';

/** The id a stream name carries in `category`, or undefined when the stream is of another category. */
export function streamIdIn(category: string, stream: string): string | undefined {
  const parsed = parseStreamName(stream);
  return parsed?.category === category ? parsed.id : undefined;
}
