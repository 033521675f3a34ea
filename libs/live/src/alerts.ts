/**
 * Vitals alerts as events: the one owner of their stream names, event types and reads. The ingest
 * appends them (appendAlertEvents), the gateway's triage board and live replay read them
 * (activeAlerts, alertsAfter). One stream per patient, `patientAlerts-<patientId>` (category
 * STREAM_CATEGORIES.patientAlerts: it cannot collide with a patient stream, whatever the ids);
 * migration 0015 moved the events written under the old names.
 *
 * Appends go at whatever version the stream is, a batch's alerts of all its patients in one
 * statement (alerts of one patient come from one partition, so clashes are rare; a clash is
 * retried). Idempotent: the event id is derived from the triggering observation and the rule, so a
 * redelivered batch appends nothing twice. Each event records the
 * live position of the observation that raised it (+ its sub-index k) as its source position, so
 * replay can resume by the live cursor.
 */
import { createHash } from 'node:crypto';
import {
  ConcurrencyError,
  DuplicateEventError,
  STREAM_CATEGORIES,
  appendToStreams,
  readLatestPerKey,
  readStreamsAfterSource,
  sourcePositionMetadata,
  sourcePositionOf,
  streamIdIn,
  streamName,
  type Queryable,
  type SourcePosition,
  type StoredEvent,
} from '@vitalis/eventstore';
import { ALARM_EVENTS } from '@vitalis/records';
import type { Cursor } from './position';
import type { AlertData, AlertEventType, LiveAlert } from './wire';

/** The stream of one patient's alerts. */
export const alertStream = (patientId: string) => streamName(STREAM_CATEGORIES.patientAlerts, patientId);

/** The patient an alert stream belongs to (undefined for a stream of another category). */
export const patientOfAlertStream = (stream: string) => streamIdIn(STREAM_CATEGORIES.patientAlerts, stream);

/** The condition events (the lifecycle's other events, acknowledged and escalated, are @vitalis/records ALARM_EVENTS). */
export const ALERT_EVENT_TYPES = { raised: ALARM_EVENTS.raised, cleared: ALARM_EVENTS.cleared } as const;

/** An alert event as stored: the type follows the state of its data. */
export type AlertEvent =
  | { type: typeof ALERT_EVENT_TYPES.raised; data: AlertData & { state: 'raised' } }
  | { type: typeof ALERT_EVENT_TYPES.cleared; data: AlertData & { state: 'cleared' } };

export const alertEventType = (state: AlertData['state']): AlertEventType => ALERT_EVENT_TYPES[state];
export const isAlertEventType = (type: string): type is AlertEventType =>
  type === ALERT_EVENT_TYPES.raised || type === ALERT_EVENT_TYPES.cleared;

/** A stored event as an alert event, or undefined when it is not one. */
export function asAlertEvent(e: Pick<StoredEvent, 'type' | 'data'>): AlertEvent | undefined {
  if (!isAlertEventType(e.type)) return undefined;
  return { type: e.type, data: e.data } as unknown as AlertEvent;
}

/** A stable UUID (v5-shaped, SHA-1) from the alert's identity. */
export function alertEventId(a: AlertData): string {
  const t = a.triggered_by;
  const h = createHash('sha1').update(`${a.patient_id}|${t.device_id}|${t.seq}|${t.effective_at}|${a.rule}|${a.state}`).digest();
  h.writeUInt8((h.readUInt8(6) & 0x0f) | 0x50, 6);
  h.writeUInt8((h.readUInt8(8) & 0x3f) | 0x80, 8);
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export interface AlertEventToAppend {
  data: AlertData;
  /** Where it sorts in the live stream: the triggering observation's position and a sub-index k >= 1. */
  position: SourcePosition;
}

/** Appends one alert event (`appendAlertEvents`); returns false when it was already there (redelivery). */
export async function appendAlertEvent(db: Queryable, e: AlertEventToAppend): Promise<boolean> {
  return (await appendAlertEvents(db, [e])) === 1;
}

/** Attempts of `appendAlertEvents` when another writer takes a version of one of its streams first. */
const APPEND_ATTEMPTS = 5;

/**
 * Appends a batch's alert events in one statement (@vitalis/eventstore `appendToStreams`: one
 * commit, whatever the number of patients): each patient's in their order (its stream's versions
 * follow the alarm's lifecycle), each at its stream's head. An alarm storm (a ward alarming
 * together, an ingest catching up after an outage: thousands of raises in one batch) then costs one
 * round trip and one WAL flush, not one per alert while every observation of the batch waits to be
 * published. Idempotent: an event already stored is left out (a redelivered batch appends nothing
 * twice). A clash with another writer of one of the streams (an acknowledgement from a gateway) is
 * appended again at the new heads; returns how many events were new.
 */
export async function appendAlertEvents(db: Queryable, events: readonly AlertEventToAppend[]): Promise<number> {
  const toAppend = events.map((e) => ({
    streamId: alertStream(e.data.patient_id),
    eventId: alertEventId(e.data),
    type: alertEventType(e.data.state),
    data: e.data as unknown as Record<string, unknown>,
    metadata: { actor: 'vitalis-ingest', ...sourcePositionMetadata(e.position) },
  }));
  for (let clashes = 0; ;) {
    try {
      return (await appendToStreams(db, toAppend)).length;
    } catch (err) {
      if (!(err instanceof ConcurrencyError || err instanceof DuplicateEventError)) throw err;
      clashes += 1; // another writer took a version (or stored one of these ids) first: again, at the new heads
    }
    // The batch fails and kafkajs logs why: not with the clash, whose stream name holds the patient's id.
    if (clashes >= APPEND_ATTEMPTS) throw new Error(`alert events: another writer took a version of their streams first, ${clashes} times`);
  }
}

/**
 * Active alarm conditions per patient: the rules whose latest condition event (raised or cleared)
 * is a raise, in rule order. The lifecycle's other events of the same stream (acknowledged,
 * escalated) also name the rule and are left out in the query, so an acknowledged alarm whose
 * condition still holds stays active. Patients without any are absent. Used by the ingest (to
 * restore its condition state) and the triage board (conditions present, acknowledged or not;
 * a latched alarm whose condition ended is not among them: that is the lifecycle's fold).
 */
export async function activeAlerts(db: Queryable, patientIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const conditionEvents = Object.values(ALERT_EVENT_TYPES);
  for (const e of await readLatestPerKey(db, patientIds.map(alertStream), 'rule', { types: conditionEvents })) {
    const rule = e.data.rule;
    const patient = patientOfAlertStream(e.streamId);
    if (e.type !== ALERT_EVENT_TYPES.raised || typeof rule !== 'string' || patient === undefined) continue;
    out.set(patient, [...(out.get(patient) ?? []), rule]);
  }
  return out;
}

/** The patients' alert events after the live cursor, as live events in position order. */
export async function alertsAfter(db: Queryable, patientIds: readonly string[], after: Cursor): Promise<LiveAlert[]> {
  const out: LiveAlert[] = [];
  for (const e of await readStreamsAfterSource(db, patientIds.map(alertStream), after)) {
    const alert = asAlertEvent(e);
    const at = sourcePositionOf(e);
    if (!alert || !at) continue;
    out.push({
      kind: 'alert',
      partition: at.partition,
      offset: at.offset,
      k: at.k,
      patient_id: alert.data.patient_id,
      type: alert.type,
      data: alert.data,
    });
  }
  return out.sort((a, b) => a.partition - b.partition || a.offset - b.offset || a.k - b.k);
}
