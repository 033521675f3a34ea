/**
 * One Observation as an NDJSON line, fast: the FHIR mapping (@vitalis/schemas `toFhirObservation`,
 * the one owner, also behind the FHIR API) is run ONCE per vital code on a sentinel observation and
 * serialised; the result, cut at the sentinels, is the template every row of that code fills in
 * (patient, device, seq, effective time, value). A numeric vital's resource differs between rows
 * only in those fields, so the line is byte for byte what JSON.stringify(toFhirObservation(o))
 * gives (test/unit/export/ndjson.test.ts checks it), at a fraction of the cost per row: the
 * export's bottleneck is this process, not PostgreSQL. ECG waveforms (the samples), ids longer than
 * FHIR allows (the mapping then leaves `id` out) and anything unexpected take the mapping itself.
 */
import { isEcg, toFhirObservation, type VitalsObservation } from '@vitalis/schemas';

const SENTINEL = { patient: '\u0001P', device: '\u0001D', seq: 987_654_321, at: '\u0001T', value: 0.123456789 };
const SLOT = /\\u0001P|\\u0001D|987654321|\\u0001T|0\.123456789/g;
type Slot = 'patient' | 'device' | 'seq' | 'at' | 'value';
const SLOT_OF: Record<string, Slot> = { '\\u0001P': 'patient', '\\u0001D': 'device', '987654321': 'seq', '\\u0001T': 'at', '0.123456789': 'value' };

interface Template {
  parts: string[];
  slots: Slot[];
}

const templates = new Map<string, Template | null>();

function templateOf(code: string, unit: string): Template | null {
  const key = `${code}\t${unit}`;
  let t = templates.get(key);
  if (t !== undefined) return t;
  const json = JSON.stringify(toFhirObservation({
    patient_id: SENTINEL.patient, device_id: SENTINEL.device, seq: SENTINEL.seq, code, effective_at: SENTINEL.at, value: SENTINEL.value, unit,
  } as VitalsObservation));
  const parts: string[] = [];
  const slots: Slot[] = [];
  let last = 0;
  for (const m of json.matchAll(SLOT)) {
    parts.push(json.slice(last, m.index));
    slots.push(SLOT_OF[m[0]]!);
    last = m.index + m[0].length;
  }
  parts.push(json.slice(last));
  // the id (device.seq) must be there: a template is only for ids the mapping keeps
  t = slots.includes('value') && slots.includes('at') ? { parts, slots } : null;
  templates.set(key, t);
  return t;
}

/** A JSON string's content (without quotes); ids are validated, so the escape is rarely needed. */
const inner = (s: string) => (/["\\\u2028\u2029]|[^\x20-\uffff]/.test(s) ? JSON.stringify(s).slice(1, -1) : s);

export function observationNdjson(o: VitalsObservation): string {
  if (isEcg(o)) return JSON.stringify(toFhirObservation(o));
  return numericNdjson(o.patient_id, o.device_id, o.seq, o.code, o.effective_at, (o as { value: number }).value, o.unit) ?? JSON.stringify(toFhirObservation(o));
}

/**
 * The line of a numeric vital from its fields (the export's hot path: no observation object is
 * built), or undefined when the template does not apply (the caller then runs the mapping).
 */
export function numericNdjson(patient: string, device: string, seq: number, code: string, at: string, value: number, unit: string): string | undefined {
  if (device.length + String(seq).length >= 64) return undefined; // id over 64 characters: left out by the mapping
  const t = templateOf(code, unit);
  if (!t) return undefined;
  const { parts, slots } = t;
  let line = parts[0]!;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    line += (slot === 'device' ? inner(device) : slot === 'seq' ? String(seq) : slot === 'patient' ? inner(patient) : slot === 'at' ? inner(at) : JSON.stringify(value)) + parts[i + 1]!;
  }
  return line;
}
