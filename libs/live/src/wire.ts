/**
 * The fan-out message: the ingest worker publishes ONE message per committed batch (one Kafka
 * partition, a contiguous offset range [first, last]) on a Redis pub/sub channel per topic; every
 * gateway instance subscribes and dispatches to its own subscribers. Published only after the
 * rows (and the alerts they raised) are committed to PostgreSQL, so whatever a subscriber sees
 * live is already in the append log, and replay from the log can never miss it.
 * `first`/`last` let a gateway detect a lost message (next.first > previous.last + 1) and refill
 * its subscribers from the append log.
 */
import type { ALARM_EVENTS } from '@vitalis/records';
import { ByteWriter } from '@vitalis/runtime';
import type { VitalsObservation } from '@vitalis/schemas';
import { foldedSamplesText, writeFoldedSamplesText } from './observation';

/** The type of a condition event (raised or cleared; alerts.ts ALERT_EVENT_TYPES names them), here so the message and the alert module share it without importing each other. */
export type AlertEventType = (typeof ALARM_EVENTS)['raised' | 'cleared'];

export const liveChannel = (topic: string) => `vitalis:live:${topic}`;

/** What an alert event carries (the `data` of the event in the `events` table, verbatim). */
export interface AlertData {
  alert_id: string;
  /** The alarm condition (@vitalis/clinical DEFAULT_ALARM_CONDITIONS: spo2-low, hr-high, sys-low, news2-high, …). */
  rule: string;
  state: 'raised' | 'cleared';
  patient_id: string;
  /**
   * IEC 60601-1-8 priority of the condition (@vitalis/clinical AlarmPriority; a compile error in the
   * ingest if the two part). Absent on events written before issue 31 (read `severity` then).
   */
  priority?: 'high' | 'medium' | 'low';
  /** The same as `priority`, kept for readers of the old field (older events: high or medium only). */
  severity: 'high' | 'medium' | 'low';
  /** Physiological (about the patient) or technical (the equipment or data path). Absent on older events. */
  kind?: 'physiological' | 'technical';
  /** Whether the alarm stays shown after its condition ends until a clinician acknowledges it. Absent on older events. */
  latching?: boolean;
  /** The condition's name for people ("SpO2 low"). Absent on older events. */
  label?: string;
  message: string;
  value: number;
  /** On a raise: when it escalates if nobody acknowledges it (null: never, e.g. low priority). Absent on clears and older events. */
  due_at?: string | null;
  triggered_by: { partition: number; offset: number; device_id: string; seq: number; code: string; effective_at: string };
  /** FHIR R4 Flag (active while raised, inactive once cleared), its priority in the flag-priority extension. */
  flag: Record<string, unknown>;
}

export interface LiveObservation {
  kind: 'observation';
  partition: number;
  offset: number;
  /** observationK(its index in the record): 0 for a single-observation record. */
  k: number;
  patient_id: string;
  data: VitalsObservation;
}

export interface LiveAlert {
  kind: 'alert';
  partition: number;
  offset: number;
  k: number;
  patient_id: string;
  type: AlertEventType;
  data: AlertData;
}

export type LiveEvent = LiveObservation | LiveAlert;

export interface LiveBatch {
  v: 1;
  partition: number;
  /** First and last Kafka offset of the batch (contiguous range; poison offsets carry no event). */
  first: number;
  last: number;
  /** In position order. */
  events: LiveEvent[];
  /**
   * The W3C `traceparent` of the ingest's publish span (tracing on only): the gateways' delivery
   * spans link to it. A field of the channel message, never of an event: what a subscriber
   * receives is each event's data (`eventJson`), byte for byte the replay's.
   */
  trace?: string;
}

const NO_SAMPLES: number[] = [];
const EMPTY_SAMPLES = '"samples":[]';

