/**
 * Bedside alarms with a lifecycle (issue 31): IEC 60601-1-8 priorities and latching, IHE PCD ACM
 * states. One stream per patient (its alert stream, named by @vitalis/live alertStream):
 * the condition events come from whoever watches the data (the ingest's rules for physiological
 * alarms, the projector's watchdog for the device-disconnect technical alarm), the operator events
 * from the gateway (a clinician acknowledges) and the projector (escalation when nobody did).
 *
 *   VitalsAlertRaised        the condition held for its onset delay: a new alarm (id = alert_id), or,
 *                            when the rule's latest alarm is latched (its condition ended, nobody has
 *                            acknowledged it yet), that alarm again: the condition is back, the alarm
 *                            keeps its id, raise time, due time and escalation (IEC 60601-1-8: a latched
 *                            alarm is one alarm until acknowledged, not one per recurrence)
 *   VitalsAlertCleared       the condition ended: closes the open alarm of the same rule
 *   VitalsAlertAcknowledged  a signed-in clinician acknowledged it (who, when)
 *   VitalsAlertEscalated     nobody acknowledged it by its due time: sent to the next recipient
 *
 * State (derived, never stored as a separate fact):
 *   raised        condition present, not acknowledged
 *   acknowledged  condition present, acknowledged
 *   latched       condition ended, not acknowledged, and the alarm latches: still shown until acknowledged
 *   resolved      condition ended, and acknowledged or not latching
 *
 * A pure decider in the Emmett style: evolve folds events into alarms, decide turns a command on
 * one alarm into events or an explicit error. The gateway appends at the stream's version, so a
 * concurrent acknowledgement, escalation or clear makes the append conflict and the command is
 * decided again on the new state.
 */
import type { AlarmKind, AlarmPriority } from '@vitalis/clinical';
import type { Decider, Decision } from '@vitalis/eventstore';

export const ALARM_EVENTS = {
  raised: 'VitalsAlertRaised',
  cleared: 'VitalsAlertCleared',
  acknowledged: 'VitalsAlertAcknowledged',
  escalated: 'VitalsAlertEscalated',
} as const;
export type AlarmEventType = (typeof ALARM_EVENTS)[keyof typeof ALARM_EVENTS];
export const ALARM_EVENT_TYPES: readonly AlarmEventType[] = Object.values(ALARM_EVENTS);
export const isAlarmEventType = (type: string): type is AlarmEventType => (ALARM_EVENT_TYPES as readonly string[]).includes(type);

