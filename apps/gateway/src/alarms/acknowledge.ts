/**
 * The one operator command on an alarm, acknowledge, through the command handler: fold, ask the
 * decider, append at the stream's version with the audit row (a concurrent change is decided again
 * on the new state), then publish the live notice and observe the time to acknowledge.
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { handleCommand, type VersionConflict } from '@vitalis/eventstore';
import { conflict, HttpProblem } from '@vitalis/http';
import { alertStream, publishAlarmNotice } from '@vitalis/live';
import { PATIENT_ALARMS_DECIDER, type Alarm, type AlarmActor, type AlarmDecideError } from '@vitalis/records';
import { findUser } from '../auth/users';
import { audit, metadataOf, type Caller } from '../access/caller';
import { namesUser } from '../access/policy';
import { type AlarmsDeps, type AlarmVia, type AlarmReads, ALARM_READS, requireCell, decisionProblem, locate } from './reads';

/** Who acknowledges: the signed-in user (the token's subject), their display name when the user store has one, and the app. */
async function actorOf(pool: Pool, caller: Caller): Promise<AlarmActor> {
  const p = caller.principal;
  const user = namesUser(p) ? await findUser(pool, p.subject) : undefined;
  return { user: p.subject, ...(user ? { name: user.displayName } : {}), client_id: p.clientId };
}

const ATTEMPTS = 4;

/** A refused acknowledgement: its problem, and the reason its audit row records (the decider's refusal, or a stream that kept changing). */
function acknowledgeRefusal(id: string, e: AlarmDecideError | VersionConflict): { problem: HttpProblem; reason: string } {
  if (e.kind === 'concurrent-change' || e.kind === 'version-mismatch') {
    return { problem: conflict(`Alarm ${id} changed while it was acknowledged; read it again and retry.`), reason: 'concurrent change' };
  }
  return { problem: decisionProblem(id, e), reason: e.kind };
}

/**
 * A signed-in clinician acknowledges an alarm (raised, or latched after its condition ended): who,
 * their name, the app and when go into the event and the audit row (in the event's transaction).
 * Already acknowledged or resolved: 409 naming who and when. A concurrent change of the stream (a
 * clear, an escalation, a new raise) is decided again on the new state, a few times (the command
 * handler, @vitalis/eventstore handleCommand, with the alarm decider of @vitalis/records).
 */
export async function acknowledgeAlarm(
  deps: AlarmsDeps,
  caller: Caller,
  id: string,
  note: string | undefined,
  via: AlarmVia,
  reads: AlarmReads = ALARM_READS,
): Promise<Alarm> {
  const { pool } = deps;
  const action = 'alarm.acknowledge';
  const reached = await requireCell(pool, caller, 'acknowledge', action, id);
  const patientId = await locate(deps, caller, id, 'acknowledge', action, reads);
  const by = await actorOf(pool, caller);
  // the audit row names the user (its subject) and the app (its client); the name is the event's, not the trail's (ids only there)
  const acknowledge = { type: 'acknowledge' as const, alarmId: id, by, now: new Date().toISOString(), note };
  const outcome = await handleCommand(pool, PATIENT_ALARMS_DECIDER, alertStream(patientId), acknowledge, {
    metadata: metadataOf(caller, reached.scope),
    // a clear, an escalation or another acknowledgement landed between the read and the append: decide again
    retries: ATTEMPTS - 1,
    load: async (db) => {
      const state = await reads.ofPatient(db, patientId);
      return { state, version: state.version };
    },
    recorded: (tx, r) => {
      const alarm = must(r.before.alarms.get(id), `alarm ${id}, which the decider just acknowledged`);
      return audit(tx, caller, {
        action,
        scope: reached.scope,
        resourceType: 'Alarm',
        resourceId: id,
        detail: { via, patient: patientId, rule: alarm.rule, priority: alarm.priority, was: alarm.state },
      });
    },
    refused: (e) =>
      audit(pool, caller, {
        action,
        outcome: 'failure',
        scope: reached.scope,
        resourceType: 'Alarm',
        resourceId: id,
        detail: { via, patient: patientId, reason: acknowledgeRefusal(id, e).reason },
      }),
  });
  if (!outcome.ok) throw acknowledgeRefusal(id, outcome.error).problem;
  const alarm = must(outcome.before.alarms.get(id), `alarm ${id}, which the decider just acknowledged`);
  const ack = must(outcome.decided[0], 'the acknowledgement event the decider returned');
  await publishAlarmNotice(deps.redis, patientId, 'VitalsAlertAcknowledged', ack.data as unknown as Record<string, unknown>);
  const at = (ack.data as { at: string }).at;
  deps.onAcknowledged?.(alarm.priority, (Date.parse(at) - Date.parse(alarm.raisedAt)) / 1_000);
  return outcome.state.alarms.get(id) ?? alarm;
}
