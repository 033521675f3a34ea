/**
 * Vitals over REST:
 *  - POST /api/v1/vitals (write:vitals): a batch of observations and/or device frames (ADR 0015: one
 *    record per frame), validated as a whole and produced
 *    to vitals.observations.v1 (key = patient id) with acks=all by an idempotent producer. 202 only
 *    after Kafka acknowledged. Policy: one invalid item refuses the WHOLE batch (422, every invalid
 *    index with its reasons; nothing produced), so a device never has to reason about partial success.
 *  - GET /api/v1/vitals (read:vitals): raw history (cursor-paginated) or bucketed aggregates;
 *    FHIR R4 searchset Bundle with `Accept: application/fhir+json` (raw only).
 *  - GET /api/v1/vitals/latest?patient= (read:vitals): the latest observation per code.
 *  - GET /api/v1/patients/{id}/vitals/latest: the same, older shape; deprecated (sunset 2027-12-31).
 * The rules (who may read or publish which patient's vitals, ranges, cursors, the audit of every
 * read and accepted write) are the vitals service's (service.ts); this file is the HTTP shape.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Producer } from 'kafkajs';
import { must } from '@vitalis/runtime';
import { FHIR_JSON, fhirReply, HttpProblem, nextPageUrl, problemOf } from '@vitalis/http';
import { createVitalsProducer, sendTraced, TOPICS } from '@vitalis/kafka';
import { TRACING_OFF } from '@vitalis/tracing';
import { requestTraceContext } from '../tracing';
import {
  bundleSchema,
  ECG_LEAD_II,
  encodeFrame,
  encodeObservation,
  fhirObservationSchema,
  frameObservations,
  MAX_FRAMES_PER_BATCH,
  instant,
  MAX_OBSERVATIONS_PER_BATCH,
  resourceId,
  observationSearchsetJson,
  validateObservation,
  clockLimits as clockLimitsOf,
  frameClockProblems,
  observationClockProblems,
  NUMERIC_VITALS,
  VITAL_CODE,
  VITAL_CODES,
  vitalsFrameSchema,
  vitalsObservationSchema,
  type VitalsFrame,
  type VitalsObservation,
} from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { callerOf, problems } from '../access/http';
import { AGGS } from './history';
import { aggregatesOf, orderedRange, readHistory, readLatest, recordVitalsWrite, recordVitalsWriteFailed } from './service';

export interface VitalsRouteOptions {
  topic?: string;
}

/** Spec 9.4: the scheduled sunset of deprecated v1 endpoints. */
const V1_SUNSET = '2027-12-31T23:59:59Z';
/** When the path-style latest endpoint was deprecated in favour of GET /api/v1/vitals/latest. */
const LATEST_BY_PATH_DEPRECATED_AT = '2026-11-23T00:00:00Z';

const isoDateTime = instant;

/** A stored observation as the history and latest reads answer it: the wire format (VitalsObservation) read back. */
const observationOut = z
  .object({
    patient_id: z.string(),
    device_id: z.string(),
    seq: z.number(),
    effective_at: z.string(),
    code: z.enum(VITAL_CODES as [string, ...string[]]),
    unit: z.string(),
    value: z.number().optional().describe('Numeric vitals'),
    waveform: z
      .object({ origin: z.number(), period_ms: z.number(), samples: z.array(z.number()) })
      .optional()
      .describe(`ECG lead II (${ECG_LEAD_II.code})`),
  })
  .meta({
    id: 'StoredVitalsObservation',
    description: 'One stored vital-sign measurement or ECG chunk (the wire format, VitalsObservation, as read back)',
  });

const rawPage = z.object({
  patient_id: z.string(),
  from: z.string(),
  to: z.string(),
  count: z.number().int(),
  data: z.array(observationOut),
  next: z.string().nullable().describe('URL of the next page, null on the last page'),
});

const bucketPoint = z.object({
  code: z.string(),
  bucket: z.string().describe('Bucket start (UTC)'),
  count: z.number().int().optional(),
  avg: z.number().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  last: z.number().optional(),
  last_at: z.string().optional(),
});

const bucketPage = z.object({
  patient_id: z.string(),
  from: z.string(),
  to: z.string(),
  bucket: z.enum(['1s', '1m', '1h', '1d']),
  agg: z.array(z.enum(AGGS)),
  source: z
    .enum(['raw', 'rollup_1m', 'rollup_1h', 'cagg_1m', 'cagg_1h'])
    .describe("Where the aggregates came from: the append log, the projector's rollups, or TimescaleDB's continuous aggregates"),
  count: z.number().int(),
  data: z.array(bucketPoint),
  next: z.string().nullable(),
});

const fhirBundle = bundleSchema(fhirObservationSchema).describe(
  'FHIR R4 searchset Bundle of vital-sign Observations (Accept: application/fhir+json)',
);

