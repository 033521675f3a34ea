/**
 * Vitals history queries (SQL only; the routes validate and shape). Raw rows come from the append
 * log; bucketed series come from the rollup tables where they can answer exactly (bucket and range
 * aligned to the rollup granularity, and the rollup is up to date there), else from the append log
 * with date_bin. Timestamps are rendered by PostgreSQL with microseconds, so cursors are exact.
 * On TimescaleDB the continuous aggregates of migration 0018 (same columns) stand in for the
 * rollup tables, up to their watermark; the source says which answered.
 */
import { seriesAmong, seriesOf, type Pool } from '@vitalis/db';
import { observationFromRow, STORED_INSTANT_SQL, STORED_SAMPLES_SQL, type ObservationRow } from '@vitalis/live';
import { VITAL_CODE, VITAL_CODES, type VitalsObservation } from '@vitalis/schemas';

export const BUCKETS = { '1s': 1_000, '1m': 60_000, '1h': 3_600_000, '1d': 86_400_000 } as const;
export type Bucket = keyof typeof BUCKETS;
export const AGGS = ['avg', 'min', 'max', 'count', 'last'] as const;
export type Agg = (typeof AGGS)[number];

const AT = STORED_INSTANT_SQL;
const SAMPLES = STORED_SAMPLES_SQL;

/** An append-log row as the history queries select it (the one rebuild: @vitalis/live `observationFromRow`). */
export type RawRow = ObservationRow;
export const rowToObservation = observationFromRow;

/** Where a raw page ended (the next page's cursor: the order is (effective_at, device_id, seq)). */
export type PageEnd = Pick<RawRow, 'at' | 'device_id' | 'seq'>;

export interface RawPage {
  rows: VitalsObservation[];
  last?: PageEnd | undefined;
  more: boolean;
}

export interface RawQuery {
  patient: string;
  code?: string;
  /** Several codes (OR; FHIR `code=a,b`); `code` wins when both are given. */
  codes?: readonly string[] | undefined;
  from: string;
  to: string;
  limit: number;
  after?: { t: string; d: string; s: number };
  /** Newest first (FHIR `_sort=-date`); `after` is then the last row of the previous, newer page. */
  descending?: boolean;
}

/**
 * One page (limit + 1 rows fetched to know whether there is a next page). Without a code filter the
 * page is merged from one index range scan per code (the series index: one series, by its key),
 * each limited to the page size, instead of sorting all of the patient's rows in the range.
 * The cursor's time is repeated as a plain `effective_at >=` (descending: `<=`) bound so the index
 * range starts there; newest first is the same scan backwards.
 */
export async function queryRaw(pool: Pool, q: RawQuery): Promise<RawPage> {
  const params: unknown[] = [q.patient, q.from, q.to, q.limit + 1];
  let where = 'effective_at >= $2 AND effective_at < $3';
  const desc = q.descending === true;
  if (q.after) {
    params.push(q.after.t, q.after.d, q.after.s);
    const [t, d, s] = [params.length - 2, params.length - 1, params.length];
    where += desc
      ? ` AND effective_at <= $${t}::timestamptz AND (effective_at, device_id, seq) < ($${t}::timestamptz, $${d}::text, $${s}::bigint)`
      : ` AND effective_at >= $${t}::timestamptz AND (effective_at, device_id, seq) > ($${t}::timestamptz, $${d}::text, $${s}::bigint)`;
  }
  const select = `SELECT device_id, seq, code, effective_at, value, unit, sample_period_ms, ${SAMPLES} FROM vitals_observations`;
  const order = desc ? 'ORDER BY effective_at DESC, device_id DESC, seq DESC LIMIT $4' : 'ORDER BY effective_at, device_id, seq LIMIT $4';
  let inner: string;
  const wanted = q.code ? [q.code] : (q.codes ?? VITAL_CODES);
  if (wanted.length === 1) {
    params.push(wanted[0]);
    inner = `${select} WHERE ${seriesOf('$1', `$${params.length}`)} AND ${where} ${order}`;
  } else {
    params.push(wanted);
    const codes = params.length;
    // one branch per code; the code literal comes from the parameter array, not from input
    inner = wanted
      .map((_, i) => `(${select} WHERE ${seriesOf('$1', `($${codes}::text[])[${i + 1}]`)} AND ${where} ${order})`)
      .join(' UNION ALL ');
  }
  const { rows } = await pool.query<RawRow>(
    `SELECT device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${SAMPLES} FROM (${inner}) page ${order}`,
    params,
  );
  const more = rows.length > q.limit;
  const page = more ? rows.slice(0, q.limit) : rows;
  return { rows: page.map((r) => rowToObservation(q.patient, r)), last: page[page.length - 1], more };
}