export const ALARM_STATES = ['raised', 'acknowledged', 'latched', 'resolved'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
/** The states a person must still see. */
export const ACTIVE_ALARM_STATES: readonly AlarmState[] = ['raised', 'acknowledged', 'latched'];

/** Who acknowledged: the signed-in user (token subject), their name when known, and the app they used. */
export interface AlarmActor {
  user: string;
  name?: string | undefined;
  client_id: string;
}

/**
 * The event data, snake_case as stored (the raise and clear data is the live wire's AlertData,
 * written by the ingest; older raises carry `severity` only, no `priority`, `kind`, `latching` or `due_at`).
 */
export interface AlarmRaisedData {
  alert_id: string;
  rule: string;
  state: 'raised';
  patient_id: string;
  priority?: AlarmPriority;
  severity?: string;
  kind?: AlarmKind;
  latching?: boolean;
  message: string;
  value: number;
  /** When an unacknowledged alarm escalates (null or absent: never). */
  due_at?: string | null;
  triggered_by: { device_id: string; seq?: number; code?: string; effective_at: string; partition?: number; offset?: number };
}
export interface AlarmClearedData {
  alert_id: string;
  rule: string;
  state: 'cleared';
  patient_id: string;
  message: string;
  value: number;
  triggered_by: { device_id: string; effective_at: string };
}
export interface AlarmAcknowledgedData {
  alert_id: string;
  patient_id: string;
  rule: string;
  by: AlarmActor;
  at: string;
  note?: string;
}
export interface AlarmEscalatedData {
  alert_id: string;
  patient_id: string;
  rule: string;
  to: string;
  at: string;
  priority: AlarmPriority;
}

export type AlarmEvent =
  | { type: typeof ALARM_EVENTS.raised; data: AlarmRaisedData }
  | { type: typeof ALARM_EVENTS.cleared; data: AlarmClearedData }
  | { type: typeof ALARM_EVENTS.acknowledged; data: AlarmAcknowledgedData }
  | { type: typeof ALARM_EVENTS.escalated; data: AlarmEscalatedData };

export interface Alarm {
  id: string;
  patientId: string;
  rule: string;
  kind: AlarmKind;
  priority: AlarmPriority;
  latching: boolean;
  state: AlarmState;
  message: string;
  value: number;
  deviceId: string;
  /** The effective time of the observation that confirmed the condition (after the onset delay). */
  raisedAt: string;
  /** The effective time of the raise that made the condition present now: `raisedAt`, or the latest recurrence of a latched alarm. */
  conditionSince: string;
  /** How many times the condition came back while the alarm was latched (0: never). */
  recurrences: number;
  dueAt: string | null;
  conditionEndedAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: AlarmActor | null;
  note: string | null;
  escalatedAt: string | null;
  escalatedTo: string | null;
  resolvedAt: string | null;
  /** The stream version of the last event that changed this alarm. */
  version: number;
}

/** What a fold needs of a stored event (StoredEvent has these). */
export interface FoldableAlarmEvent {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
}

/** Older raises carry a `severity` of high | medium only. */
const priorityOf = (d: AlarmRaisedData): AlarmPriority =>
  d.priority ?? (d.severity === 'medium' || d.severity === 'low' ? d.severity : 'high');

function stateOf(a: Pick<Alarm, 'conditionEndedAt' | 'acknowledgedAt' | 'latching'>): AlarmState {
  if (a.conditionEndedAt === null) return a.acknowledgedAt === null ? 'raised' : 'acknowledged';
  return a.acknowledgedAt === null && a.latching ? 'latched' : 'resolved';
}

function withState(a: Alarm): Alarm {
  const state = stateOf(a);
  const ended = a.conditionEndedAt; // never null when resolved (stateOf)
  const resolvedAt =
    state !== 'resolved' || ended === null
      ? null
      : a.acknowledgedAt !== null && Date.parse(a.acknowledgedAt) > Date.parse(ended)
        ? a.acknowledgedAt
        : ended;
  return { ...a, state, resolvedAt };
}

/**
 * The alarms of one patient's stream. `open` maps a rule to its alarm whose condition is still
 * present (a clear closes it); `latched` maps a rule to its alarm that is latched (the rule's next
 * raise re-activates it; an acknowledgement resolves it).
 */
export interface PatientAlarms {
  alarms: Map<string, Alarm>;
  open: Map<string, string>;
  latched: Map<string, string>;
  /** The stream's version (the last event folded). */
  version: number;
}

export const emptyPatientAlarms = (): PatientAlarms => ({ alarms: new Map(), open: new Map(), latched: new Map(), version: 0 });

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const time = (v: unknown): v is string => text(v) && !Number.isNaN(Date.parse(v));
const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether the fold can read an event: an event of an alarm type without the fields the fold reads
 * (written by hand, by a test, by an old writer) changes nothing, like an event of another type.
 * A fold that threw would stop a projection for every patient, the escalator and the watchdog
 * after it, and answer 500 for the patient's alarms; every reader folds through `evolveAlarms`, so
 * they all skip the same events.
 */
export function isFoldableAlarmEvent(e: Pick<FoldableAlarmEvent, 'type' | 'data'>): boolean {
  const d = e.data;
  switch (e.type) {
    case ALARM_EVENTS.raised:
      return (
        text(d.alert_id) &&
        text(d.rule) &&
        text(d.patient_id) &&
        typeof d.message === 'string' &&
        typeof d.value === 'number' &&
        Number.isFinite(d.value) &&
        object(d.triggered_by) &&
        text(d.triggered_by.device_id) &&
        time(d.triggered_by.effective_at) &&
        (d.due_at === undefined || d.due_at === null || time(d.due_at))
      );
    case ALARM_EVENTS.cleared:
      return text(d.rule) && object(d.triggered_by) && time(d.triggered_by.effective_at);
    case ALARM_EVENTS.acknowledged:
      return text(d.alert_id) && time(d.at) && object(d.by);
    case ALARM_EVENTS.escalated:
      return text(d.alert_id) && time(d.at) && text(d.to);
    default:
      return true;
  }
}

/**
 * Applies one event (mutates and returns `s`; events of other types, and ones the fold cannot read, only advance the version).
 * Long: one case per alarm event type (raised, with its return while latched; cleared; acknowledged; escalated): the fold reads as one table.
 */
export function evolveAlarms(s: PatientAlarms, e: FoldableAlarmEvent): PatientAlarms {
  s.version = e.streamVersion;
  const v = e.streamVersion;
  if (!isFoldableAlarmEvent(e)) return s;
  switch (e.type) {
    case ALARM_EVENTS.raised: {
      const d = e.data as unknown as AlarmRaisedData;
      const latchedId = s.latched.get(d.rule);
      const latched = latchedId === undefined ? undefined : s.alarms.get(latchedId);
      s.latched.delete(d.rule);
      if (latched && latched.state === 'latched') {
        // the condition is back before anyone acknowledged it: the same alarm, present again
        s.alarms.set(
          latched.id,
          withState({
            ...latched,
            conditionEndedAt: null,
            conditionSince: d.triggered_by.effective_at,
            recurrences: latched.recurrences + 1,
            message: d.message,
            value: d.value,
            deviceId: d.triggered_by.device_id,
            version: v,
          }),
        );
        s.open.set(d.rule, latched.id);
        return s;
      }
      s.alarms.set(
        d.alert_id,
        withState({
          id: d.alert_id,
          patientId: d.patient_id,
          rule: d.rule,
          kind: d.kind ?? (d.rule === 'device-disconnected' ? 'technical' : 'physiological'),
          priority: priorityOf(d),
          latching: d.latching ?? false,
          state: 'raised',
          message: d.message,
          value: d.value,
          deviceId: d.triggered_by.device_id,
          raisedAt: d.triggered_by.effective_at,
          conditionSince: d.triggered_by.effective_at,
          recurrences: 0,
          dueAt: d.due_at ?? null,
          conditionEndedAt: null,
          acknowledgedAt: null,
          acknowledgedBy: null,
          note: null,
          escalatedAt: null,
          escalatedTo: null,
          resolvedAt: null,
          version: v,
        }),
      );
      s.open.set(d.rule, d.alert_id);
      return s;
    }
    case ALARM_EVENTS.cleared: {
      const d = e.data as unknown as AlarmClearedData;
      const id = s.open.get(d.rule);
      s.open.delete(d.rule);
      const a = id === undefined ? undefined : s.alarms.get(id);
      if (!a) return s;
      const ended = withState({ ...a, conditionEndedAt: d.triggered_by.effective_at, version: v });
      s.alarms.set(a.id, ended);
      if (ended.state === 'latched') s.latched.set(a.rule, a.id);
      return s;
    }
    case ALARM_EVENTS.acknowledged: {
      const d = e.data as unknown as AlarmAcknowledgedData;
      const a = s.alarms.get(d.alert_id);
      if (!a) return s;
      s.alarms.set(a.id, withState({ ...a, acknowledgedAt: d.at, acknowledgedBy: d.by, note: d.note ?? null, version: v }));
      if (s.latched.get(a.rule) === a.id) s.latched.delete(a.rule);
      return s;
    }
    case ALARM_EVENTS.escalated: {
      const d = e.data as unknown as AlarmEscalatedData;
      const a = s.alarms.get(d.alert_id);
      if (a) s.alarms.set(a.id, { ...a, escalatedAt: d.at, escalatedTo: d.to, version: v });
      return s;
    }
    default:
      return s;
  }
}

export const foldAlarms = (events: readonly FoldableAlarmEvent[]): PatientAlarms => events.reduce(evolveAlarms, emptyPatientAlarms());

export type AlarmCommand =
  { type: 'acknowledge'; by: AlarmActor; now: string; note?: string | undefined } | { type: 'escalate'; to: string; now: string };

/** Why a command on an alarm was refused (the gateway maps each to a problem). */
export type AlarmDecideError =
  | { kind: 'not-found' }
  | { kind: 'already-acknowledged'; by: AlarmActor; at: string }
  | { kind: 'resolved'; at: string }
  | { kind: 'not-due'; dueAt: string | null }
  | { kind: 'already-escalated'; at: string };

export type AlarmDecision = Decision<AlarmEvent, AlarmDecideError>;

/**
 * Why an acknowledge or an escalation cannot act on the alarm: it is resolved, or acknowledged
 * already (undefined: neither). The fold sets `resolvedAt` with the resolved state and
 * `acknowledgedBy` with `acknowledgedAt`; an alarm without them is a broken fold, said as such.
 */
function settledRefusal(alarm: Alarm): AlarmDecideError | undefined {
  if (alarm.state === 'resolved') {
    if (alarm.resolvedAt === null) throw new Error(`alarm ${alarm.id} is resolved without a resolvedAt`);
    return { kind: 'resolved', at: alarm.resolvedAt };
  }
  if (alarm.acknowledgedAt === null) return undefined;
  if (alarm.acknowledgedBy === null) throw new Error(`alarm ${alarm.id} is acknowledged without an acknowledgedBy`);
  return { kind: 'already-acknowledged', by: alarm.acknowledgedBy, at: alarm.acknowledgedAt };
}

export function decideAlarm(command: AlarmCommand, alarm: Alarm | undefined): AlarmDecision {
  if (!alarm) return { ok: false, error: { kind: 'not-found' } };
  const base = { alert_id: alarm.id, patient_id: alarm.patientId, rule: alarm.rule };
  switch (command.type) {
    case 'acknowledge': {
      const settled = settledRefusal(alarm);
      if (settled) return { ok: false, error: settled };
      return {
        ok: true,
        events: [
          {
            type: ALARM_EVENTS.acknowledged,
            data: { ...base, by: command.by, at: command.now, ...(command.note ? { note: command.note } : {}) },
          },
        ],
      };
    }
    case 'escalate': {
      const settled = settledRefusal(alarm);
      if (settled) return { ok: false, error: settled };
      if (alarm.escalatedAt !== null) return { ok: false, error: { kind: 'already-escalated', at: alarm.escalatedAt } };
      if (alarm.dueAt === null || Date.parse(alarm.dueAt) > Date.parse(command.now))
        return { ok: false, error: { kind: 'not-due', dueAt: alarm.dueAt } };
      return {
        ok: true,
        events: [{ type: ALARM_EVENTS.escalated, data: { ...base, to: command.to, at: command.now, priority: alarm.priority } }],
      };
    }
  }
}

export const isActiveAlarm = (a: Alarm): boolean => a.state !== 'resolved';

/** A command on one alarm of the stream (the patient's alert stream holds all of its alarms). */
export type PatientAlarmCommand = AlarmCommand & { alarmId: string };

/** evolveAlarms on a copy: the state it is given stays as it was (the command handler keeps the state a command was decided on). */
const evolveAlarmsCopy = (s: PatientAlarms, e: FoldableAlarmEvent): PatientAlarms =>
  evolveAlarms({ alarms: new Map(s.alarms), open: new Map(s.open), latched: new Map(s.latched), version: s.version }, e);

/** The alarm decider for the command handler: a command on one alarm, decided on the patient's alert stream. */
export const PATIENT_ALARMS_DECIDER: Decider<PatientAlarms, PatientAlarmCommand, AlarmEvent, AlarmDecideError> = {
  initialState: emptyPatientAlarms,
  evolve: evolveAlarmsCopy,
  decide: (command, state) => decideAlarm(command, state.alarms.get(command.alarmId)),
};
