/**
 * Vitals over REST:
 *  - POST /api/v1/vitals (write:vitals, publish-route.ts): a batch of observations and/or device frames (ADR 0015: one
 *    record per frame), validated as a whole and produced
 *    to vitals.observations.v1 (key = patient id) with acks=all (libs/kafka producer.ts). 202 only
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
import { must } from '@vitalis/runtime';
import { FHIR_JSON, fhirReply, nextPageUrl, problemOf } from '@vitalis/http';
import { TOPICS } from '@vitalis/kafka';
import {
  bundleSchema,
  clockLimits as clockLimitsOf,
  ECG_LEAD_II,
  fhirObservationSchema,
  instant,
  observationSearchsetJson,
  resourceId,
  VITAL_CODES,
} from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { callerOf } from '../access/http';
import type { RouteApp } from '../route-app';
import { lazyVitalsProducer, publishVitalsRoute } from './publish-route';
import { AGGS } from './history';
import { aggregatesOf, orderedRange, readHistory, readLatest } from './service';

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

/** The latest observation per code; shared by the current route and its deprecated predecessor. */
const latestOf = (pool: GatewayDeps['pool'], req: FastifyRequest, patientId: string, code: string | undefined) =>
  readLatest(pool, callerOf(req), patientId, code, 'rest');
const latestCode = z
  .enum(VITAL_CODES as [string, ...string[]])
  .optional()
  .describe('Only this LOINC (or MDC) code; every code if omitted');

/** GET /api/v1/vitals: raw history (cursor-paginated, or a FHIR searchset) or bucketed aggregates of one patient. */
function historyRoute(app: RouteApp, { config, pool }: GatewayDeps): void {
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
}

/** GET /api/v1/vitals/latest: the latest observation per code, with `count`. */
function latestRoute(app: RouteApp, { config, pool }: GatewayDeps): void {
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
      const rows = await latestOf(pool, req, req.query.patient, req.query.code);
      reply.header('cache-control', 'no-store');
      if (wantsFhir(req)) return fhirReply(reply).send(observationSearchsetJson(rows, { self: `${config.baseUrl}${req.url}` }));
      return reply.send({ patient_id: req.query.patient, count: rows.length, data: rows });
    },
  );
}

/** GET /api/v1/patients/{id}/vitals/latest: the deprecated path-style predecessor of latestRoute. */
function latestByPathRoute(app: RouteApp, { config, pool }: GatewayDeps): void {
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
      const rows = await latestOf(pool, req, req.params.id, req.query.code);
      reply.header('cache-control', 'no-store');
      if (wantsFhir(req)) return fhirReply(reply).send(observationSearchsetJson(rows, { self: `${config.baseUrl}${req.url}` }));
      return reply.send({ patient_id: req.params.id, data: rows });
    },
  );
}

/** The vitals plugin: the publish route, then the history and the two latest reads (this order is the document's). */
export function vitalsRoutes(deps: GatewayDeps, options: VitalsRouteOptions = {}): FastifyPluginAsyncZod {
  const { config, kafka } = deps;
  const topic = options.topic ?? TOPICS.vitalsObservations;
  const clockLimits = clockLimitsOf({ maxSkewSeconds: config.VITALS_MAX_CLOCK_SKEW_SECONDS, retentionDays: config.VITALS_RETENTION_DAYS });
  const producer = lazyVitalsProducer(kafka);
  return async (app) => {
    app.addHook('onClose', producer.close);
    publishVitalsRoute(app, deps, { topic, clockLimits, getProducer: producer.get });
    historyRoute(app, deps);
    latestRoute(app, deps);
    latestByPathRoute(app, deps);
  };
}
