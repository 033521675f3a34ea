/**
 * Vitals tools: get_latest_vitals, get_vitals_history. The same rules as the REST routes
 * (vitals/routes.ts): read:vitals, a patient user only their own id, every read audited, the same
 * range limits, the same queries (vitals/history.ts).
 */
import { z } from 'zod';
import { news2FromLatestVitals } from '@vitalis/clinical';
import { HttpProblem, badRequest, validationFailed } from '@vitalis/http';
import { NUMERIC_VITALS, resourceId, VITAL_CODES, vitalDefinition, type VitalsObservation } from '@vitalis/schemas';
import type { Pool } from '@vitalis/db';
import { audit, type Caller } from '../../records/access';
import { decodeCursor, encodeCursor, queryFingerprint } from '../../vitals/cursor';
import { BUCKETS, queryBuckets, queryLatest, queryRaw, type Bucket } from '../../vitals/history';
import { MAX_RANGE_MS } from '../../vitals/routes';
import { defineTool, UI } from './types';
import { news2Shape, observationShape } from './shapes';

const DAY_MS = 86_400_000;
const code = z.enum(VITAL_CODES as [string, ...string[]]);

/** A patient user may only read their own vitals (audited either way). */
export async function assertVitalsAccess(pool: Pool, caller: Caller, patientId: string, action: string): Promise<void> {
  const own = caller.principal.patientId;
  if (own !== undefined && own !== patientId) {
    await audit(pool, caller, { action, outcome: 'failure', scope: 'read:vitals', resourceType: 'Patient', resourceId: patientId, detail: { reason: 'patient mismatch' } });
    throw new HttpProblem(403, 'forbidden', 'Forbidden', 'A patient user may only access their own vitals.');
  }
}

/** Latest observation per code, and NEWS2 from the numeric ones; shared with the vitals resource. */
export async function latestVitals(pool: Pool, caller: Caller, patientId: string, only?: string) {
  await assertVitalsAccess(pool, caller, patientId, 'vitals.read_latest');
  const rows = await queryLatest(pool, patientId, only ? [only] : VITAL_CODES);
  await audit(pool, caller, { action: 'vitals.read_latest', scope: 'read:vitals', resourceType: 'Patient', resourceId: patientId, detail: { rows: rows.length, via: 'mcp' } });
  const numeric: Record<string, number> = {};
  for (const o of rows) if ('value' in o && typeof o.value === 'number') numeric[o.code] = o.value;
  return { rows, news2: only ? undefined : news2FromLatestVitals(numeric) };
}

const describeValue = (o: VitalsObservation) =>
  'value' in o && typeof o.value === 'number' ? `${vitalDefinition(o.code)?.display ?? o.code} ${o.value} ${o.unit}` : `ECG chunk (${'waveform' in o ? o.waveform.samples.length : 0} samples)`;

