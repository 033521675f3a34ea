/**
 * Alarm reads and what every alarm surface shares: the deps, the one table of where alarms are read
 * (`ALARM_READS`), the presentation helpers (labels, ordering), the access checks (refused and
 * audited), the problems of a refused acknowledgement, the lists and single reads, and the triage
 * board's active alarms of a ward.
 */
import type { Pool } from '@vitalis/db';
import { readStream, readStreams, STREAM_CATEGORIES, streamOfEvent, type Queryable } from '@vitalis/eventstore';
import { conflict, HttpProblem, notFound } from '@vitalis/http';
import type { AlarmSettings } from '@vitalis/clinical';
import { alertStream, patientOfAlertStream } from '@vitalis/live';
import type { Logger } from '@vitalis/log';
import type { Redis } from '@vitalis/redis';
import {
  ACTIVE_ALARM_STATES,
  ALARM_EVENTS,
  foldAlarms,
  type Alarm,
  type AlarmActor,
  type AlarmDecideError,
  type AlarmState,
  type PatientAlarms,
} from '@vitalis/records';
import { insufficientScope } from '../access/refusal';
import type { Principal } from '../access/principal';
import { audit, requireAccess, type Caller } from '../access/caller';
import { access, reach } from '../access/policy';

export interface AlarmsDeps {
  pool: Pool;
  redis: Redis;
  /** The site's alarm table (labels of the conditions). */
  settings: AlarmSettings;
  /** Observes the time to acknowledge (vitalis_alarm_time_to_acknowledge_seconds). */
  onAcknowledged?: (priority: Alarm['priority'], seconds: number) => void;
  logger?: Logger;
}

/** Which surface asked (the audit row's `via`). */
export type AlarmVia = 'rest' | 'fhir' | 'mcp';

/** The states a person must still see: raised, acknowledged, latched. */
export const ACTIVE_STATES = ACTIVE_ALARM_STATES;
/** At most this many patients' streams are folded for one list across patients (those with the newest raises). */
export const ACROSS_MAX_PATIENTS = 500;
/** A history (resolved or every state) without `since` covers this long. */
export const DEFAULT_HISTORY_SECONDS = 24 * 3_600;

// ---- where alarms are read ----

/** The alarm reads, in one place (a test replaces one to force a race). */
export interface AlarmReads {
  /** One patient's alarms, current (its stream folded: read-your-writes). */
  ofPatient(db: Queryable, patientId: string): Promise<PatientAlarms>;
  /** The patient whose stream raised alarm `id` (undefined: no such alarm). */
  patientOf(db: Queryable, id: string): Promise<string | undefined>;
  /**
   * The alarms of the patients the read model has an alarm in one of `states` for, shown at any
   * time since `since` when given (at most `maxPatients` patients, those with the newest raise
   * first), each patient's stream folded (current).
   */
  across(db: Queryable, q: { states: readonly AlarmState[]; since?: string | undefined; maxPatients: number }): Promise<Alarm[]>;
}

const fold = async (db: Queryable, patientId: string) => foldAlarms(await readStream(db, alertStream(patientId)));

export const ALARM_READS: AlarmReads = {
  ofPatient: fold,
  async patientOf(db, id) {
    const { rows: projected } = await db.query<{ patient_id: string }>('SELECT patient_id FROM rm_alarms WHERE alarm_id = $1', [id]);
    if (projected[0]) return projected[0].patient_id;
    // raised since the projector's last tick (or the projector is behind): the raise itself
    const stream = await streamOfEvent(db, {
      type: ALARM_EVENTS.raised,
      category: STREAM_CATEGORIES.patientAlerts,
      key: 'alert_id',
      value: id,
    });
    return stream === undefined ? undefined : patientOfAlertStream(stream);
  },
  async across(db, q) {
    const { rows } = await db.query<{ patient_id: string }>(
      `SELECT patient_id FROM rm_alarms
        WHERE state = ANY($1::text[]) AND ($2::timestamptz IS NULL OR resolved_at IS NULL OR resolved_at >= $2::timestamptz)
        GROUP BY patient_id ORDER BY max(raised_at) DESC LIMIT $3`,
      [[...q.states], q.since ?? null, q.maxPatients],
    );
    const streams = await readStreams(
      db,
      rows.map((r) => alertStream(r.patient_id)),
    );
    // the fold skips events it cannot read (@vitalis/records isFoldableAlarmEvent): one bad event costs nothing else
    return [...streams.values()].flatMap((events) => [...foldAlarms(events).alarms.values()]);
  },
};

// ---- presentation helpers shared by the surfaces ----

/** What a person reads for a rule: the condition's label from the site's table, else the rule itself (an older or unknown rule). */
export const labelOf = (settings: AlarmSettings, rule: string): string =>
  (settings.conditions as Record<string, { label: string } | undefined>)[rule]?.label ?? rule;

