/**
 * Reads the append log for live streams: the starting cursor of a fresh subscription and one page
 * of what comes after a cursor (observations from `vitals_observations`, alert events from the event
 * store through @vitalis/live alertsAfter), merged in position order per partition.
 *
 * The log has no per-row (patient, partition, offset) index (migration 0009: it cost 30% of the
 * ingest). "Patient p's rows after (k, o)" is answered exactly, one window of ingest time at a time:
 *  - vitals_ingest_batches (the offset ranges each ingest transaction stored, with its time) gives
 *    the window: from the first range after o (time t0) to the last range written by t0 + W
 *    (offset o_end). Nothing after o there means nothing to replay;
 *  - on-time rows of the window (ingested within 1 minute of their effective_at) come from the
 *    series index, effective_at in [t0 - 3 min, t0 + W + 3 min]: 1 minute of skew plus a 2-minute
 *    margin for ingest transactions that overlap during a rebalance;
 *  - off-time rows (late or early by more than 1 minute) from the partial position index;
 *  - a window holding none of the patients' rows moves on, W doubling, so a page costs what it
 *    returns plus a few index probes, however old the cursor.
 * A patient's partition is that of its latest row (the topic is keyed by patient).
 */
import { seriesAmong, seriesOf, type Pool } from '@vitalis/db';
import {
  alertsAfter,
  comparePosition,
  itemOfK,
  K_PER_ITEM,
  observationFromRow,
  observationK,
  RECORD_END_K,
  STORED_INSTANT_SQL,
  STORED_SAMPLES_SQL,
  type Cursor,
  type ObservationRow,
  type LiveEvent,
  type Position,
} from '@vitalis/live';
import { VITAL_CODES } from '@vitalis/schemas';

const AT = STORED_INSTANT_SQL;

/** The partial index's predicate, verbatim (migration 0010): the planner matches it textually. */
const OFF_TIME = `(v.ingested_at - v.effective_at > interval '1 minute' OR v.effective_at - v.ingested_at > interval '1 minute')`;
/** On-time skew (1 minute) plus a 2-minute margin for overlapping ingest transactions. */
const MARGIN = `interval '3 minutes'`;
/** The first window of ingest time a page reads (doubled while windows come back empty). */
const WINDOW_MS = 10 * 60_000;
/** Ranges one window spans at most (bounds the work of one query on a busy partition). */
const MAX_RANGES = 2_000;

/** Each patient `pat.id`'s partition: that of its latest row (one probe per code in `codes`, a text[] parameter). */
const patientPartitionSql = (codes: string) => `
  SELECT v.kafka_partition AS p FROM unnest(${codes}::text[]) AS k(code)
   CROSS JOIN LATERAL (SELECT kafka_partition, effective_at FROM vitals_observations
                        WHERE ${seriesOf('pat.id', 'k.code')} ORDER BY effective_at DESC LIMIT 1) v
   ORDER BY v.effective_at DESC LIMIT 1`;

/** The latest stored position (from topic `topic`) of each watched patient's partition. */
export async function latestCursor(pool: Pool, topic: string, patients: string[]): Promise<Cursor> {
  const { rows } = await pool.query<{ p: number; o: string }>({
    name: 'vitalis-live-latest-cursor', // prepared per connection, like the replay page below
    text: `SELECT pp.p, last.o FROM (SELECT DISTINCT part.p FROM unnest($1::text[]) AS pat(id)
                                 CROSS JOIN LATERAL (${patientPartitionSql('$2')}) part) pp
       CROSS JOIN LATERAL (SELECT last_offset AS o FROM vitals_ingest_batches
                            WHERE topic = $3 AND kafka_partition = pp.p ORDER BY last_offset DESC LIMIT 1) last`,
    values: [patients, VITAL_CODES, topic],
  });
  const cursor: Cursor = new Map();
  for (const r of rows) cursor.set(r.p, { offset: Number(r.o), k: RECORD_END_K }); // after all of that record (a frame: every observation)
  return cursor;
}

/** Each patient's partition (that of its latest row); patients without a stored row are absent. */
export async function patientPartitions(pool: Pool, patients: string[]): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ id: string; p: number }>({
    name: 'vitalis-live-replay-partitions',
    text: `SELECT pat.id, part.p FROM unnest($1::text[]) AS pat(id) CROSS JOIN LATERAL (${patientPartitionSql('$2')}) part`,
    values: [patients, VITAL_CODES],
  });
  return new Map(rows.map((r) => [r.id, r.p]));
}

