/**
 * The read models: which streams each projection owns and how folded state becomes rows.
 * Table names are parameters so the same code writes the live table and a rebuild copy.
 */
import type { PoolClient } from '@vitalis/db';
import { STREAM_CATEGORIES, streamCategory, streamIdIn, type StoredEvent } from '@vitalis/eventstore';
import { foldDiagnosticReport, foldPatient, foldServiceRequest, foldSlot, foldTriage } from '@vitalis/records';

export interface Projection {
  name: string;
  table: string;
  owns: (streamId: string) => boolean;
  /**
   * Upserts (or deletes) the row of every stream in `streams` from its folded history (up to the
   * batch's last position); `batch` holds just the new events this projection owns.
   */
  write: (client: PoolClient, table: string, streams: Map<string, StoredEvent[]>, batch: StoredEvent[]) => Promise<void>;
}

const lastPosition = (events: StoredEvent[]) => events[events.length - 1]!.globalPosition;
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
          p.id, p.version, p.family, p.given, `${p.given.join(' ')} ${p.family}`.toLowerCase(), p.birthDate, p.gender,
          JSON.stringify(p.identifiers), JSON.stringify(p.telecom), JSON.stringify(p.allergies), p.registeredAt, p.updatedAt, lastPosition(events),
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
        [s.id, s.version, s.clinicianId, s.appointmentType, s.start, s.end, s.status, s.appointmentId, s.patientId, s.reason, s.bookedAt, lastPosition(events)],
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
        [o.id, o.version, o.patientId, o.status, o.intent, o.priority, o.code, o.requester, o.performer, o.reason, o.authoredAt, o.updatedAt, lastPosition(events)],
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
          r.id, r.version, r.patientId, r.orderId, r.code, r.status, r.issuedAt, r.updatedAt, c?.id ?? null, c?.state ?? null, c ? JSON.stringify(c.results) : null,
          c?.raisedAt ?? null, c?.dueAt ?? null, c?.escalatedAt ?? null, c?.acknowledgedAt ?? null, c?.acknowledgedBy ?? null, lastPosition(events),
        ],
      );
    }
  },
};

export const PROJECTIONS: Projection[] = [patientsProjection, slotsProjection, triageProjection, serviceRequestsProjection, diagnosticReportsProjection];
