/**
 * Vitals reads, streams and writes, independent of the transport. REST (routes.ts), the MCP tools,
 * resources and subscriptions (mcp/), SSE and WebSocket (live/) call these with a `Caller`, like the
 * patients, appointments and triage services. This module is the one owner of:
 *  - who may read or publish a patient's vitals (`vitalsDenial`): the access policy's Observation
 *    cells (access/policy.ts: the scope, the role, a patient user's own, the sandbox's synthetic ids),
 *    and a patient user only their own patient id. Refusals are audited;
 *  - where a patient's vitals come from (`vitalsStoreFor`): `sbx-` ids from the synthetic generator
 *    (synthetic.ts), every other id from the append log, in the same shapes;
 *  - the history rules: an ordered range, the longest range per query shape, aggregates, and cursors
 *    bound to the query (and channel) that minted them;
 *  - the audit of every read, stream, replay and accepted write, through the one audit helper
 *    (access/caller `audit`): an audit row that cannot be written is a 503, everywhere, streams
 *    included (a stream is refused before anything is streamed);
 *  - where a live subscription starts (`startVitalsStream`): the resume id checked against the log and
 *    bounded to LIVE_REPLAY_WINDOW_SECONDS (resume.ts), and each replay audited.
 * Audit rows carry ids and counts, never values.
 */
import { must } from '@vitalis/runtime';
import { freshness, news2FromLatestVitals, type AlarmSettings } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import { badRequest, notFound, validationFailed } from '@vitalis/http';
import { decodeCursor as decodeLiveId, type Cursor as LivePosition } from '@vitalis/live';
import { VITAL_CODES, type Scope, type VitalsObservation } from '@vitalis/schemas';
import type { Principal } from '../access/principal';
import type { GatewayDeps } from '../deps';
import type { ReplaySummary } from './hub';
import { planResume, UnissuedPosition, type ReplayTruncated } from './resume';
import { insufficientScope } from '../access/refusal';
import { audit, type Caller } from '../access/caller';
import { decodeHistoryCursor, encodeHistoryCursor, queryFingerprint, type HistoryCursor } from './history-cursor';
import { dataSourceOf } from '../access/sandbox';
import { access, type RefusalReason } from '../access/policy';
import { planSyntheticResume } from './synthetic-live';
import { syntheticBuckets, syntheticLatest, syntheticRaw } from './synthetic';
import {
  AGGS,
  BUCKETS,
  queryBuckets,
  queryDevicePatient,
  queryLatest,
  queryObservation,
  queryRaw,
  type Agg,
  type Bucket,
  type BucketPage,
  type BucketQuery,
  type BucketRow,
  type BucketSource,
  type RawPage,
  type RawQuery,
} from './history';

/** Where a read came from (audit detail `via`). */
export type VitalsChannel = 'rest' | 'fhir' | 'mcp' | 'sse' | 'websocket';
export type VitalsScope = Extract<Scope, 'read:vitals' | 'write:vitals'>;

// ---------------------------------------------------------------------------------------------
// Access

export interface VitalsDenial {
  /** The audit trail's reason. */
  reason: RefusalReason;
  /** The patients refused (every one asked for when the scope or the role is missing). */
  patients: string[];
  /** The problem's detail. */
  detail: string;
}

/**
 * The access policy's Observation cells (access/policy.ts), for vitals: `read:vitals` reads,
 * `write:vitals` publishes. Undefined when every patient in `patientIds` is allowed.
 */
export function vitalsDenial(p: Principal, patientIds: readonly string[], scope: VitalsScope = 'read:vitals'): VitalsDenial | undefined {
  const decision = access(p, 'Observation', scope === 'write:vitals' ? 'write' : 'read', patientIds);
  return decision.allowed ? undefined : { reason: decision.reason, patients: decision.patients, detail: decision.detail };
}

/** The rule as a guard (403), for places that have nothing to audit (a session restored for its own subject). */
export function assertMayAccessVitals(p: Principal, patientIds: readonly string[], scope: VitalsScope = 'read:vitals'): void {
  const denied = vitalsDenial(p, patientIds, scope);
  if (denied) throw insufficientScope([scope], { detail: denied.detail });
}

/** The rule with its audit: one failure row per refused patient, then 403. */
export async function requireVitalsAccess(
  pool: Pool,
  caller: Caller,
  patientIds: readonly string[],
  e: { action: string; via: VitalsChannel; scope?: VitalsScope },
): Promise<void> {
  const scope = e.scope ?? 'read:vitals';
  const denied = vitalsDenial(caller.principal, patientIds, scope);
  if (!denied) return;
  await Promise.all(
    denied.patients.map((patientId) =>
      auditVitals(pool, caller, { action: e.action, outcome: 'failure', scope, patientId, detail: { reason: denied.reason, via: e.via } }),
    ),
  );
  throw insufficientScope([scope], { detail: denied.detail });
}

