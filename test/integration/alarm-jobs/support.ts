/**
 * Shared by the projector's alarm tests (read model, escalation, device watchdog): a private
 * database (the escalator and the watchdog scan every patient, and the watchdog's stall rule reads
 * the newest row of the whole append log: the suite's shared database holds other files' rows),
 * alarm events as their writers append them (the ingest's raises and clears, the gateway's
 * acknowledgements), the rows of rm_alarms, and a listener of the live alarm notices.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_ALARM_SETTINGS, escalationDueAt, type AlarmRule } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import { ANY, append } from '@vitalis/eventstore';
import { CRITICAL_RESULTS_CHANNEL, alertStream, decodeAlarmNotice, type AlarmNotice } from '@vitalis/live';
import { ALARM_EVENTS, type AlarmActor } from '@vitalis/records';
import { createRedis, type Redis } from '@vitalis/redis';
import { testEnv } from '../../helpers/env';

export const uid = () => randomUUID().replace(/-/g, '').slice(0, 10);

export const newPatient = () => `pat-${uid()}`;

let seq = 1;

/** A raise as the ingest appends it: priority, kind and latching from the default table unless given; due_at from its priority. */
export function raisedEvent(
  patient: string,
  rule: AlarmRule,
  o: { id?: string; at: string; latching?: boolean; dueAt?: string | null; severityOnly?: boolean; device?: string },
) {
  const c = DEFAULT_ALARM_SETTINGS.conditions[rule];
  const id = o.id ?? randomUUID();
  const lifecycle = o.severityOnly
    ? { severity: c.priority === 'low' ? 'medium' : c.priority }
    : {
        priority: c.priority,
        kind: c.kind,
        latching: o.latching ?? c.latching,
        due_at: o.dueAt === undefined ? escalationDueAt(DEFAULT_ALARM_SETTINGS, c.priority, o.at) : o.dueAt,
      };
  return {
    id,
    event: {
      type: ALARM_EVENTS.raised,
      data: {
        alert_id: id,
        rule,
        state: 'raised',
        patient_id: patient,
        ...lifecycle,
        message: `${c.label}: 85`,
        value: 85,
        triggered_by: {
          device_id: o.device ?? `mon-${patient}`,
          seq: seq++,
          code: '59408-5',
          effective_at: o.at,
          partition: 0,
          offset: seq,
        },
      },
    },
  };
}

export function clearedEvent(patient: string, rule: AlarmRule, at: string) {
  return {
    type: ALARM_EVENTS.cleared,
    data: {
      alert_id: randomUUID(),
      rule,
      state: 'cleared',
      patient_id: patient,
      message: `${rule} ended`,
      value: 95,
      triggered_by: { device_id: `mon-${patient}`, seq: seq++, effective_at: at },
    },
  };
}

export const nurse: AlarmActor = { user: 'user-nurse-1', name: 'Nina Nurse', client_id: 'ward-app' };

export function acknowledgedEvent(patient: string, rule: AlarmRule, id: string, at: string, by: AlarmActor = nurse) {
  return { type: ALARM_EVENTS.acknowledged, data: { alert_id: id, patient_id: patient, rule, by, at } };
}

export const appendAlarm = (pool: Pool, patient: string, ...events: { type: string; data: Record<string, unknown> }[]) =>
  append(pool, alertStream(patient), ANY, events);

export interface AlarmRowView {
  alarm_id: string;
  rule: string;
  kind: string;
  priority: string;
  latching: boolean;
  state: string;
  device_id: string;
  raised_at: Date;
  due_at: Date | null;
  condition_ended_at: Date | null;
  acknowledged_at: Date | null;
  acknowledged_by: AlarmActor | null;
  escalated_at: Date | null;
  escalated_to: string | null;
  resolved_at: Date | null;
  message: string;
  value: number;
}

export async function alarmRows(pool: Pool, patient: string): Promise<AlarmRowView[]> {
  const { rows } = await pool.query<AlarmRowView>('SELECT * FROM rm_alarms WHERE patient_id = $1 ORDER BY raised_at, alarm_id', [patient]);
  return rows;
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** The live alarm notices published on the clinical channel, for the patients given. */
export async function listenForNotices(): Promise<{
  notices: AlarmNotice[];
  of: (patient: string) => AlarmNotice[];
  close: () => Promise<void>;
}> {
  const sub: Redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-alarm-notices' });
  await sub.connect();
  const notices: AlarmNotice[] = [];
  sub.on('message', (_channel: string, raw: string) => {
    const n = decodeAlarmNotice(raw);
    if (n) notices.push(n);
  });
  await sub.subscribe(CRITICAL_RESULTS_CHANNEL);
  return { notices, of: (patient) => notices.filter((n) => n.patient_id === patient), close: async () => void sub.disconnect() };
}

/** Polls until `probe` holds (a published notice arriving); throws naming `what` after 10 s. */
export async function until(probe: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