/** The keys, in order, of an observation event as the ingest's live stage builds it, and of its data (`observationFromRow`): a numeric's, an ECG chunk's and its waveform's. */
const OBSERVATION_EVENT_KEYS = ['kind', 'partition', 'offset', 'k', 'patient_id', 'data'];
const NUMERIC_DATA_KEYS = ['patient_id', 'device_id', 'seq', 'effective_at', 'code', 'value', 'unit'];
const ECG_DATA_KEYS = ['patient_id', 'device_id', 'seq', 'effective_at', 'code', 'unit', 'waveform'];
const WAVEFORM_KEYS = ['origin', 'period_ms', 'samples'];

/** Whether `o`'s enumerable keys are `keys`, in that order (an inherited one fails it too): no array allocated, it runs per event. */
const hasKeys = (o: object, keys: readonly string[]): boolean => {
  let i = 0;
  for (const key in o) if (key !== keys[i++]) return false;
  return i === keys.length;
};

const ZEROS = ['', '0', '00', '000', '0000', '00000', '000000', '0000000'];

/**
 * A number's text as JSON writes it (`${n}`), a whole number past 10^8 written as two small ones:
 * V8 prints an integer beyond 2^31 through its general double-to-text, about 150 ns for a 13-digit
 * seq (the simulator's, a device's counter that started from a clock) against 25 for the halves.
 */
function numberText(n: number): string {
  if (n < 1e8 || !Number.isSafeInteger(n)) return `${n}`;
  // exact: below 2^53 the quotient's rounding (half an ulp, at most 7.5e-9) never reaches the next whole number (n is at least 1e-8 below it)
  const high = Math.floor(n / 1e8);
  const low = `${n - high * 1e8}`;
  return `${high}${ZEROS[8 - low.length]}${low}`;
}