export interface BucketQuery {
  patient: string;
  code?: string;
  from: string;
  to: string;
  bucket: Bucket;
  limit: number;
  after?: { b: string; c: string };
}

export interface BucketRow {
  code: string;
  bucket: string;
  count: number;
  avg: number;
  min: number;
  max: number;
  last: number;
  last_at: string;
}

export type BucketSource = 'raw' | 'rollup_1m' | 'rollup_1h' | 'cagg_1m' | 'cagg_1h';
/** A pre-aggregated source: the projector's rollup tables, or TimescaleDB's continuous aggregates. */
export type AggregateSource = Exclude<BucketSource, 'raw'>;

const aligned = (iso: string, ms: number) => Date.parse(iso) % ms === 0;

/** The coarsest rollup that divides the bucket and to which the range is aligned. */
export function chooseSource(bucket: Bucket, from: string, to: string): 'raw' | 'rollup_1m' | 'rollup_1h' {
  const size = BUCKETS[bucket];
  if (size >= BUCKETS['1h'] && size % BUCKETS['1h'] === 0 && aligned(from, BUCKETS['1h']) && aligned(to, BUCKETS['1h'])) return 'rollup_1h';
  if (size >= BUCKETS['1m'] && aligned(from, BUCKETS['1m']) && aligned(to, BUCKETS['1m'])) return 'rollup_1m';
  return 'raw';
}

const CAGG_OF = { rollup_1m: 'cagg_1m', rollup_1h: 'cagg_1h' } as const;
const caggsByPool = new WeakMap<Pool, Promise<boolean>>();

/** Whether this database serves buckets from continuous aggregates (TimescaleDB, migration 0018); asked once per pool. */
function hasCaggs(pool: Pool): Promise<boolean> {
  let known = caggsByPool.get(pool);
  if (!known) {
    known = pool
      .query<{ caggs: boolean }>("SELECT to_regclass('vitals_cagg_1m') IS NOT NULL AS caggs")
      .then((r) => r.rows[0]?.caggs === true);
    known.catch(() => caggsByPool.delete(pool)); // ask again next time
    caggsByPool.set(pool, known);
  }
  return known;
}

