/**
 * Vitals tools: get_latest_vitals, get_vitals_history. The rules (read:vitals, a patient user only
 * their own id, the range limits, cursors, every read audited) are the vitals service's
 * (vitals/service.ts), shared with REST, the vitals resource, SSE and WebSocket.
 */
import { z } from 'zod';
import { NUMERIC_VITALS, instant, resourceId, VITAL_CODES, vitalDefinition, type VitalsObservation } from '@vitalis/schemas';
import { orderedRange, readHistory, readLatestWithNews2, withFreshness, type FreshObservation } from '../../vitals/service';
import { defineTool, UI } from './types';
import { news2Shape, observationShape } from './shapes';

const code = z.enum(VITAL_CODES as [string, ...string[]]);

const describeValue = (o: VitalsObservation) =>
  'value' in o && typeof o.value === 'number'
    ? `${vitalDefinition(o.code)?.display ?? o.code} ${o.value} ${o.unit}`
    : `ECG chunk (${'waveform' in o ? o.waveform.samples.length : 0} samples)`;

/** A latest value with its age, and "stale" past its code's threshold: an agent never reports an old value as current. */
const describeLatest = (o: FreshObservation) => `${describeValue(o)} (${o.age_s} s old${o.stale ? ', stale' : ''})`;

/** A latest observation with its freshness at the time of the read (the site's thresholds, config.alarms). */
const latestObservationShape = observationShape.extend({
  age_s: z.number().int().describe('Seconds between effective_at and the read'),
  stale: z.boolean().describe('Older than stale_after_s: not a current value'),
  stale_after_s: z.number().int().describe("The site's threshold for this code (VITALIS_ALARMS)"),
});

export const latestVitalsTool = defineTool({
  name: 'get_latest_vitals',
  title: 'Latest vitals of a patient',
  description:
    "The most recent observation per vital sign (heart rate, SpO2, blood pressure, respiratory rate, temperature...; ECG as the latest waveform chunk), each with its time (effective_at), its age in seconds (age_s) and whether it is stale (older than the site's threshold for its code: not a current value), and the NEWS2 score computed from them. Needs read:vitals. For live updates subscribe to the resource vitalis://patients/{patient_id}/vitals.",
  scopes: ['read:vitals'],
  input: z.object({ patient_id: resourceId, code: code.optional().describe('Only this LOINC (or MDC for ECG) code') }),
  output: z.object({
    patient_id: z.string(),
    count: z.number().int(),
    observations: z.array(latestObservationShape),
    news2: news2Shape.optional(),
    resource_uri: z.string(),
  }),
  annotations: {
    title: 'Latest vitals of a patient',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: UI.monitor,
  async run({ deps, caller }, a) {
    const { rows: stored, news2 } = await readLatestWithNews2(deps.pool, caller, a.patient_id, a.code, 'mcp');
    const rows = withFreshness(stored, deps.config.alarms);
    const numeric = rows.filter((o) => o.code in NUMERIC_VITALS);
    return {
      data: {
        patient_id: a.patient_id,
        count: rows.length,
        observations: rows,
        ...(news2 ? { news2: { ...news2 } } : {}),
        resource_uri: `vitalis://patients/${a.patient_id}/vitals`,
      },
      text:
        rows.length === 0
          ? `No vitals recorded for ${a.patient_id}.`
          : `${a.patient_id}: ${numeric.map(describeLatest).join(', ') || rows.map(describeLatest).join(', ')}${news2 ? `; NEWS2 ${news2.score} (${news2.risk})` : ''}.`,
    };
  },
});

const bucketShape = z.object({
  code: z.string(),
  bucket: z.string(),
  count: z.number().int(),
  avg: z.number(),
  min: z.number(),
  max: z.number(),
  last: z.number(),
  last_at: z.string(),
});

export const vitalsHistoryTool = defineTool({
  name: 'get_vitals_history',
  title: 'Vitals history of a patient',
  description:
    'Observations of one patient in [from, to): raw (at most 31 days; ECG as waveform chunks) or, with `bucket` (1s|1m|1h|1d), aggregated per code (count, avg, min, max, last; numeric vitals only). Ordered by time; paginate with next_cursor. Needs read:vitals.',
  scopes: ['read:vitals'],
  input: z.object({
    patient_id: resourceId,
    from: instant.describe('Inclusive start (ISO 8601)'),
    to: instant.describe('Exclusive end (ISO 8601)'),
    code: code.optional().describe('Only this LOINC (or MDC for ECG) code'),
    bucket: z.enum(['1s', '1m', '1h', '1d']).optional().describe('Aggregate into buckets of this size'),
    limit: z.number().int().min(1).max(1_000).default(200),
    cursor: z.string().max(1_024).optional().describe('next_cursor of the previous page'),
  }),
  output: z.object({
    patient_id: z.string(),
    from: z.string(),
    to: z.string(),
    bucket: z.enum(['1s', '1m', '1h', '1d']).optional(),
    count: z.number().int(),
    observations: z.array(observationShape).optional().describe('Raw rows (without bucket)'),
    buckets: z.array(bucketShape).optional().describe('Aggregates (with bucket)'),
    next_cursor: z.string().nullable(),
  }),
  annotations: {
    title: 'Vitals history of a patient',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: UI.monitor,
  async run({ deps, caller }, a) {
    const range = orderedRange(a.from, a.to);
    const { from, to } = range;
    const page = await readHistory(
      deps.pool,
      caller,
      { patient: a.patient_id, code: a.code, range, bucket: a.bucket, limit: a.limit, cursor: a.cursor },
      'mcp',
    );
    const base = { patient_id: a.patient_id, from, to };
    const next = page.next;
    if (page.kind === 'raw') {
      return {
        data: { ...base, count: page.rows.length, observations: page.rows, next_cursor: next },
        text: `${page.rows.length} observation(s) of ${a.patient_id} between ${from} and ${to}${next ? '; more with next_cursor' : ''}.`,
      };
    }
    const buckets = page.rows.map((r) => ({
      code: r.code,
      bucket: r.bucket,
      count: Number(r.count),
      avg: Number(r.avg),
      min: Number(r.min),
      max: Number(r.max),
      last: Number(r.last),
      last_at: r.last_at,
    }));
    return {
      data: { ...base, bucket: a.bucket, count: buckets.length, buckets, next_cursor: next },
      text: `${buckets.length} ${a.bucket} bucket(s) of ${a.patient_id} between ${from} and ${to}${next ? '; more with next_cursor' : ''}.`,
    };
  },
});
