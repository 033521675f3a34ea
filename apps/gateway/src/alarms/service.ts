/**
 * Bedside alarms (issue 31), independent of HTTP: REST v1, FHIR (DetectedIssue) and the MCP tools
 * call these with a Caller. An alarm is a fold of its patient's alert stream (@vitalis/live alertStream,
 * @vitalis/records alarm.ts): the ingest (physiological) and the projector's watchdog (technical)
 * append its condition events, the projector its escalation, and this service the one operator
 * command, acknowledge, through the command handler: fold, ask the decider, append at the stream's
 * version with the audit row (a concurrent clear, escalation or acknowledgement makes the append
 * conflict: decided again on the new state), then publish the live notice (@vitalis/live
 * publishAlarmNotice) and observe the time to acknowledge.
 *
 * Who may (access/policy.ts, `Alarm`): doctors, nurses and system read every patient's alarms
 * (read:vitals), a sandbox token the synthetic patients' (none are stored); a signed-in doctor or
 * nurse acknowledges (a token naming no user is refused 403: a person answers for it). Every read
 * and acknowledgement, refusals included, is audited with the acting user (`alarm.read`,
 * `alarm.acknowledge`; no audit row, no answer).
 *
 * Where alarms are read from is ONE table of functions (`ALARM_READS`): one patient's alarms by
 * folding its stream (always current); the patient of an alarm id from the projector's read model
 * (rm_alarms, migration 0025), or the events table for an alarm raised since its last tick; the
 * patients with alarms to list across a ward from the read model, their streams then folded, so a
 * list and a single read show the same alarm (a patient whose first alarm is younger than the
 * projector's tick joins the ward list one tick later).
 *
 * The reads (and what the surfaces share) are in reads.ts, the acknowledge command in acknowledge.ts;
 * this module is their public face (the same exports), so importers keep importing from service.ts.
 */
export {
  ACTIVE_STATES,
  ACROSS_MAX_PATIENTS,
  DEFAULT_HISTORY_SECONDS,
  ALARM_READS,
  labelOf,
  byPriority,
  lastChangedAt,
  mayReadAlarms,
  decisionProblem,
  listAlarms,
  getAlarm,
  alarmsDepsOf,
  activeAlarmsOfPatients,
} from './reads';
export type { AlarmsDeps, AlarmVia, AlarmReads, AlarmQuery, BoardAlarm } from './reads';
export { acknowledgeAlarm } from './acknowledge';
