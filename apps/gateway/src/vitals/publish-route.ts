/**
 * POST /api/v1/vitals (write:vitals): a batch of observations and/or device frames, checked as a
 * whole (one invalid item refuses the whole batch with 422 naming every invalid index), then produced
 * to vitals.observations.v1 with acks=all by the gateway's one producer (libs/kafka producer.ts);
 * 202 only after Kafka acknowledged. The vitals routes' registrar (routes.ts) registers it first.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { HttpProblem, problemOf } from '@vitalis/http';
import { createVitalsProducer, sendTraced, type VitalisKafka, type VitalsProducer } from '@vitalis/kafka';
import { TRACING_OFF } from '@vitalis/tracing';
import {
  encodeFrame,
  encodeObservation,
  frameClockProblems,
  frameObservations,
  MAX_FRAMES_PER_BATCH,
  MAX_OBSERVATIONS_PER_BATCH,
  NUMERIC_VITALS,
  observationClockProblems,
  validateObservation,
  VITAL_CODE,
  anyVitalsFrameSchema,
  vitalsObservationSchema,
  type ClockLimits,
  type RecordClock,
  type AnyVitalsFrame,
  type VitalsObservation,
} from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import type { RouteApp } from '../route-app';
import { callerOf, problems } from '../access/http';
import { requestTraceContext } from '../tracing';
import { recordVitalsWrite, recordVitalsWriteFailed } from './service';

/**
 * The body as the document shows it: each item's schema, at least one observation or frame
 * (published as anyOf: observations given, or frames given). The handler checks the items itself
 * (all-or-nothing, 422 naming every invalid index).
 */
