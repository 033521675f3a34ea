/**
 * The read models: which streams each projection owns and how folded state becomes rows.
 * Table names are parameters so the same code writes the live table and a rebuild copy.
 *
 * Long: a table of the read models, one definition per projection with its SQL beside its fold; each is short, and one file keeps the list the runner and the rebuild read in one place.
 */
import { must } from '@vitalis/runtime';
import type { PoolClient } from '@vitalis/db';
import { STREAM_CATEGORIES, streamCategory, streamIdIn, type StoredEvent } from '@vitalis/eventstore';
import {
  ALARM_EVENTS,
  emptyPatientAlarms,
  evolveAlarms,
  foldDiagnosticReport,
  foldPatient,
  foldServiceRequest,
  foldSlot,
  foldTriage,
  type Alarm,
  type AlarmActor,
  type PatientAlarms,
} from '@vitalis/records';

export interface Projection {
  name: string;
  table: string;
  owns: (streamId: string) => boolean;
  /**
   * Upserts (or deletes) the row of every stream in `streams` from its folded history (up to the
   * batch's last position); `batch` holds just the new events this projection owns.
   */
  write: (client: PoolClient, table: string, streams: Map<string, StoredEvent[]>, batch: StoredEvent[]) => Promise<void>;
  /**
   * `streams` holds only the batch's events of each stream (not the history up to them): the
   * projection folds them onto the state it reads back from `table` (runner.ts).
   */
  incremental?: boolean;
}

const lastPosition = (events: StoredEvent[]) => must(events.at(-1), 'the last event of a stream in the batch').globalPosition;
/** Owns the streams of exactly one category (streams.ts: no other category's names can match). */
const ofCategory = (category: string) => (streamId: string) => streamCategory(streamId) === category;

export const patientsProjection: Projection = {
  name: 'patients',
  table: 'rm_patients',
  owns: ofCategory(STREAM_CATEGORIES.patient),
  write: async (client, table, streams) => {
    for (const events of streams.values()) {
      const p = foldPatient(events);
      if (!p) continue; // a stream never registered has no patient row
      await client.query(
        `INSERT INTO ${table} (patient_id, version, family, given, name_search, birth_date, gender, identifiers, telecom, allergies, registered_at, updated_at, last_position)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
         ON CONFLICT (patient_id) DO UPDATE SET version = EXCLUDED.version, family = EXCLUDED.family, given = EXCLUDED.given,
           name_search = EXCLUDED.name_search, birth_date = EXCLUDED.birth_date, gender = EXCLUDED.gender,
           identifiers = EXCLUDED.identifiers, telecom = EXCLUDED.telecom, allergies = EXCLUDED.allergies,
           registered_at = EXCLUDED.registered_at, updated_at = EXCLUDED.updated_at, last_position = EXCLUDED.last_position`,
        [
          p.id,
          p.version,
          p.family,
          p.given,
          `${p.given.join(' ')} ${p.family}`.toLowerCase(),
          p.birthDate,
          p.gender,
          JSON.stringify(p.identifiers),
          JSON.stringify(p.telecom),
          JSON.stringify(p.allergies),
          p.registeredAt,
          p.updatedAt,
          lastPosition(events),
        ],
      );
    }
  },
};

export const slotsProjection: Projection = {
  name: 'slots',
  table: 'rm_slots',
  owns: ofCategory(STREAM_CATEGORIES.slot),
  write: async (client, table, streams) => {
    for (const events of streams.values()) {
      const s = foldSlot(events);
      if (!s) continue;
      await client.query(
        `INSERT INTO ${table} (slot_id, version, clinician_id, appointment_type, start_at, end_at, status, appointment_id, patient_id, reason, booked_at, last_position)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)
         ON CONFLICT (slot_id) DO UPDATE SET version = EXCLUDED.version, clinician_id = EXCLUDED.clinician_id,
           appointment_type = EXCLUDED.appointment_type, start_at = EXCLUDED.start_at, end_at = EXCLUDED.end_at,
           status = EXCLUDED.status, appointment_id = EXCLUDED.appointment_id, patient_id = EXCLUDED.patient_id,
           reason = EXCLUDED.reason, booked_at = EXCLUDED.booked_at, last_position = EXCLUDED.last_position`,
        [
          s.id,
          s.version,
          s.clinicianId,
          s.appointmentType,
          s.start,
          s.end,
          s.status,
          s.appointmentId,
          s.patientId,
          s.reason,
          s.bookedAt,
          lastPosition(events),
        ],
      );
    }
  },
};

