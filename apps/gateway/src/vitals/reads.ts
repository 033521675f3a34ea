/**
 * Vitals reads: history pages (raw or bucketed), one observation, devices, and the latest readings
 * (with freshness and NEWS2), each access-checked and audited.
 */
import { freshness, news2FromLatestVitals, type AlarmSettings } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import { notFound } from '@vitalis/http';
import { VITAL_CODES, type VitalsObservation } from '@vitalis/schemas';
import { type Caller } from '../access/caller';
import { encodeHistoryCursor, queryFingerprint } from './history-cursor';
import { queryDevicePatient, queryObservation, type Agg, type Bucket, type BucketRow, type BucketSource } from './history';
import { type VitalsChannel, requireVitalsAccess, auditVitals } from './access';
import { type FieldPrefix, type HistoryRange, assertRangeWithinLimit, pageCursor, vitalsStoreFor } from './history-rules';

// ---------------------------------------------------------------------------------------------
// Reads

export interface HistoryQuery {
  patient: string;
  code?: string | undefined;
  /** Several codes (OR: FHIR `code=a,b`), raw rows only; part of the cursor's query. */
  codes?: readonly string[] | undefined;
  range: HistoryRange;
  bucket?: Bucket | undefined;
  /** With `bucket`: the aggregates asked for (part of the cursor's query). */
  aggs?: Agg[] | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Raw rows newest first (FHIR `_sort=-date`); part of the cursor's query. */
  descending?: boolean | undefined;
  /**
   * Raw rows over a range of any length (FHIR search: a patient's whole history): the work is
   * bounded per page (a keyset index range scan per code, `limit` rows) instead of per range.
   */
  anyRange?: boolean | undefined;
}

export type HistoryPage =
  | { kind: 'raw'; rows: VitalsObservation[]; next: string | null }
  | { kind: 'buckets'; rows: BucketRow[]; source: BucketSource; next: string | null };

/**
 * One page of a patient's history (raw or bucketed), after the range rules (callers check those
 * first, in their own order of errors), the access rule and the cursor check; audited as
 * `vitals.read`. `next` is an opaque cursor for the same query on the same channel, or null.
 */
export async function readHistory(
  pool: Pool,
  caller: Caller,
  q: HistoryQuery,
  via: VitalsChannel,
  at: FieldPrefix = '',
): Promise<HistoryPage> {
  if (!(q.anyRange === true && q.bucket === undefined)) assertRangeWithinLimit(q.range, q.bucket, at);
  await requireVitalsAccess(pool, caller, [q.patient], { action: 'vitals.read', via });
  const { from, to } = q.range;
  const code = q.code ?? q.codes?.join(',');
  // the order joins the query only when newest first, so every ascending cursor keeps its fingerprint
  const fingerprint = queryFingerprint([q.patient, code, from, to, q.bucket, q.aggs?.join(','), via, ...(q.descending ? ['desc'] : [])]);
  const cursor = pageCursor(q.cursor, fingerprint, q.bucket ? 'agg' : 'raw', at);
  const detail = { code: code ?? null, from, to, via };
  const store = vitalsStoreFor(pool, q.patient);

  if (!q.bucket) {
    const after = cursor?.k === 'raw' ? { t: cursor.t, d: cursor.d, s: cursor.s } : undefined;
    const page = await store.raw({
      patient: q.patient,
      code: q.code,
      codes: q.codes,
      from,
      to,
      limit: q.limit,
      after,
      ...(q.descending ? { descending: true } : {}),
    });
    await auditVitals(pool, caller, { action: 'vitals.read', patientId: q.patient, detail: { ...detail, rows: page.rows.length } });
    const next =
      page.more && page.last
        ? encodeHistoryCursor({ k: 'raw', t: page.last.at, d: page.last.device_id, s: page.last.seq, q: fingerprint })
        : null;
    return { kind: 'raw', rows: page.rows, next };
  }
  const after = cursor?.k === 'agg' ? { b: cursor.b, c: cursor.c } : undefined;
  const page = await store.buckets({ patient: q.patient, code: q.code, from, to, bucket: q.bucket, limit: q.limit, after });
  await auditVitals(pool, caller, {
    action: 'vitals.read',
    patientId: q.patient,
    detail: { ...detail, bucket: q.bucket, rows: page.rows.length },
  });
  const last = page.rows[page.rows.length - 1];
  const next = page.more && last ? encodeHistoryCursor({ k: 'agg', b: last.bucket, c: last.code, q: fingerprint }) : null;
  return { kind: 'buckets', rows: page.rows, source: page.source, next };
}