const publishBodyDocument = z
  .union([
    z.object({
      observations: z
        .array(vitalsObservationSchema)
        .min(1)
        .max(MAX_OBSERVATIONS_PER_BATCH)
        .describe('Vitals observations, one record each'),
      frames: z
        .array(anyVitalsFrameSchema)
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
        .array(anyVitalsFrameSchema)
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
  });

/** One invalid item of a batch: an observation by `index` or a frame by `frame`, the path inside it and why. */
export type BatchError = ({ index: number } | { frame: number }) & { path: string; message: string };

/** A batch split into its valid single observations and frames, or every error of its invalid items. */
export type CheckedBatch = { ok: true; singles: VitalsObservation[]; frames: AnyVitalsFrame[] } | { ok: false; errors: BatchError[] };

/** Checks every observation and frame of a batch (shape, then the bounded device clock at `clock`); never throws. */
export function checkBatch(observations: readonly unknown[], frameBodies: readonly unknown[], clock: RecordClock): CheckedBatch {
  const errors: BatchError[] = [];
  const singles: VitalsObservation[] = [];
  observations.forEach((item, index) => {
    const result = validateObservation(item);
    const problems = result.ok ? observationClockProblems(result.observation, clock) : result.problems;
    if (problems.length === 0 && result.ok) singles.push(result.observation);
    else for (const p of problems) errors.push({ index, path: p.path, message: p.message });
  });
  const frames: AnyVitalsFrame[] = [];
  frameBodies.forEach((item, frame) => {
    const result = anyVitalsFrameSchema.safeParse(item);
    const late = result.success ? frameClockProblems(result.data, clock) : [];
    for (const p of late) errors.push({ frame, path: p.path, message: p.message });
    if (result.success && late.length === 0) frames.push(result.data);
    else if (!result.success)
      for (const issue of result.error.issues)
        errors.push({ frame, path: issue.path.map(String).join('.') || '(root)', message: issue.message });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, singles, frames };
}

/** The 422 of a refused batch: how many items are invalid, and (at most 1000 of) their errors. */
function refusedBatch(errors: readonly BatchError[], items: number): HttpProblem {
  const bad = new Set(errors.map((e) => ('index' in e ? `o${e.index}` : `f${e.frame}`))).size;
  return problemOf(
    'invalid-observations',
    `${bad} of ${items} observations and frames are invalid; the batch was refused and nothing was published.`,
    { errors: errors.slice(0, 1_000) },
  );
}

/**
 * The gateway's one vitals producer, connected on first use (the gateway starts and serves reads
 * while Kafka is down; a failed connect is retried by the next request), and its disconnect on close.
 */
export function lazyVitalsProducer(kafka: VitalisKafka): { get: () => Promise<VitalsProducer>; close: () => Promise<void> } {
  let producer: Promise<VitalsProducer> | undefined;
  const get = () =>
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
  const close = async () => {
    const p = await producer?.catch(() => undefined);
    await p?.disconnect();
  };
  return { get, close };
}

/** What the publish route needs besides the app: the gateway's deps, the topic, the clock limits and the producer. */
export interface PublishVitalsOptions {
  topic: string;
  clockLimits: ClockLimits;
  getProducer: () => Promise<VitalsProducer>;
}

/**
 * Produces a checked batch: one record per single observation (the v1 format) and one per frame, each
 * with the request's instant as its Kafka timestamp; a PRODUCER span under the request's, its
 * traceparent in every record's headers (tracing on). A failure is a 503 (after an audit row saying
 * the batch was not published).
 */
async function publishBatch(
  req: FastifyRequest,
  deps: GatewayDeps,
  options: PublishVitalsOptions,
  batch: { singles: VitalsObservation[]; frames: AnyVitalsFrame[]; now: number; accepted: number },
  caller: ReturnType<typeof callerOf>,
): Promise<void> {
  try {
    const p = await options.getProducer();
    await sendTraced(
      p,
      {
        topic: options.topic,
        acks: -1,
        messages: [...batch.singles.map(encodeObservation), ...batch.frames.map(encodeFrame)].map((m) => ({
          ...m,
          timestamp: String(batch.now),
        })),
      },
      deps.tracing ?? TRACING_OFF,
      requestTraceContext(req),
    );
  } catch (err) {
    if (err instanceof HttpProblem) throw err;
    req.log.error({ err }, 'publishing vitals to Kafka failed');
    // the row written before said the batch was handed over; this one says it was not published (the answer is a 503 either way)
    await recordVitalsWriteFailed(deps.pool, caller, batch.accepted, 'kafka unavailable', 'rest').catch(() => undefined);
    throw problemOf(
      'unavailable',
      'Vitals could not be published (Kafka unavailable); nothing was accepted. Retry the same batch.',
      { retry_after: 5 },
      { 'retry-after': '5' },
    );
  }
}

/** POST /api/v1/vitals: check the whole batch, audit it, produce it; 202 once Kafka has it. */
export function publishVitalsRoute(app: RouteApp, deps: GatewayDeps, options: PublishVitalsOptions): void {
  app.post(
    '/api/v1/vitals',
    {
      config: { auth: { scopes: ['write:vitals'] }, openapiBody: publishBodyDocument },
      schema: {
        tags: ['vitals'],
        summary: 'Publish a batch of vitals observations and device frames',
        description: `Up to ${MAX_OBSERVATIONS_PER_BATCH} observations (see vitals-observation.schema.json) and up to ${MAX_FRAMES_PER_BATCH} frames (one device's observations at one tick, envelope vitals.frame.v1, or vitals.frame.v2 with an ECG chunk's samples as whole 0.1 µV steps), at least one of either. All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index (errors[].index for an observation, errors[].frame for a frame, the path inside it); nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once. Bounded device clocks: an effective_at (an observation's, a frame's tick, a frame observation's own) more than VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) ahead of the gateway's clock, or more than VITALS_RETENTION_DAYS (default 30 days) behind it, is a 422 naming the field (errors[].path effective_at or observations.<i>.effective_at); a late observation inside the window is stored. What is accepted is stored and read back as sent: a numeric value exactly (double precision), period_ms exactly (a float4 that does not hold it exactly is refused), an ECG chunk's potentials as origin + sample quantised to 0.1 µV (see samples), a v2 frame's sample_steps exactly.`,
        body: z
          .object({
            observations: z.array(z.unknown()).max(MAX_OBSERVATIONS_PER_BATCH).optional().describe('Vitals observations, one record each'),
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
      // Bounded device clocks (@vitalis/schemas clock.ts): judged at this instant, which every
      // record carries as its Kafka timestamp, so the ingest judges it alike (never 202, then dead-lettered).
      const clock = { now: Date.now(), limits: options.clockLimits };
      const observations = req.body.observations ?? [];
      const frameBodies = req.body.frames ?? [];
      const checked = checkBatch(observations, frameBodies, clock);
      if (!checked.ok) throw refusedBatch(checked.errors, observations.length + frameBodies.length);
      const { singles, frames } = checked;
      const valid = [...singles, ...frames.flatMap(frameObservations)];
      // access (write:vitals, a patient user only their own id) and the request's audit row, before anything is published
      const caller = callerOf(req);
      await recordVitalsWrite(deps.pool, caller, valid, 'rest');
      await publishBatch(req, deps, options, { singles, frames, now: clock.now, accepted: valid.length }, caller);
      return reply.code(202).send({ accepted: valid.length, topic: options.topic });
    },
  );
}