// ---------------------------------------------------------------------------------------------
// Audit

export interface VitalsAuditEntry {
  action: string;
  outcome?: 'success' | 'failure';
  scope?: VitalsScope;
  /** The patient read (resource Patient/<id>); absent for a write batch (resource Observation). */
  patientId?: string;
  detail: Record<string, unknown>;
}

/**
 * The one audit helper for vitals, with the one failure policy of access/caller `audit`: a row
 * that cannot be written throws a 503 problem, so nothing is served or published unrecorded.
 */
export function auditVitals(pool: Pool, caller: Caller, e: VitalsAuditEntry): Promise<void> {
  return audit(pool, caller, {
    action: e.action,
    outcome: e.outcome ?? 'success',
    scope: e.scope ?? 'read:vitals',
    resourceType: e.patientId !== undefined ? 'Patient' : 'Observation',
    resourceId: e.patientId,
    detail: e.detail,
  });
}

// ---------------------------------------------------------------------------------------------
// History rules

export const DAY_MS = 86_400_000;
/** Longest range per query shape (bounded work per request). */
export const MAX_RANGE_MS = { raw: 31 * DAY_MS, '1s': DAY_MS, unaligned: 31 * DAY_MS, rollup: 366 * DAY_MS } as const;

/**
 * Where the fields of a history query sit in the caller's input, for the problem's `errors[].path`:
 * '' for MCP tool arguments (`from`), 'querystring.' for REST (`querystring.from`).
 */
export type FieldPrefix = '' | 'querystring.';

export interface HistoryRange {
  /** Normalised to UTC ISO 8601 (the audit trail, the cursor fingerprint and the page echo it). */
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
}

/** `from` must be before `to`. */
export function orderedRange(from: string, to: string, at: FieldPrefix = ''): HistoryRange {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  if (!(fromMs < toMs)) throw validationFailed('from must be before to', [{ path: `${at}from`, message: 'must be before to' }]);
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), fromMs, toMs };
}

