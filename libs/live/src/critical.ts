/**
 * Critical results on the live stream (issue 21): the second kind of message on the fan-out, next
 * to the ingest's vitals batches. The writer of a critical-result event (the gateway for a raise
 * or an acknowledgement, the projector's escalator for an escalation) publishes it on Redis
 * `vitalis:clinical` only after the event is committed to the `events` table; every gateway's hub
 * delivers it to the SSE, WebSocket and MCP subscribers watching that patient.
 *
 * Why a channel of its own: a vitals batch carries Kafka positions the hub uses to find lost
 * messages and resume; a report has no such position. A critical-result message therefore
 * carries no resume id: it is a live notice, and what must not be missed is kept elsewhere
 * (the event store, the triage board until acknowledged, the escalation). A lost publish loses
 * the notice only, never the result.
 */
import type { AlarmEventType } from '@vitalis/records';
import type { Redis } from '@vitalis/redis';

export const CRITICAL_RESULTS_CHANNEL = 'vitalis:clinical';

export type CriticalResultEventName = 'CriticalResultRaised' | 'CriticalResultEscalated' | 'CriticalResultAcknowledged';

export interface CriticalResultNotice {
  v: 1;
  kind: 'critical-result';
  patient_id: string;
  event: CriticalResultEventName;
  /** The event's data (snake_case: critical_id, report_id, patient_id, results, raised_at, due_at / escalated_at / by, at), plus `published_at`. */
  data: Record<string, unknown>;
}

export const encodeCriticalNotice = (n: CriticalResultNotice) => JSON.stringify(n);

export function decodeCriticalNotice(raw: string): CriticalResultNotice | undefined {
  try {
    const n = JSON.parse(raw) as CriticalResultNotice;
    return n &&
      n.v === 1 &&
      n.kind === 'critical-result' &&
      typeof n.patient_id === 'string' &&
      typeof n.event === 'string' &&
      n.data &&
      typeof n.data === 'object'
      ? n
      : undefined;
  } catch {
    return undefined;
  }
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Publishes after the commit; never throws (the event is durable, only the live notice is lost). Top-level keys go snake_case, like the rest of the live wire. */
export async function publishCriticalNotice(
  redis: Redis,
  patientId: string,
  event: CriticalResultEventName,
  data: Record<string, unknown>,
): Promise<boolean> {
  try {
    const wire = Object.fromEntries(Object.entries(data).map(([k, v]) => [snake(k), v]));
    await redis.publish(
      CRITICAL_RESULTS_CHANNEL,
      encodeCriticalNotice({
        v: 1,
        kind: 'critical-result',
        patient_id: patientId,
        event,
        data: { ...wire, published_at: new Date().toISOString() },
      }),
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * Alarm lifecycle notices (issue 31) on the same channel: what happens to a bedside alarm outside
 * the ingest's batches — a clinician acknowledged it (gateway), it escalated (projector), or the
 * projector's watchdog raised or cleared a device-disconnect alarm. Like a critical-result notice,
 * a live notice only: the event is in the patient's alert stream, and `GET /api/v1/alarms` and the
 * cards read the state from there.
 */
export type AlarmNoticeEventName = AlarmEventType;

export interface AlarmNotice {
  v: 1;
  kind: 'alarm';
  patient_id: string;
  event: AlarmNoticeEventName;
  /** The event's data as stored (snake_case), plus `published_at`. */
  data: Record<string, unknown>;
}

export const encodeAlarmNotice = (n: AlarmNotice) => JSON.stringify(n);

export function decodeAlarmNotice(raw: string): AlarmNotice | undefined {
  try {
    const n = JSON.parse(raw) as AlarmNotice;
    return n &&
      n.v === 1 &&
      n.kind === 'alarm' &&
      typeof n.patient_id === 'string' &&
      typeof n.event === 'string' &&
      n.data &&
      typeof n.data === 'object'
      ? n
      : undefined;
  } catch {
    return undefined;
  }
}

/** Publishes after the commit; never throws (the event is durable, only the live notice is lost). */
export async function publishAlarmNotice(
  redis: Redis,
  patientId: string,
  event: AlarmNoticeEventName,
  data: Record<string, unknown>,
): Promise<boolean> {
  try {
    await redis.publish(
      CRITICAL_RESULTS_CHANNEL,
      encodeAlarmNotice({ v: 1, kind: 'alarm', patient_id: patientId, event, data: { ...data, published_at: new Date().toISOString() } }),
    );
    return true;
  } catch {
    return false;
  }
}
