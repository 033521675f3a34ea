/**
 * Vital-sign Observations as FHIR JSON text, fast: the one owner of the mapping is
 * `toFhirObservation` (fhir.ts); this module runs it ONCE per vital code and unit on a sentinel
 * observation and serialises it, and the result, cut at the sentinels, is the template every row
 * of that code fills in (patient, device, seq, effective time, value). A numeric vital's resource
 * differs between rows only in those fields, so the text is byte for byte what
 * `JSON.stringify(toFhirObservation(o))` gives (test/unit/vitals/fhir-json.test.ts checks it), at a
 * fraction of the cost per row. ECG waveforms (the samples), ids longer than FHIR allows (the
 * mapping then leaves `id` out) and anything unexpected take the mapping itself.
 *
 * Used where Observations are serialised by the thousand: the bulk export's NDJSON lines
 * (@vitalis/export) and the searchset Bundles of the FHIR and REST v1 vitals searches
 * (`observationSearchsetJson`, byte for byte `JSON.stringify(toSearchsetBundle(...))`). A
 * blood-pressure panel (fhir.ts `toFhirBloodPressure`) takes the mapping: it has no template.
 */
import {
  isBloodPressurePanel,
  observationFullUrl,
  observationId,
  searchsetBundle,
  toFhirBloodPressure,
  toFhirObservation,
  type ObservationEntry,
} from './fhir';
import { isEcg, type VitalsObservation } from './vitals';

const SENTINEL = { patient: '\u0001P', device: '\u0001D', seq: 987_654_321, at: '\u0001T', value: 0.123456789 };
const SLOT = /\\u0001P|\\u0001D|987654321|\\u0001T|0\.123456789/g;
type Slot = 'patient' | 'device' | 'seq' | 'at' | 'value';
const SLOT_OF: Record<string, Slot> = {
  '\\u0001P': 'patient',
  '\\u0001D': 'device',
  '987654321': 'seq',
  '\\u0001T': 'at',
  '0.123456789': 'value',
};

/** The JSON before the first slot, then each slot with the JSON that follows it. */
interface Template {
  head: string;
  fills: Array<{ slot: Slot; then: string }>;
}

const templates = new Map<string, Template | null>();

function templateOf(code: string, unit: string): Template | null {
  const key = `${code}\t${unit}`;
  let t = templates.get(key);
  if (t !== undefined) return t;
  const json = JSON.stringify(
    toFhirObservation({
      patient_id: SENTINEL.patient,
      device_id: SENTINEL.device,
      seq: SENTINEL.seq,
      code,
      effective_at: SENTINEL.at,
      value: SENTINEL.value,
      unit,
    } as VitalsObservation),
  );
  const pieces = json.split(SLOT); // the literal JSON around the slots: one more than the slots
  const head = pieces.shift() ?? json;
  const fills = [...json.matchAll(SLOT)].map((m, i) => {
    const slot = SLOT_OF[m[0]];
    if (!slot) throw new Error(`fhir-json: ${m[0]} is not a slot`); // unreachable: SLOT matches the keys of SLOT_OF only
    return { slot, then: pieces[i] ?? '' }; // split gives one piece after each match
  });
  const slots = fills.map((f) => f.slot);
  // the id (device.seq) must be there: a template is only for ids the mapping keeps
  t = slots.includes('value') && slots.includes('at') ? { head, fills } : null;
  templates.set(key, t);
  return t;
}

/** A JSON string's content (without quotes); ids are validated, so the escape is rarely needed. */
const inner = (s: string) => (/["\\\u2028\u2029]|[^\x20-\uffff]/.test(s) ? JSON.stringify(s).slice(1, -1) : s);

/**
 * The JSON of a numeric vital's Observation from its fields (no observation object is built), or
 * undefined when the template does not apply (the caller then runs the mapping).
 */
export function numericObservationJson(
  patient: string,
  device: string,
  seq: number,
  code: string,
  at: string,
  value: number,
  unit: string,
): string | undefined {
  if (observationId(device, seq) === undefined) return undefined; // id over 64 characters: left out by the mapping
  const t = templateOf(code, unit);
  if (!t) return undefined;
  let line = t.head;
  for (const { slot, then } of t.fills) {
    line +=
      (slot === 'device'
        ? inner(device)
        : slot === 'seq'
          ? String(seq)
          : slot === 'patient'
            ? inner(patient)
            : slot === 'at'
              ? inner(at)
              : JSON.stringify(value)) + then;
  }
  return line;
}

/** `JSON.stringify(toFhirObservationEntry(o))`, through the template where one applies (a blood-pressure panel: the mapping). */
export function observationJson(o: ObservationEntry): string {
  if (isBloodPressurePanel(o)) return JSON.stringify(toFhirBloodPressure(o));
  if (isEcg(o)) return JSON.stringify(toFhirObservation(o));
  return (
    numericObservationJson(o.patient_id, o.device_id, o.seq, o.code, o.effective_at, (o as { value: number }).value, o.unit) ??
    JSON.stringify(toFhirObservation(o))
  );
}

/**
 * `JSON.stringify(toSearchsetBundle(observations, links))`, byte for byte, with each Observation
 * serialised through its template: the text of a vitals search page (up to 1,000 Observations).
 * `include`: entries appended after the matches (e.g. `_include=Observation:patient`).
 */
export function observationSearchsetJson(
  observations: ObservationEntry[],
  links: { self: string; next?: string | undefined; observationBase?: string },
  include: readonly { fullUrl: string; resource: unknown; search: { mode: 'include' } }[] = [],
): string {
  // the envelope (resourceType, type, link) from the one builder; the entries spliced in as text
  const envelope = JSON.stringify(searchsetBundle([], links));
  if (observations.length + include.length === 0) return envelope;
  const entries: string[] = [];
  for (const o of observations) {
    entries.push(
      `{"fullUrl":${JSON.stringify(observationFullUrl(o, links.observationBase))},"resource":${observationJson(o)},"search":{"mode":"match"}}`,
    );
  }
  for (const e of include) entries.push(JSON.stringify(e));
  return `${envelope.slice(0, -1)},"entry":[${entries.join(',')}]}`;
}