/** The aggregates of a bucketed query (default avg,min,max,count); `agg` without `bucket` is refused. */
export function aggregatesOf(bucket: Bucket | undefined, agg: string | undefined, at: FieldPrefix = ''): Agg[] | undefined {
  if (!bucket) {
    if (agg !== undefined) throw validationFailed('agg needs bucket', [{ path: `${at}agg`, message: 'only valid with bucket' }]);
    return undefined;
  }
  if (agg === undefined) return ['avg', 'min', 'max', 'count'];
  const items = [
    ...new Set(
      agg
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = items.filter((a) => !(AGGS as readonly string[]).includes(a));
  if (items.length === 0 || unknown.length > 0) {
    throw validationFailed(`agg must be a comma-separated list of ${AGGS.join(', ')}`, [
      { path: `${at}agg`, message: `unknown: ${unknown.join(', ') || '(empty)'}` },
    ]);
  }
  return items as Agg[];
}

/** Raw 31 days; buckets 31 days, 1s 1 day, 1h/1d over a minute-aligned range (the rollups) 366 days. */
export function rangeLimitMs(bucket: Bucket | undefined, fromMs: number, toMs: number): number {
  if (!bucket) return MAX_RANGE_MS.raw;
  if (bucket === '1s') return MAX_RANGE_MS['1s'];
  const rollupAligned = fromMs % BUCKETS['1m'] === 0 && toMs % BUCKETS['1m'] === 0;
  return rollupAligned && (bucket === '1h' || bucket === '1d') ? MAX_RANGE_MS.rollup : MAX_RANGE_MS.unaligned;
}

export function assertRangeWithinLimit(range: HistoryRange, bucket: Bucket | undefined, at: FieldPrefix = ''): void {
  const limit = rangeLimitMs(bucket, range.fromMs, range.toMs);
  if (range.toMs - range.fromMs > limit) {
    throw validationFailed(`The range is too long for this query: at most ${limit / DAY_MS} days`, [
      { path: `${at}to`, message: `range must be at most ${limit / DAY_MS} days` },
    ]);
  }
}

/** The cursor of a page, checked against the query it is presented with (and the kind of page). */
export function pageCursor(
  text: string | undefined,
  fingerprint: string,
  kind: HistoryCursor['k'],
  at: FieldPrefix = '',
): HistoryCursor | undefined {
  if (text === undefined) return undefined;
  const cursor = decodeHistoryCursor(text);
  if (!cursor || cursor.q !== fingerprint || cursor.k !== kind) {
    throw badRequest('The cursor is invalid or belongs to a different query.', {
      errors: [{ path: `${at}cursor`, message: 'invalid cursor' }],
    });
  }
  return cursor;
}

// ---------------------------------------------------------------------------------------------
// Where the data comes from

/** A patient's vitals, in the append log's shapes (vitals/history.ts). */
export interface VitalsStore {
  raw(q: RawQuery): Promise<RawPage>;
  buckets(q: BucketQuery): Promise<BucketPage>;
  latest(patientId: string, codes: string[]): Promise<VitalsObservation[]>;
}

const syntheticStore: VitalsStore = {
  raw: async (q) => syntheticRaw(q),
  buckets: async (q) => syntheticBuckets(q),
  latest: async (patientId, codes) => syntheticLatest(patientId, codes),
};

/** The one choice: synthetic sandbox patients (`sbx-`) from the generator, every other id from the append log. */
export function vitalsStoreFor(pool: Pool, patientId: string): VitalsStore {
  if (dataSourceOf([patientId]) === 'synthetic') return syntheticStore;
  return {
    raw: (q) => queryRaw(pool, q),
    buckets: (q) => queryBuckets(pool, q),
    latest: (id, codes) => queryLatest(pool, id, codes),
  };
}

// ---------------------------------------------------------------------------------------------
// Reads

export interface HistoryQuery {
  patient: string;
  code?: string | undefined;
  range: HistoryRange;
  bucket?: Bucket | undefined;
  /** With `bucket`: the aggregates asked for (part of the cursor's query). */
  aggs?: Agg[] | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Raw rows newest first (FHIR `_sort=-date`); part of the cursor's query. */
  descending?: boolean | undefined;
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
  assertRangeWithinLimit(q.range, q.bucket, at);
  await requireVitalsAccess(pool, caller, [q.patient], { action: 'vitals.read', via });
  const { from, to } = q.range;
  // the order joins the query only when newest first, so every ascending cursor keeps its fingerprint
  const fingerprint = queryFingerprint([q.patient, q.code, from, to, q.bucket, q.aggs?.join(','), via, ...(q.descending ? ['desc'] : [])]);
  const cursor = pageCursor(q.cursor, fingerprint, q.bucket ? 'agg' : 'raw', at);
  const detail = { code: q.code ?? null, from, to, via };
  const store = vitalsStoreFor(pool, q.patient);

  if (!q.bucket) {
    const after = cursor?.k === 'raw' ? { t: cursor.t, d: cursor.d, s: cursor.s } : undefined;
    const page = await store.raw({
      patient: q.patient,
      code: q.code,
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

// ---------------------------------------------------------------------------------------------
// Live streams

/** What the stream functions need: the pool, the topic the live streams serve, the replay window. */
export interface LiveStreamDeps {
  pool: Pool;
  topic: string;
  replayWindowSeconds: number;
}

export const liveStreamDeps = (deps: GatewayDeps): LiveStreamDeps => ({
  pool: deps.pool,
  topic: deps.config.LIVE_TOPIC,
  replayWindowSeconds: deps.config.LIVE_REPLAY_WINDOW_SECONDS,
});

export interface StreamRequest {
  patients: string[];
  codes?: string[] | undefined;
  /** The client's resume id (Last-Event-ID, `last_event_id`, a WebSocket `after`). */
  resumeId?: string | undefined;
}

/** What the hub subscription starts from (the hub's SubscribeOptions `after`, `notice`, `onReplayed`). */
export interface StreamStart {
  /** Resume after this position; absent = from now. */
  after?: LivePosition;
  /** The client's id was older than the replay window: told first, with the gaps to read through REST. */
  notice?: ReplayTruncated;
  /** The replay's audit (one `vitals.replay` row per patient), written before the subscription goes live. */
  onReplayed?: (summary: ReplaySummary) => Promise<void>;
}

/** A resume id as the position it names; 400 when it is not an id this stream could have issued. */
export function parseResumeId(id: string | undefined): LivePosition | undefined {
  if (id === undefined || id === '') return undefined;
  const cursor = decodeLiveId(id);
  if (!cursor) throw badRequest('Last-Event-ID is not an id this stream issued (expected e.g. "3-1042" or "3-1042.1_7-88").');
  return cursor;
}

/**
 * Where a resumed stream starts (throws UnissuedPosition), and the audit of its replay. The plan is
 * the append log's (resume.ts) or, for synthetic sandbox patients, the generator's
 * (synthetic-live.ts): same window, same notice.
 */
async function resumeFrom(
  d: LiveStreamDeps,
  caller: Caller,
  patients: string[],
  resumeId: string,
  position: LivePosition,
  via: VitalsChannel,
): Promise<StreamStart> {
  const question = { patients, after: position, lastEventId: resumeId, windowSeconds: d.replayWindowSeconds };
  const plan =
    dataSourceOf(patients) === 'synthetic' ? planSyntheticResume(question) : await planResume(d.pool, { topic: d.topic, ...question });
  const gapped = new Set(plan.truncated?.gaps.map((g) => g.patient_id));
  const onReplayed = async (summary: ReplaySummary) => {
    await Promise.all(
      [...new Set(patients)].map((patientId) =>
        auditVitals(d.pool, caller, {
          action: 'vitals.replay',
          patientId,
          detail: {
            via,
            from_id: resumeId,
            events: summary.byPatient.get(patientId) ?? 0,
            truncated: gapped.has(patientId),
            window_seconds: d.replayWindowSeconds,
            ...(plan.truncated ? { resume_id: plan.truncated.resume_id } : {}),
          },
        }),
      ),
    );
  };
  return { after: plan.after, ...(plan.truncated ? { notice: plan.truncated } : {}), onReplayed };
}

/**
 * Everything before a live subscription opens, for SSE, WebSocket and MCP alike: the access rule
 * (audited refusal, 403), one source per subscription (synthetic `sbx-` patients and real ones
 * mixed: 400), the resume id (400 when malformed or never issued; bounded to the replay window),
 * then one `action` row per patient (default `vitals.stream`). Any of these failing
 * refuses the subscription before anything is streamed (an audit row that cannot be written: 503).
 * A resumed subscription's replay is audited too (`onReplayed`, for the hub).
 */
export async function startVitalsStream(
  d: LiveStreamDeps,
  caller: Caller,
  req: StreamRequest,
  opts: { via: VitalsChannel; action?: string; detail?: Record<string, unknown> },
): Promise<StreamStart> {
  const action = opts.action ?? 'vitals.stream';
  await requireVitalsAccess(d.pool, caller, req.patients, { action, via: opts.via });
  dataSourceOf(req.patients);
  const position = parseResumeId(req.resumeId);
  let start: StreamStart = {};
  if (position) {
    try {
      start = await resumeFrom(d, caller, req.patients, must(req.resumeId, 'the resume id the position was read from'), position, opts.via);
    } catch (err) {
      if (err instanceof UnissuedPosition) throw badRequest(err.message);
      throw err;
    }
  }
  await Promise.all(
    [...new Set(req.patients)].map((patientId) =>
      auditVitals(d.pool, caller, {
        action,
        patientId,
        detail: { via: opts.via, resume: position !== undefined, codes: req.codes ?? null, ...opts.detail },
      }),
    ),
  );
  return start;
}

/**
 * A subscription reopened on another instance (MCP session takeover) after the last event the
 * previous one sent (a server-held id): the access rule, and the same window and replay audit as a
 * client's resume. An id the log cannot place starts from now.
 */
export async function restoreVitalsStream(
  d: LiveStreamDeps,
  caller: Caller,
  patients: string[],
  resumeId: string | undefined,
  via: VitalsChannel,
): Promise<StreamStart> {
  assertMayAccessVitals(caller.principal, patients);
  const position = resumeId === undefined ? undefined : decodeLiveId(resumeId);
  if (!position) return {};
  try {
    return await resumeFrom(d, caller, patients, must(resumeId, 'the resume id the position was read from'), position, via);
  } catch (err) {
    if (err instanceof UnissuedPosition) return {};
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * A batch about to be published (POST /api/v1/vitals): the access rule for every patient in it
 * (write:vitals; a patient user only their own id), then one `vitals.write` row for the request
 * with ids and counts (observations, patients, devices), never values. Call it before publishing:
 * a batch that cannot be audited is refused (503) and nothing is published.
 */
export async function recordVitalsWrite(
  pool: Pool,
  caller: Caller,
  observations: readonly VitalsObservation[],
  via: VitalsChannel,
): Promise<void> {
  const patients = [...new Set(observations.map((o) => o.patient_id))].sort();
  await requireVitalsAccess(pool, caller, patients, { action: 'vitals.write', via, scope: 'write:vitals' });
  const devices = [...new Set(observations.map((o) => o.device_id))].sort();
  await auditVitals(pool, caller, {
    action: 'vitals.write',
    scope: 'write:vitals',
    detail: { via, observations: observations.length, patients, devices },
  });
}

/** The publish of an audited batch failed (the client gets a 503 and retries the same batch). */
export function recordVitalsWriteFailed(
  pool: Pool,
  caller: Caller,
  observations: number,
  reason: string,
  via: VitalsChannel,
): Promise<void> {
  return auditVitals(pool, caller, {
    action: 'vitals.write',
    outcome: 'failure',
    scope: 'write:vitals',
    detail: { via, observations, reason },
  });
}