/** Whether JSON.stringify writes `s` as itself between quotes: no quote, backslash, control character or surrogate in it. */
function isPlainJsonString(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

const isFiniteNumber = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * An observation event's text as JSON.stringify writes it, from its start through its data's
 * `"code":"…",`: the part a numeric's and an ECG chunk's share (`dataKeys` are the data's keys, in
 * order). Undefined unless the event and its data have exactly those keys in that order, finite
 * numbers (whose template text is JSON's) and strings JSON writes as they are (ids, codes and
 * stored instants always are).
 */
function observationEventHead(e: LiveEvent, dataKeys: readonly string[]): string | undefined {
  if (e.kind !== 'observation' || !hasKeys(e, OBSERVATION_EVENT_KEYS)) return undefined;
  const d = e.data as unknown as Record<string, unknown>;
  if (!hasKeys(d, dataKeys)) return undefined;
  const { partition, offset, k, patient_id } = e;
  const { seq } = d;
  if (!isFiniteNumber(partition) || !isFiniteNumber(offset) || !isFiniteNumber(k) || !isFiniteNumber(seq)) return undefined;
  if (!isPlainJsonString(patient_id) || !isPlainJsonString(d.patient_id) || !isPlainJsonString(d.device_id)) return undefined;
  if (!isPlainJsonString(d.effective_at) || !isPlainJsonString(d.code)) return undefined;
  return `{"kind":"observation","partition":${partition},"offset":${numberText(offset)},"k":${k},"patient_id":"${patient_id}","data":{"patient_id":"${d.patient_id}","device_id":"${d.device_id}","seq":${numberText(seq)},"effective_at":"${d.effective_at}","code":"${d.code}",`;
}

/**
 * A numeric observation's event as JSON.stringify writes it, from a template: JSON.stringify took
 * 0.75 µs for such an event on Node 20, the template with its checks about 0.2. Undefined unless
 * `observationEventHead` takes it, its value is finite and its unit a plain string.
 */
function numericEventJson(e: LiveEvent): string | undefined {
  const head = observationEventHead(e, NUMERIC_DATA_KEYS);
  if (head === undefined) return undefined;
  const { value, unit } = e.data as unknown as Record<string, unknown>;
  if (!isFiniteNumber(value) || !isPlainJsonString(unit)) return undefined;
  return `${head}"value":${value},"unit":"${unit}"}}`;
}

/**
 * An ECG chunk's event as JSON.stringify writes it up to its samples, `[` included (the samples
 * and `]}}}` are the caller's), from a template; undefined unless `observationEventHead` takes it,
 * its unit is a plain string, its waveform has exactly origin, period_ms and samples, in that
 * order, the first two finite numbers.
 */
function ecgEventHead(e: LiveEvent): string | undefined {
  const head = observationEventHead(e, ECG_DATA_KEYS);
  if (head === undefined) return undefined;
  const { unit, waveform } = e.data as unknown as { unit: unknown; waveform: Record<string, unknown> };
  if (!isPlainJsonString(unit) || waveform === null || typeof waveform !== 'object' || !hasKeys(waveform, WAVEFORM_KEYS)) return undefined;
  const { origin, period_ms: period } = waveform;
  if (!isFiniteNumber(origin) || !isFiniteNumber(period)) return undefined;
  return `${head}"unit":"${unit}","waveform":{"origin":${origin},"period_ms":${period},"samples":[`;
}

/**
 * The fan-out message: byte for byte `JSON.stringify(b)` in UTF-8 (the gateways JSON.parse it),
 * written into one Buffer that Redis sends as it is, with two costs taken out: an observation's
 * event is written from a template (`numericEventJson`, `ecgEventHead`), and an ECG chunk's samples
 * by `writeFoldedSamplesText` (from their 0.1 µV steps) instead of JSON's number printer. Every
 * other event goes through JSON.stringify, an ECG chunk the template does not take with its
 * samples set aside for that one call (restored before anything else runs) and written where its
 * empty array ends. test/unit/live/wire.test.ts compares both over every kind of event.
 */
export function encodeBatch(b: LiveBatch): Buffer {
  const out = new ByteWriter(b.events.length * 512 + 256);
  out.text(`{"v":${b.v},"partition":${b.partition},"first":${b.first},"last":${b.last},"events":[`);
  for (let i = 0; i < b.events.length; i++) {
    const e = b.events[i] as LiveEvent;
    if (i > 0) out.text(',');
    const waveform = e.kind === 'observation' && 'waveform' in e.data ? e.data.waveform : undefined;
    if (waveform === undefined) {
      out.text(numericEventJson(e) ?? JSON.stringify(e));
      continue;
    }
    const { samples } = waveform;
    const head = Array.isArray(samples) ? ecgEventHead(e) : undefined;
    if (head !== undefined) {
      out.text(head);
      writeFoldedSamplesText(out, samples);
      out.text(']}}}');
      continue;
    }
    waveform.samples = NO_SAMPLES;
    let shell: string;
    try {
      shell = JSON.stringify(e);
    } finally {
      waveform.samples = samples;
    }
    // A quote inside a string is escaped in JSON, so the last `"samples":[]` of the text is the waveform's own.
    const at = shell.lastIndexOf(EMPTY_SAMPLES) + EMPTY_SAMPLES.length - 1;
    out.text(shell.slice(0, at));
    writeFoldedSamplesText(out, samples);
    out.text(shell.slice(at));
  }
  out.text(']');
  if (b.trace !== undefined) out.text(`,"trace":${JSON.stringify(b.trace)}`);
  out.text('}');
  return out.bytes();
}

export function decodeBatch(raw: string): LiveBatch | undefined {
  try {
    const b = JSON.parse(raw) as LiveBatch;
    return b && b.v === 1 && Number.isInteger(b.partition) && Array.isArray(b.events) ? b : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one serialisation of an event's data, whichever path delivered it: keys sorted (recursively),
 * so an alert read back from jsonb (which reorders keys) serialises to the same bytes as the one
 * published live. Arrays keep their order; an array of numbers (ECG samples) is JSON.stringify's text (`foldedSamplesText`).
 */
export function eventJson(value: unknown): string {
  if (Array.isArray(value)) {
    return value.every((v) => typeof v === 'number')
      ? `[${foldedSamplesText(value as number[])}]` // JSON.stringify's bytes, ECG samples written from their steps
      : `[${value.map((v) => (v === undefined ? 'null' : eventJson(v))).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${eventJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
