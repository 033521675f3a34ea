/**
 * Appends alert events to the event store (@vitalis/eventstore), stream
 * `patient-alerts-<patientId>`, at whatever version the stream is (alerts of one patient come from
 * one partition, so clashes are rare; a clash is retried). Idempotent: the event id is derived from
 * the triggering observation and the rule, so a redelivered batch appends nothing twice.
 */
import { createHash } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import { ANY, ConcurrencyError, DuplicateEventError, append } from '@vitalis/eventstore';
import type { AlertData } from '@vitalis/live';

export const alertStream = (patientId: string) => `patient-alerts-${patientId}`;
export const ALERT_TYPES = { raised: 'VitalsAlertRaised', cleared: 'VitalsAlertCleared' } as const;

export interface AlertEventToAppend {
  data: AlertData;
  /** Where it sorts in the live stream: the triggering observation's position and a sub-index. */
  position: { partition: number; offset: number; k: number };
}

/** A stable UUID (v5-shaped, SHA-1) from the alert's identity. */
export function alertEventId(a: AlertData): string {
  const t = a.triggered_by;
  const h = createHash('sha1').update(`${a.patient_id}|${t.device_id}|${t.seq}|${t.effective_at}|${a.rule}|${a.state}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** Appends one alert event; returns false when it was already there (redelivery). */
export async function appendAlertEvent(pool: Pool, e: AlertEventToAppend, attempts = 5): Promise<boolean> {
  const stream = alertStream(e.data.patient_id);
  const event = {
    eventId: alertEventId(e.data),
    type: e.data.state === 'raised' ? ALERT_TYPES.raised : ALERT_TYPES.cleared,
    data: e.data as unknown as Record<string, unknown>,
  };
  const metadata = { actor: 'vitalis-ingest', kafka_partition: e.position.partition, kafka_offset: e.position.offset, alert_seq: e.position.k };
  for (let i = 0; i < attempts; i++) {
    try {
      await append(pool, stream, ANY, [event], metadata);
      return true;
    } catch (err) {
      if (err instanceof DuplicateEventError) return false;
      if (!(err instanceof ConcurrencyError)) throw err;
      // a concurrent writer took that stream_version: append again at the new head
    }
  }
  throw new Error(`could not append alert to ${stream} after ${attempts} version clashes`);
}

/** The rules whose latest event, per patient, is a raise (active alerts), from the event store. */
export async function activeAlerts(pool: Pool, patientIds: string[]): Promise<Map<string, string[]>> {
  const { rows } = await pool.query<{ stream_id: string; rule: string }>(
    `SELECT stream_id, rule FROM (
       SELECT DISTINCT ON (stream_id, data->>'rule') stream_id, data->>'rule' AS rule, type
         FROM events WHERE stream_id = ANY($1::text[])
        ORDER BY stream_id, data->>'rule', stream_version DESC) last
      WHERE type = $2`,
    [patientIds.map(alertStream), ALERT_TYPES.raised],
  );
  const out = new Map<string, string[]>();
  const prefix = alertStream('').length;
  for (const r of rows) {
    const id = r.stream_id.slice(prefix);
    out.set(id, [...(out.get(id) ?? []), r.rule]);
  }
  return out;
}