const HORIZON = (at: string) => `to_char(date_bin($1::interval, ${at}, 'epoch') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Up to where (effective time) an aggregate is complete, floored to its granularity. A rollup: its
 * watermark (the projector keeps the safety lag). A continuous aggregate: its materialization
 * watermark; the hour's is capped by the minute's, which it is computed from.
 */
async function aggregateHorizon(pool: Pool, source: AggregateSource): Promise<string | undefined> {
  const granularity = source.endsWith('_1m') ? '1 minute' : '1 hour';
  const sql =
    source === 'rollup_1m' || source === 'rollup_1h'
      ? `SELECT ${HORIZON('complete_before')} AS horizon FROM vitals_rollup_state WHERE name = $2`
      : `SELECT ${HORIZON('h')} AS horizon
           FROM (SELECT least(vitalis_vitals_cagg_horizon('vitals_' || $2), vitalis_vitals_cagg_horizon('vitals_cagg_1m')) AS h) w
          WHERE isfinite(h)`;
  const { rows } = await pool.query<{ horizon: string | null }>(sql, [granularity, source]);
  return rows[0]?.horizon ?? undefined;
}

export interface BucketPage {
  rows: BucketRow[];
  more: boolean;
  source: BucketSource;
}

export async function queryBuckets(pool: Pool, q: BucketQuery): Promise<BucketPage> {
  const chosen = chooseSource(q.bucket, q.from, q.to);
  let source: BucketSource = chosen !== 'raw' && (await hasCaggs(pool)) ? CAGG_OF[chosen] : chosen;
  // Rollups answer [from, split); the append log answers [split, to) (data newer than the rollup horizon).
  let split = q.from;
  if (source !== 'raw') {
    const horizon = await aggregateHorizon(pool, source).catch(() => undefined);
    if (!horizon || Date.parse(horizon) <= Date.parse(q.from)) source = 'raw';
    else split = Date.parse(horizon) < Date.parse(q.to) ? horizon : q.to;
  }
  if (source !== 'raw' && split === q.to && BUCKETS[q.bucket] === ROLLUP_SIZE[source]) {
    return { ...(await queryRollupDirect(pool, source, q)), source };
  }
  const interval = `${BUCKETS[q.bucket] / 1000} seconds`;
  const params: unknown[] = [q.patient, q.from, q.to, interval, split, q.limit + 1];
  const codeFilter = q.code ? (params.push(q.code), ` AND code = $${params.length}`) : '';
  const series = q.code ? seriesOf('$1', `$${params.length}`) : seriesAmong('$1');
  let after = '';
  if (q.after) {
    params.push(q.after.b, q.after.c);
    after = `WHERE (b, code) > ($${params.length - 1}::timestamptz, $${params.length}::text)`;
  }
  const rollupPart =
    source === 'raw'
      ? ''
      : `SELECT code, date_bin($4::interval, bucket, 'epoch') AS b, sum(count)::bigint AS n, sum(sum) AS s, min(min) AS mn, max(max) AS mx,
                (array_agg(last_value ORDER BY last_at DESC))[1] AS lv, max(last_at) AS la
           FROM vitals_${source} WHERE patient_id = $1 AND bucket >= $2 AND bucket < $5${codeFilter}
          GROUP BY 1, 2
         UNION ALL `;
  const sql = `
    WITH parts AS (
      ${rollupPart}
      SELECT code, date_bin($4::interval, effective_at, 'epoch') AS b, count(*) AS n, sum(value) AS s, min(value) AS mn, max(value) AS mx,
             (array_agg(value ORDER BY effective_at DESC, seq DESC))[1] AS lv, max(effective_at) AS la
        FROM vitals_observations
       WHERE ${series} AND effective_at >= GREATEST($2::timestamptz, $5::timestamptz) AND effective_at < $3 AND value IS NOT NULL
       GROUP BY 1, 2
    ), merged AS (
      SELECT code, b, sum(n)::bigint AS n, sum(s) AS s, min(mn) AS mn, max(mx) AS mx,
             (array_agg(lv ORDER BY la DESC))[1] AS lv, max(la) AS la
        FROM parts GROUP BY code, b
    )
    SELECT code, to_char(b AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS bucket, n::int AS count, s / n AS avg, mn AS min, mx AS max,
           lv AS last, to_char(la AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_at
      FROM merged ${after}
     ORDER BY b, code LIMIT $6`;
  const { rows } = await pool.query<BucketRow>(sql, params);
  const more = rows.length > q.limit;
  return { rows: more ? rows.slice(0, q.limit) : rows, more, source };
}

const ROLLUP_SIZE = { rollup_1m: BUCKETS['1m'], rollup_1h: BUCKETS['1h'], cagg_1m: BUCKETS['1m'], cagg_1h: BUCKETS['1h'] } as const;

/**
 * The common dashboard case: buckets of exactly the rollup's size over a range the rollup already
 * covers. Each bucket is one rollup row, read in primary-key order: no regrouping, no raw tail.
 * Same answer as the general query (tested), a fraction of its cost.
 */
export async function queryRollupDirect(
  pool: Pool,
  source: AggregateSource,
  q: BucketQuery,
): Promise<{ rows: BucketRow[]; more: boolean }> {
  const params: unknown[] = [q.patient, q.from, q.to, q.limit + 1];
  const codeFilter = q.code ? (params.push(q.code), ` AND code = $${params.length}`) : '';
  let after = '';
  if (q.after) {
    params.push(q.after.b, q.after.c);
    after = ` AND (bucket, code) > ($${params.length - 1}::timestamptz, $${params.length}::text)`;
  }
  const { rows } = await pool.query<BucketRow>(
    `SELECT code, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS bucket, count, sum / count AS avg, min, max,
            last_value AS last, to_char(last_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS last_at
       FROM vitals_${source}
      WHERE patient_id = $1 AND bucket >= $2 AND bucket < $3${codeFilter}${after}
      ORDER BY bucket, code LIMIT $4`,
    params,
  );
  const more = rows.length > q.limit;
  return { rows: more ? rows.slice(0, q.limit) : rows, more };
}

/**
 * The blood-pressure readings (systolic and diastolic rows) of a patient at the instants of `at`
 * (ISO, as the raw rows render them), for pairing a page's readings into panels: one index range
 * scan per code over the span of those instants (the series index), filtered to the instants.
 */
export async function queryBloodPressureAt(pool: Pool, patient: string, at: readonly string[]): Promise<VitalsObservation[]> {
  if (at.length === 0) return [];
  const sorted = [...at].sort();
  const { rows } = await pool.query<RawRow>(
    `SELECT device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${SAMPLES} FROM vitals_observations
      WHERE ${seriesAmong('$1', '$2::text[]')} AND effective_at >= $3 AND effective_at <= $4 AND effective_at = ANY($5::timestamptz[])`,
    [patient, [VITAL_CODE.systolic, VITAL_CODE.diastolic], sorted[0], sorted[sorted.length - 1], sorted],
  );
  return rows.map((r) => rowToObservation(patient, r));
}

export async function queryLatest(pool: Pool, patient: string, codes: string[]): Promise<VitalsObservation[]> {
  const { rows } = await pool.query<RawRow>(
    `SELECT l.* FROM unnest($2::text[]) AS c(code)
     CROSS JOIN LATERAL (
       SELECT device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${SAMPLES}
         FROM vitals_observations
        WHERE ${seriesOf('$1', 'c.code')}
        ORDER BY effective_at DESC, device_id DESC, seq DESC LIMIT 1) l
     ORDER BY l.code`,
    [patient, codes],
  );
  return rows.map((r) => rowToObservation(patient, r));
}

/**
 * The stored row a FHIR Observation id names (`{device_id}.{seq}`, schemas/src/fhir.ts): a device
 * numbers its observations with a strictly increasing seq, so (device_id, seq) is one row; should a
 * device have broken that rule, the earliest row is the one (a stable answer). One index probe per
 * partition (the identity index leads with device_id, seq).
 */
export async function queryObservation(
  pool: Pool,
  deviceId: string,
  seq: number,
): Promise<{ patientId: string; observation: VitalsObservation } | null> {
  const { rows } = await pool.query<RawRow & { patient_id: string }>(
    `SELECT patient_id, device_id, seq, code, ${AT} AS at, value, unit, sample_period_ms, ${SAMPLES}
       FROM vitals_observations WHERE device_id = $1 AND seq = $2 ORDER BY effective_at LIMIT 1`,
    [deviceId, seq],
  );
  const r = rows[0];
  return r ? { patientId: r.patient_id, observation: rowToObservation(r.patient_id, r) } : null;
}

/** The patient a device last reported for (FHIR Device/{id}): the newest row by seq, one backward probe of the identity index per partition. */
export async function queryDevicePatient(pool: Pool, deviceId: string): Promise<string | null> {
  const { rows } = await pool.query<{ patient_id: string }>(
    'SELECT patient_id FROM vitals_observations WHERE device_id = $1 ORDER BY seq DESC, effective_at DESC LIMIT 1',
    [deviceId],
  );
  return rows[0]?.patient_id ?? null;
}