export const latestVitalsTool = defineTool({
  name: 'get_latest_vitals',
  title: 'Latest vitals of a patient',
  description:
    'The most recent observation per vital sign (heart rate, SpO2, blood pressure, respiratory rate, temperature...; ECG as the latest waveform chunk) and the NEWS2 score computed from them. Needs read:vitals. For live updates subscribe to the resource vitalis://patients/{patient_id}/vitals.',
  scopes: ['read:vitals'],
  input: z.object({ patient_id: resourceId, code: code.optional().describe('Only this LOINC (or MDC for ECG) code') }),
  output: z.object({ patient_id: z.string(), count: z.number().int(), observations: z.array(observationShape), news2: news2Shape.optional(), resource_uri: z.string() }),
  annotations: { title: 'Latest vitals of a patient', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: UI.monitor,
  async run({ deps, caller }, a) {
    const { rows, news2 } = await latestVitals(deps.pool, caller, a.patient_id, a.code);
    const numeric = rows.filter((o) => o.code in NUMERIC_VITALS);
    return {
      data: { patient_id: a.patient_id, count: rows.length, observations: rows, ...(news2 ? { news2: { ...news2 } } : {}), resource_uri: `vitalis://patients/${a.patient_id}/vitals` },
      text: rows.length === 0 ? `No vitals recorded for ${a.patient_id}.` : `${a.patient_id}: ${numeric.map(describeValue).join(', ') || rows.map(describeValue).join(', ')}${news2 ? `; NEWS2 ${news2.score} (${news2.risk})` : ''}.`,
    };
  },
});

/** The REST route's range rule: raw 31 days; buckets 31 days, 1s 1 day, 1h/1d on minute-aligned ranges 366 days. */
function rangeLimitMs(bucket: Bucket | undefined, fromMs: number, toMs: number): number {
  if (!bucket) return MAX_RANGE_MS.raw;
  if (bucket === '1s') return MAX_RANGE_MS['1s'];
  const aligned = fromMs % BUCKETS['1m'] === 0 && toMs % BUCKETS['1m'] === 0;
  return aligned && (bucket === '1h' || bucket === '1d') ? MAX_RANGE_MS.rollup : MAX_RANGE_MS.unaligned;
}

const bucketShape = z.object({
  code: z.string(), bucket: z.string(), count: z.number().int(), avg: z.number(), min: z.number(), max: z.number(), last: z.number(), last_at: z.string(),
});

export const vitalsHistoryTool = defineTool({
  name: 'get_vitals_history',
  title: 'Vitals history of a patient',
  description:
    'Observations of one patient in [from, to): raw (at most 31 days; ECG as waveform chunks) or, with `bucket` (1s|1m|1h|1d), aggregated per code (count, avg, min, max, last; numeric vitals only). Ordered by time; paginate with next_cursor. Needs read:vitals.',
  scopes: ['read:vitals'],
  input: z.object({
    patient_id: resourceId,
    from: z.iso.datetime({ offset: true }).describe('Inclusive start (ISO 8601)'),
    to: z.iso.datetime({ offset: true }).describe('Exclusive end (ISO 8601)'),
    code: code.optional().describe('Only this LOINC (or MDC for ECG) code'),
    bucket: z.enum(['1s', '1m', '1h', '1d']).optional().describe('Aggregate into buckets of this size'),
    limit: z.number().int().min(1).max(1_000).default(200),
    cursor: z.string().max(1_024).optional().describe('next_cursor of the previous page'),
  }),
  output: z.object({
    patient_id: z.string(), from: z.string(), to: z.string(), bucket: z.enum(['1s', '1m', '1h', '1d']).optional(), count: z.number().int(),
    observations: z.array(observationShape).optional().describe('Raw rows (without bucket)'),
    buckets: z.array(bucketShape).optional().describe('Aggregates (with bucket)'),
    next_cursor: z.string().nullable(),
  }),
  annotations: { title: 'Vitals history of a patient', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: UI.monitor,
  async run({ deps, caller }, a) {
    const fromMs = Date.parse(a.from);
    const toMs = Date.parse(a.to);
    if (!(fromMs < toMs)) throw validationFailed('from must be before to', [{ path: 'from', message: 'must be before to' }]);
    const limit = rangeLimitMs(a.bucket, fromMs, toMs);
    if (toMs - fromMs > limit) throw validationFailed(`The range is too long for this query: at most ${limit / DAY_MS} days`, [{ path: 'to', message: `range must be at most ${limit / DAY_MS} days` }]);
    const from = new Date(fromMs).toISOString();
    const to = new Date(toMs).toISOString();
    await assertVitalsAccess(deps.pool, caller, a.patient_id, 'vitals.read');
    const q = queryFingerprint([a.patient_id, a.code, from, to, a.bucket, 'mcp']);
    const cursor = a.cursor !== undefined ? decodeCursor(a.cursor) : undefined;
    if (a.cursor !== undefined && (!cursor || cursor.q !== q || cursor.k !== (a.bucket ? 'agg' : 'raw'))) throw badRequest('The cursor is invalid or belongs to a different query.');
    const base = { patient_id: a.patient_id, from, to };

    if (!a.bucket) {
      const page = await queryRaw(deps.pool, { patient: a.patient_id, code: a.code, from, to, limit: a.limit, after: cursor?.k === 'raw' ? { t: cursor.t, d: cursor.d, s: cursor.s } : undefined });
      await audit(deps.pool, caller, { action: 'vitals.read', scope: 'read:vitals', resourceType: 'Patient', resourceId: a.patient_id, detail: { code: a.code ?? null, from, to, rows: page.rows.length, via: 'mcp' } });
      const next = page.more && page.last ? encodeCursor({ k: 'raw', t: page.last.at, d: page.last.device_id, s: page.last.seq, q }) : null;
      return {
        data: { ...base, count: page.rows.length, observations: page.rows, next_cursor: next },
        text: `${page.rows.length} observation(s) of ${a.patient_id} between ${from} and ${to}${next ? '; more with next_cursor' : ''}.`,
      };
    }
    const page = await queryBuckets(deps.pool, { patient: a.patient_id, code: a.code, from, to, bucket: a.bucket, limit: a.limit, after: cursor?.k === 'agg' ? { b: cursor.b, c: cursor.c } : undefined });
    await audit(deps.pool, caller, { action: 'vitals.read', scope: 'read:vitals', resourceType: 'Patient', resourceId: a.patient_id, detail: { code: a.code ?? null, from, to, bucket: a.bucket, rows: page.rows.length, via: 'mcp' } });
    const last = page.rows[page.rows.length - 1];
    const next = page.more && last ? encodeCursor({ k: 'agg', b: last.bucket, c: last.code, q }) : null;
    const buckets = page.rows.map((r) => ({ code: r.code, bucket: r.bucket, count: Number(r.count), avg: Number(r.avg), min: Number(r.min), max: Number(r.max), last: Number(r.last), last_at: r.last_at }));
    return {
      data: { ...base, bucket: a.bucket, count: buckets.length, buckets, next_cursor: next },
      text: `${buckets.length} ${a.bucket} bucket(s) of ${a.patient_id} between ${from} and ${to}${next ? '; more with next_cursor' : ''}.`,
    };
  },
});