/**
 * One stored observation by its FHIR id `{device_id}.{seq}` (FHIR Observation read): the row's
 * patient goes through the same access rule as a history read (403 audited), then the read is
 * audited as `vitals.read`. Synthetic sandbox data is generated, never stored: a sandbox principal
 * may read no stored row (the sandbox rule), so it gets the rule's 403 like any real patient's.
 */
export async function readObservation(pool: Pool, caller: Caller, id: string, via: VitalsChannel): Promise<VitalsObservation> {
  const [, patientId, seq] = /^(.+)\.(\d{1,18})$/.exec(id) ?? [];
  const found = patientId !== undefined ? await queryObservation(pool, patientId, Number(seq)) : null;
  if (!found) throw notFound(`Observation ${id} does not exist.`);
  await requireVitalsAccess(pool, caller, [found.patientId], { action: 'vitals.read', via });
  await auditVitals(pool, caller, { action: 'vitals.read', patientId: found.patientId, detail: { observation: id, rows: 1, via } });
  return found.observation;
}

/**
 * The devices of a patient (FHIR Device search): those of its latest observation per code, i.e.
 * the devices reporting for it now (one index probe per code, however long its history); the
 * vitals access rule and audit (`vitals.read_latest`, detail `devices`). Synthetic patients too.
 */
export async function readDevices(pool: Pool, caller: Caller, patientId: string, via: VitalsChannel): Promise<string[]> {
  await requireVitalsAccess(pool, caller, [patientId], { action: 'vitals.read_latest', via });
  const rows = await vitalsStoreFor(pool, patientId).latest(patientId, VITAL_CODES);
  const devices = [...new Set(rows.map((o) => o.device_id))].sort();
  await auditVitals(pool, caller, { action: 'vitals.read_latest', patientId, detail: { devices, via } });
  return devices;
}

/** One device (FHIR Device/{id}) and the patient it last reported for, under that patient's vitals access rule (audited). */
export async function readDevice(
  pool: Pool,
  caller: Caller,
  deviceId: string,
  via: VitalsChannel,
): Promise<{ deviceId: string; patientId: string }> {
  const patientId = await queryDevicePatient(pool, deviceId);
  if (patientId === null) throw notFound(`Device ${deviceId} does not exist.`);
  await requireVitalsAccess(pool, caller, [patientId], { action: 'vitals.read', via });
  await auditVitals(pool, caller, { action: 'vitals.read', patientId, detail: { device: deviceId, via } });
  return { deviceId, patientId };
}

/** The latest observation per code (every code, or only `code`); audited as `vitals.read_latest`. */
export async function readLatest(
  pool: Pool,
  caller: Caller,
  patientId: string,
  code: string | undefined,
  via: VitalsChannel,
): Promise<VitalsObservation[]> {
  await requireVitalsAccess(pool, caller, [patientId], { action: 'vitals.read_latest', via });
  const rows = await vitalsStoreFor(pool, patientId).latest(patientId, code ? [code] : VITAL_CODES);
  await auditVitals(pool, caller, { action: 'vitals.read_latest', patientId, detail: { rows: rows.length, via } });
  return rows;
}

/** A latest observation with its age at the time of the read and whether it is stale on the site's threshold for its code. */
export type FreshObservation = VitalsObservation & { age_s: number; stale: boolean; stale_after_s: number };

/**
 * Each observation with `age_s`, `stale` and `stale_after_s` at `now`, on the site's thresholds
 * (config.alarms, VITALIS_ALARMS): for readers that would otherwise take an old value for a current
 * one (an agent reading get_latest_vitals). `effective_at` stays the value's time.
 */
export function withFreshness(rows: readonly VitalsObservation[], alarms: AlarmSettings, now: number = Date.now()): FreshObservation[] {
  return rows.map((o) => ({ ...o, ...freshness(alarms, o.code, o.effective_at, now) }));
}

/** The latest observations and, when every code was asked for, NEWS2 from the numeric ones. */
export async function readLatestWithNews2(pool: Pool, caller: Caller, patientId: string, code: string | undefined, via: VitalsChannel) {
  const rows = await readLatest(pool, caller, patientId, code, via);
  const numeric: Record<string, number> = {};
  for (const o of rows) if ('value' in o && typeof o.value === 'number') numeric[o.code] = o.value;
  return { rows, news2: code ? undefined : news2FromLatestVitals(numeric) };
}
