/**
 * Vitals over REST:
 *  - POST /api/v1/vitals (write:vitals): a batch of observations, validated as a whole and produced
 *    to vitals.observations.v1 (key = patient id) with acks=all by an idempotent producer. 202 only
 *    after Kafka acknowledged. Policy: one invalid item refuses the WHOLE batch (422, every invalid
 *    index with its reasons; nothing produced), so a device never has to reason about partial success.
 *  - GET /api/v1/vitals (read:vitals): raw history (cursor-paginated) or bucketed aggregates;
 *    FHIR R4 searchset Bundle with `Accept: application/fhir+json` (raw only).
 *  - GET /api/v1/vitals/latest?patient= (read:vitals): the latest observation per code.
 *  - GET /api/v1/patients/{id}/vitals/latest: the same, older shape; deprecated (sunset 2027-12-31).
 * Patient users (principal.patientId) may only touch their own patient id (403 otherwise).
 * Every read is recorded in the audit trail.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Partitioners, type Producer } from 'kafkajs';
import { HttpProblem, badRequest, serviceUnavailable, validationFailed } from '@vitalis/http';
import { TOPICS } from '@vitalis/kafka';
import {
  encodeObservation,
  MAX_OBSERVATIONS_PER_BATCH,
  resourceId,
  toSearchsetBundle,
  validateObservation,
  VITAL_CODES,
  type VitalsObservation,
} from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { recordVitalsAudit } from './audit';
import { decodeCursor, encodeCursor, queryFingerprint } from './cursor';
import { AGGS, BUCKETS, queryBuckets, queryLatest, queryRaw, type Agg, type Bucket } from './history';

export interface VitalsRouteOptions {
  topic?: string;
}

const FHIR_JSON = 'application/fhir+json';
/** Spec 9.4: the scheduled sunset of deprecated v1 endpoints. */
const V1_SUNSET = '2027-12-31T23:59:59Z';
/** When the path-style latest endpoint was deprecated in favour of GET /api/v1/vitals/latest. */
const LATEST_BY_PATH_DEPRECATED_AT = '2026-11-23T00:00:00Z';
const DAY_MS = 86_400_000;
/** Longest range per query shape (bounded work per request). */
export const MAX_RANGE_MS = { raw: 31 * DAY_MS, '1s': DAY_MS, unaligned: 31 * DAY_MS, rollup: 366 * DAY_MS } as const;

const isoDateTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or an offset' });

const observationOut = z.looseObject({
  patient_id: z.string(),
  device_id: z.string(),
  seq: z.number(),
  effective_at: z.string(),
  code: z.string(),
  unit: z.string(),
  value: z.number().optional(),
  waveform: z.object({ origin: z.number(), period_ms: z.number(), samples: z.array(z.number()) }).optional(),
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
  source: z.enum(['raw', 'rollup_1m', 'rollup_1h']).describe('Where the aggregates came from'),
  count: z.number().int(),
  data: z.array(bucketPoint),
  next: z.string().nullable(),
});

const fhirBundle = z.looseObject({ resourceType: z.literal('Bundle'), type: z.literal('searchset') });

const historyQuery = z.object({
  patient: resourceId.describe('Patient id'),
  code: z.enum(VITAL_CODES as [string, ...string[]]).optional().describe('LOINC (or MDC for ECG) code; all codes if omitted'),
  from: isoDateTime.describe('Inclusive start'),
  to: isoDateTime.describe('Exclusive end'),
  bucket: z.enum(['1s', '1m', '1h', '1d']).optional().describe('Aggregate into buckets of this size (numeric vitals only)'),
  agg: z.string().max(64).optional().describe('Comma-separated: avg,min,max,count,last (default avg,min,max,count); only with bucket'),
  limit: z.coerce.number().int().min(1).max(5_000).default(500).describe('Page size, at most 5000'),
  cursor: z.string().max(1_024).optional().describe('Opaque cursor from a previous page'),
});

function parseAgg(raw: string | undefined): Agg[] {
  if (raw === undefined) return ['avg', 'min', 'max', 'count'];
  const items = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  const unknown = items.filter((a) => !(AGGS as readonly string[]).includes(a));
  if (items.length === 0 || unknown.length > 0) {
    throw validationFailed(`agg must be a comma-separated list of ${AGGS.join(', ')}`, [{ path: 'querystring.agg', message: `unknown: ${unknown.join(', ') || '(empty)'}` }]);
  }
  return items as Agg[];
}

const forbidden = (detail: string) => new HttpProblem(403, 'forbidden', 'Forbidden', detail);

function assertPatientAccess(req: FastifyRequest, patientId: string): void {
  const own = req.principal?.patientId;
  if (own !== undefined && own !== patientId) throw forbidden('A patient user may only access their own vitals.');
}

const wantsFhir = (req: FastifyRequest) => (req.headers.accept ?? '').includes(FHIR_JSON);

