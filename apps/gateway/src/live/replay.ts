/**
 * Reads the append log for live streams: the starting cursor of a fresh subscription (the
 * patients' latest stored positions) and one page of what comes after a cursor (observations from
 * `vitals_observations` via its (patient_id, kafka_partition, kafka_offset) index, alert events
 * from `events` stream `patient-alerts-<id>`), merged in position order per partition.
 */
import type { Pool } from '@vitalis/db';
import type { AlertData, Cursor, LiveEvent } from '@vitalis/live';
import { rowToObservation } from '../vitals/history';

const AT = `to_char(effective_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The latest stored position of each patient (one partition per patient). */
export async function latestCursor(pool: Pool, patients: string[]): Promise<Cursor> {
  const { rows } = await pool.query<{ p: number; o: string }>(
    `SELECT last.p, last.o FROM unnest($1::text[]) AS pat(id)
       CROSS JOIN LATERAL (SELECT kafka_partition AS p, kafka_offset AS o FROM vitals_observations
                            WHERE patient_id = pat.id ORDER BY kafka_partition DESC, kafka_offset DESC LIMIT 1) last`,
    [patients],
  );
  const cursor: Cursor = new Map();
  for (const r of rows) {
    const o = Number(r.o);
    const seen = cursor.get(r.p);
    if (!seen || seen.offset < o) cursor.set(r.p, { offset: o, k: 0 });
  }
  return cursor;
}

export interface ReplayQuery {
  patients: string[];
  codes?: string[];
  alerts: boolean;
  after: Cursor;
  limit: number;
}

/** Up to `limit` observations after the cursor (+ the alerts in that range); `more` if cut. */
export async function replayPage(pool: Pool, q: ReplayQuery): Promise<{ events: LiveEvent[]; more: boolean }> {
  const parts = [...q.after.keys()];
  const offs = parts.map((p) => q.after.get(p)!.offset);
  const ks = parts.map((p) => q.after.get(p)!.k);
  const { rows } = await pool.query<{
    patient_id: string; device_id: string; seq: number; code: string; at: string; value: number | null; unit: string;
    sample_period_ms: number | null; samples: number[] | null; kafka_partition: number; kafka_offset: string;
  }>(
    // One index range scan per patient on (patient_id, kafka_partition, kafka_offset): the patient's
    // partition is that of its latest row (a patient maps to one partition), then rows after the
    // cursor there. Never a scan of the patient's whole history.
    `WITH c(p, o) AS (SELECT * FROM unnest($2::int[], $3::bigint[])),
          pp AS (SELECT pat.id, last.p FROM unnest($1::text[]) AS pat(id)
                   CROSS JOIN LATERAL (SELECT kafka_partition AS p FROM vitals_observations
                                        WHERE patient_id = pat.id ORDER BY kafka_partition DESC, kafka_offset DESC LIMIT 1) last)
     SELECT r.* FROM pp CROSS JOIN LATERAL (
       SELECT patient_id, device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, samples, kafka_partition, kafka_offset
         FROM vitals_observations v
        WHERE v.patient_id = pp.id AND v.kafka_partition = pp.p
          AND v.kafka_offset > COALESCE((SELECT c.o FROM c WHERE c.p = pp.p), -1)
          AND ($4::text[] IS NULL OR v.code = ANY($4::text[]))
        ORDER BY v.kafka_offset
        LIMIT $5) r
      ORDER BY r.kafka_partition, r.kafka_offset
      LIMIT $5`,
    [q.patients, parts, offs, q.codes?.length ? q.codes : null, q.limit + 1],
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const events: LiveEvent[] = page.map((r) => ({
    kind: 'observation',
    partition: r.kafka_partition,
    offset: Number(r.kafka_offset),
    k: 0,
    patient_id: r.patient_id,
    data: rowToObservation(r.patient_id, r),
  }));
  if (!q.alerts) return { events, more };

  // Alerts up to the last observation position of this page (per partition) when the page was cut,
  // so the next page continues consistently; everything after the cursor otherwise.
  const upTo = new Map<number, number>();
  if (more) for (const e of events) upTo.set(e.partition, e.offset);
  const { rows: alertRows } = await pool.query<{ type: string; data: AlertData; p: number; o: string; k: number }>(
    `WITH c(p, o, k) AS (SELECT * FROM unnest($2::int[], $3::bigint[], $4::int[])),
          a AS (SELECT type, data, (metadata->>'kafka_partition')::int AS p, (metadata->>'kafka_offset')::bigint AS o,
                       (metadata->>'alert_seq')::int AS k
                  FROM events WHERE stream_id = ANY($1::text[]))
     SELECT a.type, a.data, a.p, a.o, a.k FROM a LEFT JOIN c ON c.p = a.p
      WHERE c.p IS NULL OR a.o > c.o OR (a.o = c.o AND a.k > c.k)`,
    [q.patients.map((p) => `patient-alerts-${p}`), parts, offs, ks],
  );
  const alerts: LiveEvent[] = [];
  for (const a of alertRows) {
    const o = Number(a.o);
    if (more && (!upTo.has(a.p) || o > upTo.get(a.p)!)) continue;
    alerts.push({ kind: 'alert', partition: a.p, offset: o, k: a.k, patient_id: a.data.patient_id, type: a.type, data: a.data });
  }
  if (alerts.length === 0) return { events, more };
  return { events: [...events, ...alerts].sort((a, b) => a.partition - b.partition || a.offset - b.offset || a.k - b.k), more };
}