export const triageProjection: Projection = {
  name: 'triage',
  table: 'rm_triage',
  owns: ofCategory(STREAM_CATEGORIES.triage),
  write: async (client, table, streams) => {
    for (const [streamId, events] of streams) {
      const t = foldTriage(events);
      if (!t || !t.present) {
        await client.query(`DELETE FROM ${table} WHERE patient_id = $1`, [streamIdIn(STREAM_CATEGORIES.triage, streamId)]);
        continue;
      }
      await client.query(
        `INSERT INTO ${table} (patient_id, version, esi, complaint, arrived_at, updated_at, last_position)
         VALUES ($1,$2,$3,$4,$5,$6,$7)
         ON CONFLICT (patient_id) DO UPDATE SET version = EXCLUDED.version, esi = EXCLUDED.esi, complaint = EXCLUDED.complaint,
           arrived_at = EXCLUDED.arrived_at, updated_at = EXCLUDED.updated_at, last_position = EXCLUDED.last_position`,
        [t.patientId, t.version, t.esi, t.complaint, t.arrivedAt, t.updatedAt, lastPosition(events)],
      );
    }
  },
};

/** Diagnostic orders (issue 21): one row per serviceRequest-<id> stream. */
export const serviceRequestsProjection: Projection = {
  name: 'service-requests',
  table: 'rm_service_requests',
  owns: ofCategory(STREAM_CATEGORIES.serviceRequest),
  write: async (client, table, streams) => {
    for (const events of streams.values()) {
      const o = foldServiceRequest(events);
      if (!o) continue;
      await client.query(
        `INSERT INTO ${table} (request_id, version, patient_id, status, intent, priority, code, requester, performer, reason, authored_at, updated_at, last_position)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)
         ON CONFLICT (request_id) DO UPDATE SET version = EXCLUDED.version, patient_id = EXCLUDED.patient_id, status = EXCLUDED.status,
           intent = EXCLUDED.intent, priority = EXCLUDED.priority, code = EXCLUDED.code, requester = EXCLUDED.requester,
           performer = EXCLUDED.performer, reason = EXCLUDED.reason, authored_at = EXCLUDED.authored_at, updated_at = EXCLUDED.updated_at,
           last_position = EXCLUDED.last_position`,
        [
          o.id,
          o.version,
          o.patientId,
          o.status,
          o.intent,
          o.priority,
          o.code,
          o.requester,
          o.performer,
          o.reason,
          o.authoredAt,
          o.updatedAt,
          lastPosition(events),
        ],
      );
    }
  },
};

/**
 * Diagnostic reports (issue 21) with their latest critical result: the board reads the
 * unacknowledged ones, the escalator scans the open ones by due time (so a due time survives
 * any restart: it is in the log, and this row is rebuilt from it).
 */
export const diagnosticReportsProjection: Projection = {
  name: 'diagnostic-reports',
  table: 'rm_diagnostic_reports',
  owns: ofCategory(STREAM_CATEGORIES.diagnosticReport),
  write: async (client, table, streams) => {
    for (const events of streams.values()) {
      const r = foldDiagnosticReport(events);
      if (!r) continue;
      const c = r.critical;
      await client.query(
        `INSERT INTO ${table} (report_id, version, patient_id, order_id, code, status, issued_at, updated_at, critical_id, critical_state, critical_results,
                               critical_raised_at, critical_due_at, critical_escalated_at, critical_acknowledged_at, critical_acknowledged_by, last_position)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17)
         ON CONFLICT (report_id) DO UPDATE SET version = EXCLUDED.version, patient_id = EXCLUDED.patient_id, order_id = EXCLUDED.order_id,
           code = EXCLUDED.code, status = EXCLUDED.status, issued_at = EXCLUDED.issued_at, updated_at = EXCLUDED.updated_at,
           critical_id = EXCLUDED.critical_id, critical_state = EXCLUDED.critical_state, critical_results = EXCLUDED.critical_results,
           critical_raised_at = EXCLUDED.critical_raised_at, critical_due_at = EXCLUDED.critical_due_at, critical_escalated_at = EXCLUDED.critical_escalated_at,
           critical_acknowledged_at = EXCLUDED.critical_acknowledged_at, critical_acknowledged_by = EXCLUDED.critical_acknowledged_by,
           last_position = EXCLUDED.last_position`,
        [
          r.id,
          r.version,
          r.patientId,
          r.orderId,
          r.code,
          r.status,
          r.issuedAt,
          r.updatedAt,
          c?.id ?? null,
          c?.state ?? null,
          c ? JSON.stringify(c.results) : null,
          c?.raisedAt ?? null,
          c?.dueAt ?? null,
          c?.escalatedAt ?? null,
          c?.acknowledgedAt ?? null,
          c?.acknowledgedBy ?? null,
          lastPosition(events),
        ],
      );
    }
  },
};