export interface ReplayQuery {
  /** The first window of ingest time to read (tests use small ones); default 10 minutes. */
  windowMs?: number;
  /** The Kafka topic the live stream serves (the ranges in vitals_ingest_batches are per topic). */
  topic: string;
  patients: string[];
  codes?: string[];
  alerts: boolean;
  after: Cursor;
  limit: number;
}

/** A window's row: the columns `observationFromRow` rebuilds from, with the row's patient and Kafka position. */
type ReplayRow = ObservationRow & {
  patient_id: string;
  kafka_partition: number;
  kafka_offset: string;
  record_item: number;
};

/**
 * Where a partition's scan stands: rows after (offset, item) are wanted (a frame's observations
 * share an offset; item RECORD_ITEM_END: the whole record at `offset` was read).
 */
interface ScanFrom {
  offset: string;
  item: number;
}
const RECORD_ITEM_END = itemOfK(RECORD_END_K);

/** One window per partition: rows after `after` up to `o_end` were stored between t0 and t0 + W. */
interface Window {
  p: number;
  after: string;
  after_item: number;
  t0: string;
  o_end: string;
  /** Ranges exist beyond o_end. */
  more: boolean;
}

async function windows(pool: Pool, topic: string, after: Map<number, ScanFrom>, windowMs: number): Promise<Window[]> {
  const scans = [...after.values()];
  const parts = [...after.keys()];
  // A scan in the middle of a record (a frame) starts with the range holding that record.
  const rangeAfter = (s: ScanFrom) => String(s.item >= RECORD_ITEM_END ? BigInt(s.offset) : BigInt(s.offset) - 1n);
  const { rows } = await pool.query<Window>({
    name: 'vitalis-live-replay-windows',
    text: `SELECT c.p, c.after::text AS after, c.after_item, b.t0::text AS t0, b.o_end::text AS o_end, b.more
             FROM unnest($2::int[], $3::bigint[], $5::bigint[], $6::int[]) AS c(p, after, range_after, after_item)
             CROSS JOIN LATERAL (
               SELECT min(x.t0) AS t0, max(x.last_offset) FILTER (WHERE x.ok) AS o_end, bool_or(NOT x.ok) AS more
                 FROM (SELECT last_offset, first_value(ingested_at) OVER w AS t0,
                              row_number() OVER w <= ${MAX_RANGES}
                                AND ingested_at <= first_value(ingested_at) OVER w + $4 * interval '1 millisecond' AS ok
                         FROM (SELECT last_offset, ingested_at FROM vitals_ingest_batches
                                WHERE topic = $1 AND kafka_partition = c.p AND last_offset > c.range_after
                                ORDER BY last_offset LIMIT ${MAX_RANGES + 1}) s
                       WINDOW w AS (ORDER BY last_offset)) x) b
            WHERE b.t0 IS NOT NULL`,
    values: [topic, parts, scans.map((s) => s.offset), windowMs, scans.map(rangeAfter), scans.map((s) => s.item)],
  });
  return rows;
}

/** The watched patients' rows in the windows, in (partition, offset) order, at most `limit`. */
async function windowRows(
  pool: Pool,
  q: ReplayQuery,
  patientPartition: Map<string, number>,
  ws: Window[],
  windowMs: number,
  limit: number,
): Promise<ReplayRow[]> {
  const byPartition = new Map(ws.map((w) => [w.p, w]));
  const windowOf = (id: string) => {
    const p = patientPartition.get(id);
    return p === undefined ? undefined : byPartition.get(p);
  };
  const pairs = q.patients.flatMap((id) => {
    const win = windowOf(id);
    return win ? [{ id, win }] : [];
  });
  if (pairs.length === 0) return [];
  const watched = pairs.map((x) => x.id);
  const w = pairs.map((x) => x.win);
  const { rows } = await pool.query<ReplayRow>({
    name: 'vitalis-live-replay-rows',
    text: `SELECT r.* FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[], $5::timestamptz[], $10::int[]) AS w(id, p, after, o_end, t0, after_item)
     CROSS JOIN LATERAL (
       SELECT * FROM (
         SELECT patient_id, device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL}, kafka_partition, kafka_offset, record_item
           FROM vitals_observations v
          WHERE ${seriesAmong('w.id', 'COALESCE($6::text[], $7::text[])', 'v.')}
            AND v.effective_at >= w.t0 - ${MARGIN} AND v.effective_at <= w.t0 + $8 * interval '1 millisecond' + ${MARGIN}
            AND v.kafka_partition = w.p AND v.kafka_offset >= w.after AND (v.kafka_offset > w.after OR v.record_item > w.after_item)
            AND v.kafka_offset <= w.o_end AND NOT ${OFF_TIME}
         UNION ALL
         SELECT patient_id, device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL}, kafka_partition, kafka_offset, record_item
           FROM vitals_observations v
          WHERE v.patient_id = w.id AND v.kafka_partition = w.p AND v.kafka_offset >= w.after AND (v.kafka_offset > w.after OR v.record_item > w.after_item)
            AND v.kafka_offset <= w.o_end AND ${OFF_TIME} AND ($6::text[] IS NULL OR v.code = ANY($6::text[]))
       ) both_paths ORDER BY kafka_offset, record_item LIMIT $9) r
      ORDER BY r.kafka_partition, r.kafka_offset, r.record_item
      LIMIT $9`,
    values: [
      watched,
      w.map((x) => x.p),
      w.map((x) => x.after),
      w.map((x) => x.o_end),
      w.map((x) => x.t0),
      q.codes?.length ? q.codes : null,
      VITAL_CODES,
      windowMs,
      limit,
      w.map((x) => x.after_item),
    ],
  });
  return rows;
}

