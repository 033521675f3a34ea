/**
 * Escalation of unacknowledged bedside alarms (issue 31), the alarm twin of
 * diagnostics-escalation.ts. The due time is in the raise (the raise's due_at: the raise's
 * time + the settings' escalation seconds for its priority, written by whoever raised it) and in
 * the read model (rm_alarms.due_at, rebuilt from the log), so no timer holds it and a restart of
 * any process loses nothing. Each run scans the alarms still unacknowledged (raised, or latched
 * after their condition ended), not escalated, due; folds the patient's alert stream and asks the
 * alarm decider to escalate (it refuses one acknowledged, resolved or escalated meanwhile) through
 * the command handler (@vitalis/eventstore handleCommand, ADR 0024), which appends
 * VitalsAlertEscalated at the folded version (a concurrent acknowledgement wins: the append
 * conflicts and the next run sees it acknowledged); and publishes it live after the commit.
 *
 * One escalator at a time across projector instances: a session advisory lock, tried (a second
 * instance skips its run rather than waiting); the run reads and appends on that one connection. A crash after the append and before the publish
 * loses the live notice only; the escalation is in the log and in the read model.
 */
import type { AlarmPriority, AlarmSettings } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import { ConcurrencyError, handleCommand, inTransaction } from '@vitalis/eventstore';
import { alertStream, publishAlarmNotice } from '@vitalis/live';
import { PATIENT_ALARMS_DECIDER } from '@vitalis/records';
import type { Redis } from '@vitalis/redis';
import { withTriedLock } from './tried-lock';

const LOCK = 'vitalis-alarm-escalator';

export interface AlarmEscalationRun {
  /** The alarm ids escalated by this run. */
  escalated: string[];
  /** Another instance held the lock: this run did nothing. */
  skipped: boolean;
}

export interface AlarmEscalationOptions {
  now?: Date;
  limit?: number;
  /** Called once per escalation appended (vitalis_alarms_escalated_total). */
  onEscalated?: (priority: AlarmPriority) => void;
}

export async function escalateDueAlarms(
  pool: Pool,
  redis: Redis,
  settings: Pick<AlarmSettings, 'escalateTo'>,
  options: AlarmEscalationOptions = {},
): Promise<AlarmEscalationRun> {
  const run = await withTriedLock(pool, LOCK, async (session) => {
    const now = options.now ?? new Date();
    const { rows } = await session.query<{ alarm_id: string; patient_id: string }>(
      `SELECT alarm_id, patient_id FROM rm_alarms
        WHERE state IN ('raised', 'latched') AND escalated_at IS NULL AND due_at <= $1
        ORDER BY due_at LIMIT $2`,
      [now, options.limit ?? 100],
    );
    const escalated: string[] = [];
    for (const { alarm_id: id, patient_id: patient } of rows) {
      const escalate = { type: 'escalate' as const, alarmId: id, to: settings.escalateTo, now: now.toISOString() };
      let outcome;
      try {
        // on the lock's session, outside a transaction as before: one attempt, a conflict thrown
        outcome = await handleCommand(inTransaction(session), PATIENT_ALARMS_DECIDER, alertStream(patient), escalate, {
          metadata: { actor: 'vitalis-projector', scope: 'system' },
        });
      } catch (err) {
        if (err instanceof ConcurrencyError) continue; // the stream moved (an acknowledgement, a clear): the next run decides again
        throw err;
      }
      if (!outcome.ok) continue; // acknowledged, resolved or escalated since the projection saw it
      for (const e of outcome.decided)
        await publishAlarmNotice(redis, patient, 'VitalsAlertEscalated', e.data as unknown as Record<string, unknown>);
      const alarm = outcome.before.alarms.get(id);
      if (alarm) options.onEscalated?.(alarm.priority);
      escalated.push(id);
    }
    return escalated;
  });
  return run === undefined ? { escalated: [], skipped: true } : { escalated: run, skipped: false };
}