const historyQuery = z.object({
  patient: resourceId.describe('Patient id'),
  code: z
    .enum(VITAL_CODES as [string, ...string[]])
    .optional()
    .describe('LOINC (or MDC for ECG) code; all codes if omitted'),
  from: isoDateTime.describe('Inclusive start'),
  to: isoDateTime.describe('Exclusive end'),
  bucket: z.enum(['1s', '1m', '1h', '1d']).optional().describe('Aggregate into buckets of this size (numeric vitals only)'),
  agg: z.string().max(64).optional().describe('Comma-separated: avg,min,max,count,last (default avg,min,max,count); only with bucket'),
  limit: z.coerce.number().int().min(1).max(5_000).default(500).describe('Page size, at most 5000'),
  cursor: z.string().max(1_024).optional().describe('Opaque cursor from a previous page'),
});

const wantsFhir = (req: FastifyRequest) => (req.headers.accept ?? '').includes(FHIR_JSON);

export function vitalsRoutes(deps: GatewayDeps, options: VitalsRouteOptions = {}): FastifyPluginAsyncZod {
  const { config, pool, kafka } = deps;
  const topic = options.topic ?? TOPICS.vitalsObservations;
  const clockLimits = clockLimitsOf({ maxSkewSeconds: config.VITALS_MAX_CLOCK_SKEW_SECONDS, retentionDays: config.VITALS_RETENTION_DAYS });

  // One idempotent producer per gateway, connected on first use (the gateway starts and serves
  // reads while Kafka is down; a failed connect is retried by the next request).
  let producer: Promise<Producer> | undefined;
  const getProducer = () =>
    (producer ??= (async () => {
      // Bounded retries: a request must answer; a failed send is a 503 the device retries with the
      // same batch, which the append log dedups.
      const p = createVitalsProducer(kafka, { retries: 'bounded' });
      await p.connect();
      return p;
    })().catch((err) => {
      producer = undefined;
      throw err;
    }));

  return async (app) => {
    app.addHook('onClose', async () => {
      const p = await producer?.catch(() => undefined);
      await p?.disconnect();
    });

    app.post(
      '/api/v1/vitals',
      {
        config: {
          auth: { scopes: ['write:vitals'] },
          // The document shows each item's schema; the handler checks the items itself (all-or-nothing, 422 naming every invalid index).
          // At least one observation or frame: published as anyOf (observations given, or frames given).
          openapiBody: z
            .union([
              z.object({
                observations: z
                  .array(vitalsObservationSchema)
                  .min(1)
                  .max(MAX_OBSERVATIONS_PER_BATCH)
                  .describe('Vitals observations, one record each'),
                frames: z
                  .array(vitalsFrameSchema)
                  .max(MAX_FRAMES_PER_BATCH)
                  .optional()
                  .describe('Device frames (one device at one tick), one record each'),
              }),
              z.object({
                observations: z
                  .array(vitalsObservationSchema)
                  .max(MAX_OBSERVATIONS_PER_BATCH)
                  .optional()
                  .describe('Vitals observations, one record each'),
                frames: z
                  .array(vitalsFrameSchema)
                  .min(1)
                  .max(MAX_FRAMES_PER_BATCH)
                  .describe('Device frames (one device at one tick), one record each'),
              }),
            ])
            .meta({
              example: {
                observations: [
                  {
                    patient_id: 'pat-0001',
                    device_id: 'mon-0001',
                    seq: 1042,
                    effective_at: '2026-11-25T08:00:00Z',
                    code: VITAL_CODE.heartRate,
                    value: 72,
                    unit: NUMERIC_VITALS[VITAL_CODE.heartRate].unit,
                  },
                  {
                    patient_id: 'pat-0001',
                    device_id: 'mon-0001',
                    seq: 1043,
                    effective_at: '2026-11-25T08:00:00Z',
                    code: VITAL_CODE.spo2,
                    value: 97,
                    unit: NUMERIC_VITALS[VITAL_CODE.spo2].unit,
                  },
                ],
              },
            }),
        },
        schema: {
          tags: ['vitals'],
          summary: 'Publish a batch of vitals observations and device frames',
          description: `Up to ${MAX_OBSERVATIONS_PER_BATCH} observations (see vitals-observation.schema.json) and up to ${MAX_FRAMES_PER_BATCH} frames (one device's observations at one tick, envelope vitals.frame.v1), at least one of either. All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index (errors[].index for an observation, errors[].frame for a frame, the path inside it); nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once. Bounded device clocks: an effective_at (an observation's, a frame's tick, a frame observation's own) more than VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) ahead of the gateway's clock, or more than VITALS_RETENTION_DAYS (default 30 days) behind it, is a 422 naming the field (errors[].path effective_at or observations.<i>.effective_at); a late observation inside the window is stored. What is accepted is stored and read back as sent: a numeric value exactly (double precision), period_ms exactly (a float4 that does not hold it exactly is refused), an ECG chunk's potentials as origin + sample quantised to 0.1 µV (see samples).`,
          body: z
            .object({
              observations: z
                .array(z.unknown())
                .max(MAX_OBSERVATIONS_PER_BATCH)
                .optional()
                .describe('Vitals observations, one record each'),
              frames: z.array(z.unknown()).max(MAX_FRAMES_PER_BATCH).optional().describe('Device frames, one record each'),
            })
            .refine((b) => (b.observations?.length ?? 0) + (b.frames?.length ?? 0) > 0, 'must carry at least one observation or frame'),
          response: {
            202: z.object({
              accepted: z.number().int().describe('Observations accepted (those of the frames included)'),
              topic: z.string(),
            }),
            ...problems(422),
          },
        },
      },
      async (req, reply) => {
        const errors: (({ index: number } | { frame: number }) & { path: string; message: string })[] = [];
        // Bounded device clocks (@vitalis/schemas clock.ts): judged at this instant, which every
        // record carries as its Kafka timestamp, so the ingest judges it alike (never 202, then dead-lettered).
        const clock = { now: Date.now(), limits: clockLimits };
        const singles: VitalsObservation[] = [];
        const observations = req.body.observations ?? [];
        const frameBodies = req.body.frames ?? [];
        observations.forEach((item, index) => {
          const result = validateObservation(item);
          const problems = result.ok ? observationClockProblems(result.observation, clock) : result.problems;
          if (problems.length === 0 && result.ok) singles.push(result.observation);
          else for (const p of problems) errors.push({ index, path: p.path, message: p.message });
        });
        const frames: VitalsFrame[] = [];
        frameBodies.forEach((item, frame) => {
          const result = vitalsFrameSchema.safeParse(item);
          const late = result.success ? frameClockProblems(result.data, clock) : [];
          for (const p of late) errors.push({ frame, path: p.path, message: p.message });
          if (result.success && late.length === 0) frames.push(result.data);
          else if (!result.success)
            for (const issue of result.error.issues)
              errors.push({ frame, path: issue.path.map(String).join('.') || '(root)', message: issue.message });
        });
        if (errors.length > 0) {
          const bad = new Set(errors.map((e) => ('index' in e ? `o${e.index}` : `f${e.frame}`))).size;
          throw problemOf(
            'invalid-observations',
            `${bad} of ${observations.length + frameBodies.length} observations and frames are invalid; the batch was refused and nothing was published.`,
            { errors: errors.slice(0, 1_000) },
          );
        }
        const valid = [...singles, ...frames.flatMap(frameObservations)];
        // access (write:vitals, a patient user only their own id) and the request's audit row, before anything is published
        const caller = callerOf(req);
        await recordVitalsWrite(pool, caller, valid, 'rest');
        let p: Producer;
        try {
          p = await getProducer();
          // One record per single observation (the v1 format) and one per frame; a PRODUCER span under
          // the request's, its traceparent in every record's headers (tracing on).
          await sendTraced(
            p,
            {
              topic,
              acks: -1,
              messages: [...singles.map(encodeObservation), ...frames.map(encodeFrame)].map((m) => ({
                ...m,
                timestamp: String(clock.now),
              })),
            },
            deps.tracing ?? TRACING_OFF,
            requestTraceContext(req),
          );
        } catch (err) {
          if (err instanceof HttpProblem) throw err;
          req.log.error({ err }, 'publishing vitals to Kafka failed');
          // the row written above said the batch was handed over; this one says it was not published (the answer is a 503 either way)
          await recordVitalsWriteFailed(pool, caller, valid.length, 'kafka unavailable', 'rest').catch(() => undefined);
          throw problemOf(
            'unavailable',
            'Vitals could not be published (Kafka unavailable); nothing was accepted. Retry the same batch.',
            { retry_after: 5 },
            { 'retry-after': '5' },
          );
        }
        return reply.code(202).send({ accepted: valid.length, topic });
      },
    );

    app.get(
      '/api/v1/vitals',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['vitals'],
          summary: 'Vitals history',
          description:
            'Raw observations of one patient in [from, to) (at most 31 days; ECG as waveform chunks), ordered by time, cursor-paginated; or with `bucket` (1s|1m|1h|1d) and `agg` (avg,min,max,count,last) aggregated numeric series (from the 1-minute/1-hour rollups when the range is aligned to them; at most 31 days, 1 day for 1s, 366 days for 1h/1d on a minute-aligned range). `Accept: application/fhir+json` returns a FHIR R4 searchset Bundle of Observations (raw only).',
          querystring: historyQuery,
          response: { 200: z.union([rawPage, bucketPage, fhirBundle]) },
        },
      },
      async (req, reply) => {
        const q = req.query;
        const range = orderedRange(q.from, q.to, 'querystring.');
        const { from, to } = range;
        const aggs = aggregatesOf(q.bucket, q.agg, 'querystring.');
        const fhir = wantsFhir(req);
        if (fhir && q.bucket) throw problemOf('not-acceptable', 'FHIR output is available for raw observations only (omit bucket).');

        const page = await readHistory(
          pool,
          callerOf(req),
          { patient: q.patient, code: q.code, range, bucket: q.bucket, aggs, limit: q.limit, cursor: q.cursor },
          'rest',
          'querystring.',
        );
        const next = page.next ? nextPageUrl(`${config.baseUrl}/api/v1/vitals`, q, page.next, 'cursor') : null;
        reply.header('cache-control', 'no-store');
        if (next) reply.header('link', `<${next}>; rel="next"`);

        if (page.kind === 'raw') {
          if (fhir) {
            const self = `${config.baseUrl}${req.url}`;
            return fhirReply(reply).send(observationSearchsetJson(page.rows, { self, ...(next ? { next } : {}) }));
          }
          return reply.send({ patient_id: q.patient, from, to, count: page.rows.length, data: page.rows, next });
        }
        // an aggregated page: the query named its bucket, so aggregatesOf gave its aggregates
        const bucket = must(q.bucket, 'the bucket of an aggregated page');
        const agg = must(aggs, 'the aggregates of an aggregated page');
        const data = page.rows.map((r) => {
          const point: Record<string, unknown> = { code: r.code, bucket: r.bucket };
          for (const a of agg) point[a] = r[a];
          if (agg.includes('last')) point.last_at = r.last_at;
          return point as z.infer<typeof bucketPoint>;
        });
        return reply.send({
          patient_id: q.patient,
          from,
          to,
          bucket,
          agg,
          source: page.source,
          count: data.length,
          data,
          next,
        });
      },
    );

    /** The latest observation per code; shared by the current route and its deprecated predecessor. */
    const latestOf = (req: FastifyRequest, patientId: string, code: string | undefined) =>
      readLatest(pool, callerOf(req), patientId, code, 'rest');
    const latestCode = z
      .enum(VITAL_CODES as [string, ...string[]])
      .optional()
      .describe('Only this LOINC (or MDC) code; every code if omitted');

    app.get(
      '/api/v1/vitals/latest',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['vitals'],
          summary: 'Latest vitals of a patient',
          description:
            'The most recent observation per code (ECG: the latest waveform chunk), with `count`, in the same shape as the history pages. FHIR searchset Bundle with `Accept: application/fhir+json`. Successor of the deprecated `GET /api/v1/patients/{id}/vitals/latest`.',
          querystring: z.object({ patient: resourceId.describe('Patient id'), code: latestCode }),
          response: {
            200: z.union([z.object({ patient_id: z.string(), count: z.number().int(), data: z.array(observationOut) }), fhirBundle]),
          },
        },
      },
      async (req, reply) => {
        const rows = await latestOf(req, req.query.patient, req.query.code);
        reply.header('cache-control', 'no-store');
        if (wantsFhir(req)) return fhirReply(reply).send(observationSearchsetJson(rows, { self: `${config.baseUrl}${req.url}` }));
        return reply.send({ patient_id: req.query.patient, count: rows.length, data: rows });
      },
    );

    app.get(
      '/api/v1/patients/:id/vitals/latest',
      {
        config: {
          auth: { scopes: ['read:vitals'] },
          deprecation: {
            since: LATEST_BY_PATH_DEPRECATED_AT,
            sunset: V1_SUNSET,
            replacement: '/api/v1/vitals/latest',
            migration: 'Call GET /api/v1/vitals/latest?patient={id} (same scope, same `code` filter); the body adds `count`.',
          },
        },
        schema: {
          tags: ['vitals'],
          summary: 'Latest vitals of a patient (deprecated: use GET /api/v1/vitals/latest)',
          description:
            'The most recent observation per code (ECG: the latest waveform chunk). FHIR searchset Bundle with `Accept: application/fhir+json`.',
          params: z.object({ id: resourceId }),
          querystring: z.object({ code: latestCode }),
          response: { 200: z.union([z.object({ patient_id: z.string(), data: z.array(observationOut) }), fhirBundle]) },
        },
      },
      async (req, reply) => {
        const rows = await latestOf(req, req.params.id, req.query.code);
        reply.header('cache-control', 'no-store');
        if (wantsFhir(req)) return fhirReply(reply).send(observationSearchsetJson(rows, { self: `${config.baseUrl}${req.url}` }));
        return reply.send({ patient_id: req.params.id, data: rows });
      },
    );
  };
}