/** An alarm as its rm_alarms row holds it (migration 0025). */
interface AlarmRow {
  alarm_id: string;
  patient_id: string;
  rule: string;
  kind: Alarm['kind'];
  priority: Alarm['priority'];
  latching: boolean;
  state: Alarm['state'];
  message: string;
  value: number;
  device_id: string;
  raised_at: Date;
  condition_since: Date;
  recurrences: number;
  due_at: Date | null;
  condition_ended_at: Date | null;
  acknowledged_at: Date | null;
  acknowledged_by: AlarmActor | null;
  note: string | null;
  escalated_at: Date | null;
  escalated_to: string | null;
  resolved_at: Date | null;
  open: boolean;
  version: number;
  last_position: number;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

const alarmOfRow = (r: AlarmRow): Alarm => ({
  id: r.alarm_id,
  patientId: r.patient_id,
  rule: r.rule,
  kind: r.kind,
  priority: r.priority,
  latching: r.latching,
  state: r.state,
  message: r.message,
  value: r.value,
  deviceId: r.device_id,
  raisedAt: r.raised_at.toISOString(),
  conditionSince: r.condition_since.toISOString(),
  recurrences: r.recurrences,
  dueAt: iso(r.due_at),
  conditionEndedAt: iso(r.condition_ended_at),
  acknowledgedAt: iso(r.acknowledged_at),
  acknowledgedBy: r.acknowledged_by,
  note: r.note,
  escalatedAt: iso(r.escalated_at),
  escalatedTo: r.escalated_to,
  resolvedAt: iso(r.resolved_at),
  version: r.version,
});

/** A patient's alarms as the fold has them, with the alarms that were their rule's open alarm before the batch. */
export interface AlarmsSoFar {
  state: PatientAlarms;
  wasOpen: Set<string>;
}

export const emptyAlarmsSoFar = (): AlarmsSoFar => ({ state: emptyPatientAlarms(), wasOpen: new Set() });

/**
 * What a batch's events can touch of the fold's state, read back from `table`: the `open` map (the
 * rows flagged open: per rule, the alarm its next clear closes), the `latched` map (the rows in
 * state latched: per rule, the alarm its next raise re-activates; the latest ended if an older
 * stream left several) and the alarms the batch acknowledges or escalates by id. A new raise
 * replaces nothing else. Every read goes through small indexes (rm_alarms_open_idx,
 * rm_alarms_active_idx, the primary key), however long the stay.
 */
async function alarmsSoFar(client: PoolClient, table: string, patientId: string, events: StoredEvent[]): Promise<AlarmsSoFar> {
  const ids = [
    ...new Set(
      events.filter((e) => e.type === ALARM_EVENTS.acknowledged || e.type === ALARM_EVENTS.escalated).map((e) => String(e.data.alert_id)),
    ),
  ];
  const { rows } = await client.query<AlarmRow>(
    `SELECT * FROM ${table} WHERE (patient_id = $1 AND (open OR state = 'latched')) OR alarm_id = ANY($2::text[])
      ORDER BY condition_ended_at NULLS FIRST, version`,
    [patientId, ids],
  );
  const first = must(events[0], "the first of the batch's events of the stream");
  const s: AlarmsSoFar = { state: { ...emptyPatientAlarms(), version: first.streamVersion - 1 }, wasOpen: new Set() };
  for (const r of rows) {
    s.state.alarms.set(r.alarm_id, alarmOfRow(r));
    if (r.open) {
      s.state.open.set(r.rule, r.alarm_id);
      s.wasOpen.add(r.alarm_id);
    }
    if (r.patient_id === patientId && r.state === 'latched') s.state.latched.set(r.rule, r.alarm_id); // ordered: the latest ended wins
  }
  return s;
}

/** Folds `events` (in version order) onto `s`. */
export function foldAlarmEvents(s: AlarmsSoFar, events: StoredEvent[]): AlarmsSoFar {
  for (const e of events) evolveAlarms(s.state, e);
  return s;
}

/**
 * Writes what the batch changed: every alarm whose `version` (the stream version of the last event
 * that changed it) is at or after the batch's first event of the stream, in one statement; and the
 * `open` flag of an alarm a new raise of its rule replaced without changing it.
 */
export async function writeChangedAlarms(
  client: PoolClient,
  table: string,
  s: AlarmsSoFar,
  events: StoredEvent[],
  firstVersion: number,
): Promise<void> {
  const positionAt = new Map(events.map((e) => [e.streamVersion, e.globalPosition]));
  const open = new Set(s.state.open.values());
  const changed = [...s.state.alarms.values()].filter((a) => a.version >= firstVersion);
  if (changed.length > 0) {
    await client.query(
      `INSERT INTO ${table} (alarm_id, patient_id, rule, kind, priority, latching, state, message, value, device_id, raised_at, condition_since, recurrences,
                             due_at, condition_ended_at, acknowledged_at, acknowledged_by, note, escalated_at, escalated_to, resolved_at, open, version, last_position)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(alarm_id text, patient_id text, rule text, kind text, priority text, latching boolean, state text,
              message text, value double precision, device_id text, raised_at timestamptz, condition_since timestamptz, recurrences integer,
              due_at timestamptz, condition_ended_at timestamptz,
              acknowledged_at timestamptz, acknowledged_by jsonb, note text, escalated_at timestamptz, escalated_to text, resolved_at timestamptz,
              open boolean, version integer, last_position bigint)
       ON CONFLICT (alarm_id) DO UPDATE SET patient_id = EXCLUDED.patient_id, rule = EXCLUDED.rule, kind = EXCLUDED.kind, priority = EXCLUDED.priority,
         latching = EXCLUDED.latching, state = EXCLUDED.state, message = EXCLUDED.message, value = EXCLUDED.value, device_id = EXCLUDED.device_id,
         raised_at = EXCLUDED.raised_at, condition_since = EXCLUDED.condition_since, recurrences = EXCLUDED.recurrences, due_at = EXCLUDED.due_at, condition_ended_at = EXCLUDED.condition_ended_at,
         acknowledged_at = EXCLUDED.acknowledged_at, acknowledged_by = EXCLUDED.acknowledged_by, note = EXCLUDED.note,
         escalated_at = EXCLUDED.escalated_at, escalated_to = EXCLUDED.escalated_to, resolved_at = EXCLUDED.resolved_at,
         open = EXCLUDED.open, version = EXCLUDED.version, last_position = EXCLUDED.last_position`,
      [
        JSON.stringify(
          changed.map((a) => ({
            alarm_id: a.id,
            patient_id: a.patientId,
            rule: a.rule,
            kind: a.kind,
            priority: a.priority,
            latching: a.latching,
            state: a.state,
            message: a.message,
            value: a.value,
            device_id: a.deviceId,
            raised_at: a.raisedAt,
            condition_since: a.conditionSince,
            recurrences: a.recurrences,
            due_at: a.dueAt,
            condition_ended_at: a.conditionEndedAt,
            acknowledged_at: a.acknowledgedAt,
            acknowledged_by: a.acknowledgedBy,
            note: a.note,
            escalated_at: a.escalatedAt,
            escalated_to: a.escalatedTo,
            resolved_at: a.resolvedAt,
            open: open.has(a.id),
            version: a.version,
            last_position: must(positionAt.get(a.version), `the position of version ${a.version}, an event of this batch`),
          })),
        ),
      ],
    );
  }
  const replaced = [...s.wasOpen].filter(
    (id) => !open.has(id) && must(s.state.alarms.get(id), `alarm ${id}, read back from the table`).version < firstVersion,
  );
  if (replaced.length > 0) await client.query(`UPDATE ${table} SET open = false WHERE alarm_id = ANY($1::text[])`, [replaced]);
}

/**
 * Bedside alarms (issue 31): one row per alarm of the patientAlerts-<patientId> streams, written
 * with the records fold (@vitalis/records alarm.ts). Incremental: an alert stream holds every raise
 * and clear of the patient's stay, and re-reading it whole for each batch cost more the longer
 * the stay (docs/alarms.md has the figures); each batch's events are folded onto the state read
 * back from the table instead, which is the same fold's state (alarmsSoFar says why).
 */
export const alarmsProjection: Projection = {
  name: 'alarms',
  table: 'rm_alarms',
  owns: ofCategory(STREAM_CATEGORIES.patientAlerts),
  incremental: true,
  write: async (client, table, streams) => {
    for (const [streamId, events] of streams) {
      const patientId = must(streamIdIn(STREAM_CATEGORIES.patientAlerts, streamId), `the patient of ${streamId}, an owned alert stream`);
      const s = foldAlarmEvents(await alarmsSoFar(client, table, patientId, events), events);
      await writeChangedAlarms(client, table, s, events, must(events[0], `the first event of ${streamId} in the batch`).streamVersion);
    }
  },
};

export const PROJECTIONS: Projection[] = [
  patientsProjection,
  slotsProjection,
  triageProjection,
  serviceRequestsProjection,
  diagnosticReportsProjection,
  alarmsProjection,
];