/** Up to `limit` observations after the cursor (+ the alerts in that range); `more` if cut. */
export async function replayPage(pool: Pool, q: ReplayQuery): Promise<{ events: LiveEvent[]; more: boolean }> {
  // Each patient's partition, and where the scan of each partition starts (-1: from the beginning).
  const patientPartition = await patientPartitions(pool, q.patients);
  const scan = new Map<number, ScanFrom>();
  for (const p of new Set(patientPartition.values())) {
    const at = q.after.get(p);
    scan.set(p, at ? { offset: String(at.offset), item: itemOfK(at.k) } : { offset: '-1', item: RECORD_ITEM_END });
  }

  // Window after window until the page is full or every partition is read to its end. The scan
  // positions only move past windows read whole; the returned events move the subscriber's cursor.
  const rows: ReplayRow[] = [];
  let windowMs = q.windowMs ?? WINDOW_MS;
  while (scan.size > 0 && rows.length <= q.limit) {
    const ws = await windows(pool, q.topic, scan, windowMs);
    const found = await windowRows(pool, q, patientPartition, ws, windowMs, q.limit + 1 - rows.length);
    rows.push(...found);
    scan.clear();
    for (const w of ws) if (w.more) scan.set(w.p, { offset: w.o_end, item: RECORD_ITEM_END });
    if (found.length === 0) windowMs *= 2;
  }
  rows.sort(
    (a, b) => a.kafka_partition - b.kafka_partition || Number(a.kafka_offset) - Number(b.kafka_offset) || a.record_item - b.record_item,
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  const events: LiveEvent[] = page.map((r) => ({
    kind: 'observation',
    partition: r.kafka_partition,
    offset: Number(r.kafka_offset),
    k: observationK(r.record_item),
    patient_id: r.patient_id,
    data: observationFromRow(r.patient_id, r),
  }));
  if (!q.alerts) return { events, more };

  // Alerts up to the last observation position of this page (per partition) when the page was cut,
  // so the next page continues consistently; everything after the cursor otherwise.
  // (A frame's page may end inside the record: up to the last observation's own alerts.)
  const upTo = new Map<number, Position>();
  if (more) for (const e of events) upTo.set(e.partition, { offset: e.offset, k: e.k + K_PER_ITEM - 1 });
  const alerts: LiveEvent[] = [];
  for (const a of await alertsAfter(pool, q.patients, q.after)) {
    const bound = upTo.get(a.partition);
    if (more && (!bound || comparePosition(a, bound) > 0)) continue;
    alerts.push(a);
  }
  if (alerts.length === 0) return { events, more };
  return { events: [...events, ...alerts].sort((a, b) => a.partition - b.partition || a.offset - b.offset || a.k - b.k), more };
}

/**
 * Where the hub reads what a subscriber missed: the latest positions of its patients (a fresh
 * subscription's start) and one page of events after a cursor, in position order per partition.
 * The append log below is the gateway's; the hub's unit tests give an in-memory one.
 */
export interface ReplaySource {
  /** The latest stored position of each watched patient's partition. */
  latest(patients: string[]): Promise<Cursor>;
  /** Up to `q.limit` events after `q.after` (observations, and alerts when `q.alerts`); `more` if cut. */
  page(q: Omit<ReplayQuery, 'topic' | 'windowMs'>): Promise<{ events: LiveEvent[]; more: boolean }>;
}

/** The append log of topic `topic` as a replay source. */
export const appendLogReplay = (pool: Pool, topic: string): ReplaySource => ({
  latest: (patients) => latestCursor(pool, topic, patients),
  page: (q) => replayPage(pool, { ...q, topic }),
});