export function vitalsRoutes(deps: GatewayDeps, options: VitalsRouteOptions = {}): FastifyPluginAsyncZod {
  const { config, pool, kafka, logger } = deps;
  const topic = options.topic ?? TOPICS.vitalsObservations;

  // One idempotent producer per gateway, connected on first use (the gateway starts and serves
  // reads while Kafka is down; a failed connect is retried by the next request).
  let producer: Promise<Producer> | undefined;
  const getProducer = () =>
    (producer ??= (async () => {
      const p = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner, // same patient -> partition mapping as every producer
        // Bounded retries (kafkajs warns this weakens exactly-once): a request must answer, and a
        // failed send is a 503 the device retries with the same batch, which the append log dedups.
        retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
      });
      await p.connect();
      return p;
    })().catch((err) => {
      producer = undefined;
      throw err;
    }));

  const audit = (req: FastifyRequest, action: string, patientId: string, outcome: 'success' | 'failure', detail: Record<string, unknown>) =>
    recordVitalsAudit(pool, req, { action, patientId, outcome, detail }).catch((err) => {
      logger.error({ err, reqId: req.id }, 'audit write failed');
      throw serviceUnavailable('The read could not be recorded in the audit trail; try again.');
    });

  return async (app) => {
    app.addHook('onClose', async () => {
      const p = await producer?.catch(() => undefined);
      await p?.disconnect();
    });

    app.post(
      '/api/v1/vitals',
      {
        config: { auth: { scopes: ['write:vitals'] } },
        schema: {
          tags: ['vitals'],
          summary: 'Publish a batch of vitals observations',
          description: `Up to ${MAX_OBSERVATIONS_PER_BATCH} observations (see vitals-observation.schema.json). All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index; nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once.`,
          body: z.object({
            observations: z.array(z.unknown()).min(1).max(MAX_OBSERVATIONS_PER_BATCH).describe('Vitals observations'),
          }),
          response: {
            202: z.object({ accepted: z.number().int(), topic: z.string() }),
          },
        },
      },
      async (req, reply) => {
        const errors: { index: number; path: string; message: string }[] = [];
        const valid: VitalsObservation[] = [];
        req.body.observations.forEach((item, index) => {
          const result = validateObservation(item);
          if (result.ok) valid.push(result.observation);
          else for (const p of result.problems) errors.push({ index, path: p.path, message: p.message });
        });
        if (errors.length > 0) {
          const indexes = new Set(errors.map((e) => e.index)).size;
          throw new HttpProblem(
            422,
            'invalid-observations',
            'Invalid Observations',
            `${indexes} of ${req.body.observations.length} observations are invalid; the batch was refused and nothing was published.`,
            { errors: errors.slice(0, 1_000) },
          );
        }
        for (const o of valid) assertPatientAccess(req, o.patient_id);
        let p: Producer;
        try {
          p = await getProducer();
          await p.send({ topic, acks: -1, messages: valid.map(encodeObservation) });
        } catch (err) {
          if (err instanceof HttpProblem) throw err;
          req.log.error({ err }, 'publishing vitals to Kafka failed');
          const problem = serviceUnavailable('Vitals could not be published (Kafka unavailable); nothing was accepted. Retry the same batch.');
          throw new HttpProblem(problem.status, problem.kind, problem.title, problem.detail, { retry_after: 5 }, { 'retry-after': '5' });
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
        const fromMs = Date.parse(q.from);
        const toMs = Date.parse(q.to);
        if (!(fromMs < toMs)) throw validationFailed('from must be before to', [{ path: 'querystring.from', message: 'must be before to' }]);
        const from = new Date(fromMs).toISOString();
        const to = new Date(toMs).toISOString();
        const agg = q.bucket ? parseAgg(q.agg) : undefined;
        if (!q.bucket && q.agg !== undefined) throw validationFailed('agg needs bucket', [{ path: 'querystring.agg', message: 'only valid with bucket' }]);

        const fhir = wantsFhir(req);
        if (fhir && q.bucket) throw new HttpProblem(406, 'not-acceptable', 'Not Acceptable', 'FHIR output is available for raw observations only (omit bucket).');

        const span = toMs - fromMs;
        // 1h/1d buckets over a range aligned to the rollups may span a year; everything else a month (1s: a day)
        const rollupAligned = fromMs % BUCKETS['1m'] === 0 && toMs % BUCKETS['1m'] === 0;
        const rangeLimit = !q.bucket
          ? MAX_RANGE_MS.raw
          : q.bucket === '1s'
            ? MAX_RANGE_MS['1s']
            : rollupAligned && (q.bucket === '1h' || q.bucket === '1d')
              ? MAX_RANGE_MS.rollup
              : MAX_RANGE_MS.unaligned;
        if (span > rangeLimit) {
          throw validationFailed(`The range is too long for this query: at most ${rangeLimit / DAY_MS} days`, [
            { path: 'querystring.to', message: `range must be at most ${rangeLimit / DAY_MS} days` },
          ]);
        }

        try {
          assertPatientAccess(req, q.patient);
        } catch (err) {
          await audit(req, 'vitals.read', q.patient, 'failure', { reason: 'patient mismatch' });
          throw err;
        }

        const fingerprint = queryFingerprint([q.patient, q.code, from, to, q.bucket, agg?.join(',')]);
        const cursor = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
        if (q.cursor !== undefined && (!cursor || cursor.q !== fingerprint || cursor.k !== (q.bucket ? 'agg' : 'raw'))) {
          throw badRequest('The cursor is invalid or belongs to a different query.', { errors: [{ path: 'querystring.cursor', message: 'invalid cursor' }] });
        }
        const nextUrl = (token: string) => {
          const params = new URLSearchParams();
          for (const [key, value] of Object.entries(q)) if (value !== undefined && key !== 'cursor') params.set(key, String(value));
          params.set('cursor', token);
          return `${config.baseUrl}/api/v1/vitals?${params.toString()}`;
        };
        reply.header('cache-control', 'no-store');

        if (!q.bucket) {
          const page = await queryRaw(pool, {
            patient: q.patient,
            code: q.code,
            from,
            to,
            limit: q.limit,
            after: cursor?.k === 'raw' ? { t: cursor.t, d: cursor.d, s: cursor.s } : undefined,
          });
          const next = page.more && page.last ? nextUrl(encodeCursor({ k: 'raw', t: page.last.at, d: page.last.device_id, s: page.last.seq, q: fingerprint })) : null;
          await audit(req, 'vitals.read', q.patient, 'success', { code: q.code ?? null, from, to, rows: page.rows.length });
          if (next) reply.header('link', `<${next}>; rel="next"`);
          if (fhir) {
            const self = `${config.baseUrl}${req.url}`;
            return reply.type(FHIR_JSON).send({ ...toSearchsetBundle(page.rows, { self, ...(next ? { next } : {}) }, config.baseUrl) });
          }
          return reply.send({ patient_id: q.patient, from, to, count: page.rows.length, data: page.rows, next });
        }

        const bucket = q.bucket as Bucket;
        const page = await queryBuckets(pool, {
          patient: q.patient,
          code: q.code,
          from,
          to,
          bucket,
          limit: q.limit,
          after: cursor?.k === 'agg' ? { b: cursor.b, c: cursor.c } : undefined,
        });
        const lastRow = page.rows[page.rows.length - 1];
        const next = page.more && lastRow ? nextUrl(encodeCursor({ k: 'agg', b: lastRow.bucket, c: lastRow.code, q: fingerprint })) : null;
        await audit(req, 'vitals.read', q.patient, 'success', { code: q.code ?? null, from, to, bucket, rows: page.rows.length });
        if (next) reply.header('link', `<${next}>; rel="next"`);
        const aggs = agg!;
        const data = page.rows.map((r) => {
          const point: Record<string, unknown> = { code: r.code, bucket: r.bucket };
          for (const a of aggs) point[a] = r[a];
          if (aggs.includes('last')) point.last_at = r.last_at;
          return point as z.infer<typeof bucketPoint>;
        });
        return reply.send({ patient_id: q.patient, from, to, bucket, agg: aggs, source: page.source, count: data.length, data, next });
      },
    );

    /** The latest observation per code; shared by the current route and its deprecated predecessor. */
    const readLatest = async (req: FastifyRequest, patientId: string, code: string | undefined) => {
      try {
        assertPatientAccess(req, patientId);
      } catch (err) {
        await audit(req, 'vitals.read_latest', patientId, 'failure', { reason: 'patient mismatch' });
        throw err;
      }
      const rows = await queryLatest(pool, patientId, code ? [code] : VITAL_CODES);
      await audit(req, 'vitals.read_latest', patientId, 'success', { rows: rows.length });
      return rows;
    };
    const latestCode = z.enum(VITAL_CODES as [string, ...string[]]).optional().describe('Only this LOINC (or MDC) code; every code if omitted');

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
          response: { 200: z.union([z.object({ patient_id: z.string(), count: z.number().int(), data: z.array(observationOut) }), fhirBundle]) },
        },
      },
      async (req, reply) => {
        const rows = await readLatest(req, req.query.patient, req.query.code);
        reply.header('cache-control', 'no-store');
        if (wantsFhir(req)) return reply.type(FHIR_JSON).send({ ...toSearchsetBundle(rows, { self: `${config.baseUrl}${req.url}` }, config.baseUrl) });
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
          description: 'The most recent observation per code (ECG: the latest waveform chunk). FHIR searchset Bundle with `Accept: application/fhir+json`.',
          params: z.object({ id: resourceId }),
          querystring: z.object({ code: latestCode }),
          response: { 200: z.union([z.object({ patient_id: z.string(), data: z.array(observationOut) }), fhirBundle]) },
        },
      },
      async (req, reply) => {
        const rows = await readLatest(req, req.params.id, req.query.code);
        reply.header('cache-control', 'no-store');
        if (wantsFhir(req)) return reply.type(FHIR_JSON).send({ ...toSearchsetBundle(rows, { self: `${config.baseUrl}${req.url}` }, config.baseUrl) });
        return reply.send({ patient_id: req.params.id, data: rows });
      },
    );
  };
}