const PRIORITY_RANK: Record<Alarm['priority'], number> = { high: 0, medium: 1, low: 2 };
/** The order of every list: priority (high first), then the newest raise first, then the id. */
export const byPriority = (a: Alarm, b: Alarm) =>
  PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || Date.parse(b.raisedAt) - Date.parse(a.raisedAt) || a.id.localeCompare(b.id);

/** When the alarm last changed (the latest of its times). */
export const lastChangedAt = (a: Alarm): string =>
  [a.raisedAt, a.conditionEndedAt, a.acknowledgedAt, a.escalatedAt, a.resolvedAt]
    .filter((t): t is string => t !== null)
    .reduce((x, y) => (Date.parse(y) > Date.parse(x) ? y : x));

/** Whether the alarm was shown at any time since `since` (still active, or resolved at or after it). */
const inWindow = (a: Alarm, since: number | undefined) => since === undefined || a.resolvedAt === null || Date.parse(a.resolvedAt) >= since;

// ---- access ----

const SCOPE = 'read:vitals';

async function refuse(
  pool: Pool,
  caller: Caller,
  action: string,
  scope: string,
  resourceId: string | undefined,
  reason: string,
  detail: string,
): Promise<never> {
  await audit(pool, caller, {
    action,
    outcome: 'failure',
    scope,
    resourceType: 'Alarm',
    ...(resourceId ? { resourceId } : {}),
    detail: { reason },
  });
  throw insufficientScope([scope], { detail });
}

/** The cell for the act as a whole (before any alarm or patient is looked up: a refused caller learns nothing). */
export async function requireCell(pool: Pool, caller: Caller, action: 'read' | 'acknowledge', auditAction: string, resourceId?: string) {
  const decision = reach(caller.principal, 'Alarm', action);
  if (!decision.allowed) return refuse(pool, caller, auditAction, decision.scope, resourceId, decision.reason, decision.detail);
  return decision;
}

/**
 * Whether a live stream's caller gets the alarm notices of the patients it watches (the access
 * policy's Alarm read for every one of them): the SSE, WebSocket and MCP subscriptions ask here.
 */
export const mayReadAlarms = (p: Principal, patients: readonly string[]): boolean => access(p, 'Alarm', 'read', patients).allowed;

// ---- problems ----

const nameOf = (by: AlarmActor) => by.name ?? by.user;

/** A refused acknowledgement as a problem: 404, or 409 naming who acknowledged it and when, or when it ended. */
export function decisionProblem(id: string, e: AlarmDecideError): HttpProblem {
  switch (e.kind) {
    case 'not-found':
      return notFound(`Alarm ${id} does not exist.`);
    case 'already-acknowledged':
      return conflict(`Alarm ${id} was already acknowledged by ${nameOf(e.by)} at ${e.at}.`, {
        state: 'acknowledged',
        acknowledged_by: { user: e.by.user, name: e.by.name ?? null, client_id: e.by.client_id },
        acknowledged_at: e.at,
      });
    case 'resolved':
      return conflict(`Alarm ${id} is resolved (since ${e.at}): there is nothing to acknowledge.`, {
        state: 'resolved',
        resolved_at: e.at,
      });
    default:
      return conflict(`Alarm ${id} cannot be acknowledged now.`);
  }
}

// ---- reads ----

export interface AlarmQuery {
  /** One patient's alarms; absent: across every patient the caller reaches (a ward or board view). */
  patientId?: string | undefined;
  /** The states listed (default: the active ones). */
  states?: readonly AlarmState[] | undefined;
  /** Only alarms shown at any time since this instant (active, or resolved at or after it). */
  since?: string | undefined;
  /** Only alarms whose last change (lastChangedAt) this accepts: FHIR `_lastUpdated`; applied before the limit. */
  lastChanged?: ((at: string) => boolean) | undefined;
  limit: number;
}

/** The `since` a query applies: given, or a day for a history (a resolved state asked for). */
function sinceOf(q: AlarmQuery, states: readonly AlarmState[]): number | undefined {
  if (q.since !== undefined) return Date.parse(q.since);
  return states.includes('resolved') ? Date.now() - DEFAULT_HISTORY_SECONDS * 1_000 : undefined;
}

/** A patient's alarms, or the active ones across patients; ordered by priority then newest; audited `alarm.read`. */
export async function listAlarms(
  deps: AlarmsDeps,
  caller: Caller,
  q: AlarmQuery,
  via: AlarmVia,
  reads: AlarmReads = ALARM_READS,
): Promise<Alarm[]> {
  const { pool } = deps;
  const action = 'alarm.read';
  const reached = await requireCell(pool, caller, 'read', action, q.patientId);
  const states = q.states && q.states.length > 0 ? q.states : ACTIVE_STATES;
  const since = sinceOf(q, states);
  let alarms: Alarm[];
  if (q.patientId !== undefined) {
    await requireAccess(pool, caller, 'Alarm', 'read', [q.patientId], { auditAction: action, resourceType: 'Alarm' });
    alarms = [...(await reads.ofPatient(pool, q.patientId)).alarms.values()];
  } else if (reached.rule === 'all') {
    alarms = await reads.across(pool, {
      states,
      since: since === undefined ? undefined : new Date(since).toISOString(),
      maxPatients: ACROSS_MAX_PATIENTS,
    });
  } else {
    alarms = []; // synthetic patients only: none is ever stored
  }
  const listed = alarms
    .filter((a) => states.includes(a.state) && inWindow(a, since) && (q.lastChanged?.(lastChangedAt(a)) ?? true))
    .sort(byPriority)
    .slice(0, q.limit);
  await audit(pool, caller, {
    action,
    scope: reached.scope,
    resourceType: 'Alarm',
    detail: {
      via,
      patient: q.patientId ?? null,
      states,
      since: since === undefined ? null : new Date(since).toISOString(),
      results: listed.length,
      ids: listed.map((a) => a.id).slice(0, 100),
    },
  });
  return listed;
}

/** Locates an alarm and checks the caller may act on its patient (a refusal and a miss are audited). */
export async function locate(
  deps: AlarmsDeps,
  caller: Caller,
  id: string,
  action: 'read' | 'acknowledge',
  auditAction: string,
  reads: AlarmReads,
): Promise<string> {
  const { pool } = deps;
  const patientId = await reads.patientOf(pool, id);
  if (patientId === undefined) {
    await audit(pool, caller, {
      action: auditAction,
      outcome: 'failure',
      scope: SCOPE,
      resourceType: 'Alarm',
      resourceId: id,
      detail: { reason: 'not found' },
    });
    throw notFound(`Alarm ${id} does not exist.`);
  }
  const decision = access(caller.principal, 'Alarm', action, [patientId]);
  if (!decision.allowed) await refuse(pool, caller, auditAction, decision.scope, id, decision.reason, decision.detail);
  return patientId;
}

/** One alarm, current; audited `alarm.read`. */
export async function getAlarm(
  deps: AlarmsDeps,
  caller: Caller,
  id: string,
  via: AlarmVia,
  reads: AlarmReads = ALARM_READS,
): Promise<Alarm> {
  const { pool } = deps;
  const action = 'alarm.read';
  const reached = await requireCell(pool, caller, 'read', action, id);
  const patientId = await locate(deps, caller, id, 'read', action, reads);
  const alarm = (await reads.ofPatient(pool, patientId)).alarms.get(id);
  if (!alarm) {
    await audit(pool, caller, {
      action,
      outcome: 'failure',
      scope: reached.scope,
      resourceType: 'Alarm',
      resourceId: id,
      detail: { reason: 'not found' },
    });
    throw notFound(`Alarm ${id} does not exist.`);
  }
  await audit(pool, caller, {
    action,
    scope: reached.scope,
    resourceType: 'Alarm',
    resourceId: id,
    detail: { via, patient: patientId, state: alarm.state },
  });
  return alarm;
}

/** The alarm deps from the gateway's (routes, FHIR and MCP build them the same way). */
export const alarmsDepsOf = (deps: {
  pool: Pool;
  redis: Redis;
  config: { alarms: AlarmSettings };
  metrics: { alarmAcknowledged(priority: string, seconds: number): void };
  logger: Logger;
}): AlarmsDeps => ({
  pool: deps.pool,
  redis: deps.redis,
  settings: deps.config.alarms,
  onAcknowledged: (priority, seconds) => deps.metrics.alarmAcknowledged(priority, seconds),
  logger: deps.logger,
});

/** An alarm as the triage board lists it: enough to show and sort it; the detail is GET /alarms. */
export interface BoardAlarm {
  alarmId: string;
  rule: string;
  priority: Alarm['priority'];
  state: Alarm['state'];
  raisedAt: string;
  escalatedTo: string | null;
}

/**
 * The active alarms (raised, acknowledged, latched) of the board's patients, highest priority first,
 * from the read model (one projector tick behind; the board polls). The caller has checked that the
 * principal reaches every patient's alarms (Alarm read of all).
 */
export async function activeAlarmsOfPatients(db: Queryable, patientIds: readonly string[]): Promise<Map<string, BoardAlarm[]>> {
  const out = new Map<string, BoardAlarm[]>();
  if (patientIds.length === 0) return out;
  const { rows } = await db.query<{
    alarm_id: string;
    patient_id: string;
    rule: string;
    priority: Alarm['priority'];
    state: Alarm['state'];
    raised_at: Date;
    escalated_to: string | null;
  }>(
    `SELECT alarm_id, patient_id, rule, priority, state, raised_at, escalated_to FROM rm_alarms
      WHERE patient_id = ANY($1::text[]) AND state = ANY($2::text[])
      ORDER BY patient_id, CASE priority WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, raised_at DESC, alarm_id`,
    [[...patientIds], [...ACTIVE_ALARM_STATES]],
  );
  for (const r of rows) {
    const list = out.get(r.patient_id) ?? [];
    list.push({
      alarmId: r.alarm_id,
      rule: r.rule,
      priority: r.priority,
      state: r.state,
      raisedAt: r.raised_at.toISOString(),
      escalatedTo: r.escalated_to,
    });
    out.set(r.patient_id, list);
  }
  return out;
}
