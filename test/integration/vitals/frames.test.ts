/**
 * Device frames through the ingest (issue 24 item 1, ADR 0015), against real Kafka and PostgreSQL
 * on private topics: a frame record (one device at one tick: numerics + an ECG chunk) is stored as
 * one row per observation at its record position (partition, offset, record_item); delivered twice
 * and read again by a second consumer group it is stored once; a bad observation inside a frame
 * goes to the DLQ as the frame, named by index, while the frame's other observations are stored;
 * single-observation records on the same topic keep working; a v2 frame (ADR 0029) stores its ECG
 * steps as sent, and the simulator's monitors send v2 frames.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { FRAME_ENVELOPE, FRAME_ENVELOPE_V2, decodeRecord } from '@vitalis/schemas';
import { createLogger } from '@vitalis/log';
import { runSimulator } from '../../../apps/simulator/src/simulator';
import { DLQ_HEADERS, type IngestWorker } from '../../../apps/ingest/src/worker';
import {
  closeIngestRig,
  countStored,
  numeric,
  openIngestRig,
  readTopic,
  startTestIngest,
  testKafka,
  uid,
  waitFor,
  type IngestRig,
} from './support';

const kafka = testKafka('frames');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: IngestRig['topics'];
let worker: IngestWorker;

beforeAll(async () => {
  ({ admin, pool, producer, topics, worker } = await openIngestRig(kafka));
});

afterAll(() => closeIngestRig({ admin, pool, producer, topics, worker }));

const send = (key: string, values: object[]) =>
  producer.send({ topic: topics.topic, acks: -1, messages: values.map((v) => ({ key, value: JSON.stringify(v) })) });

/** A monitor's frame at one tick: six numerics and a 1 s ECG chunk (its own time: its first sample). */
function monitorFrame(
  patient: string,
  device: string,
  firstSeq: number,
  at: Date,
  overrides: Record<number, Record<string, unknown>> = {},
) {
  const items: Record<string, unknown>[] = [
    { code: '8867-4', value: 72, unit: '/min' },
    { code: '59408-5', value: 97, unit: '%' },
    { code: '8480-6', value: 121, unit: 'mm[Hg]' },
    { code: '8462-4', value: 79, unit: 'mm[Hg]' },
    { code: '9279-1', value: 15, unit: '/min' },
    { code: '8310-5', value: 37.1, unit: 'Cel' },
    {
      code: '131330',
      unit: 'mV',
      effective_at: new Date(at.getTime() - 1_000).toISOString(),
      waveform: { origin: 0, period_ms: 4, samples: Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i / 8) * 1000) / 1000) },
    },
  ];
  return {
    envelope: FRAME_ENVELOPE,
    patient_id: patient,
    device_id: device,
    effective_at: at.toISOString(),
    observations: items.map((item, i) => ({ seq: firstSeq + i, ...item, ...overrides[i] })),
  };
}

/** Until the worker's dead-letter count has taken in a dead letter seen on the DLQ topic (it counts at the batch's end). */
const deadLetterCounted = (before: number) =>
  waitFor(
    async () => worker.stats.deadLettered,
    (n) => n > before,
    45_000,
    'the dead letter counted',
  );

const rowsOf = async (patient: string) =>
  (
    await pool.query<{ seq: number; code: string; record_item: number; kafka_offset: string; effective_at: Date }>(
      'SELECT seq, code, record_item, kafka_offset, effective_at FROM vitals_observations WHERE patient_id = $1 ORDER BY kafka_offset, record_item',
      [patient],
    )
  ).rows;

describe('device frames through the ingest', () => {
  it('decodes a frame record into its observations with their index, and a v1 record as item 0', () => {
    const frame = monitorFrame('p', 'd', 10, new Date());
    const decoded = decodeRecord(JSON.stringify(frame));
    expect(decoded.ok && decoded.frame && decoded.observations.map((o) => [o.item, o.observation.seq, o.observation.patient_id])).toEqual(
      frame.observations.map((o, i) => [i, o.seq, 'p']),
    );
    const single = decodeRecord(JSON.stringify(numeric('p', 'd', 1, new Date())));
    expect(single.ok && !single.frame && single.observations.map((o) => o.item)).toEqual([0]);
    expect(decodeRecord(JSON.stringify({ ...frame, envelope: 'vitals.frame.v9' }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^frame-invalid: envelope/),
    });
  });

  it('stores a frame as one row per observation at its record position; the ECG keeps its own time', async () => {
    const patient = `pat-fr-${uid()}`;
    const at = new Date();
    const [meta] = await send(patient, [monitorFrame(patient, `${patient}-mon`, 100, at)]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 7,
      45_000,
      "the frame's 7 rows",
    );
    const rows = await rowsOf(patient);
    expect(rows.map((r) => [Number(r.kafka_offset), r.record_item, r.seq])).toEqual(
      Array.from({ length: 7 }, (_, i) => [Number(meta!.baseOffset), i, 100 + i]),
    );
    expect(rows[0]!.effective_at.getTime()).toBe(at.getTime());
    expect(rows[6]!.effective_at.getTime()).toBe(at.getTime() - 1_000);
  });

  it('stores a frame delivered twice once, and a second consumer group reading the topic again skips it before the write', async () => {
    const patient = `pat-fr-${uid()}`;
    const frame = monitorFrame(patient, `${patient}-mon`, 200, new Date());
    await send(patient, [frame, frame]);
    const marker = numeric(patient, `${patient}-mon`, 300, new Date());
    await send(patient, [marker]);
    // the marker is behind both copies in the same partition: once it is stored, they were processed
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 8,
      45_000,
      'frame + marker',
    );
    expect(await countStored(pool, { patient })).toEqual({ rows: 8, distinct: 8 });

    // A new group reads the whole topic again (a redelivery of everything): nothing is written twice,
    // and the records the database holds are skipped before the write (the stored offsets).
    const again = await startTestIngest(kafka, pool, { topic: topics.topic, dlqTopic: topics.dlqTopic });
    try {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT coalesce(sum(next_offset), 0)::text AS n FROM vitals_ingest_offsets WHERE topic = $1',
        [topics.topic],
      );
      expect(Number(rows[0]!.n)).toBeGreaterThan(0);
      await waitFor(
        async () => again.stats.skipped,
        (n) => n >= 3,
        45_000,
        'the redelivered records skipped',
      );
      expect(again.stats.stored).toBe(0);
      expect(again.stats.assignmentChecks).toBeGreaterThanOrEqual(1);
    } finally {
      await again.stop();
    }
    expect(await countStored(pool, { patient })).toEqual({ rows: 8, distinct: 8 });
  });

  it("dead-letters a frame naming its bad observation, and stores the frame's other observations", async () => {
    const patient = `pat-fr-${uid()}`;
    // item 1: SpO2 140 % (out of range); item 3: a unit that is not the code's
    const frame = monitorFrame(patient, `${patient}-mon`, 400, new Date(), { 1: { value: 140 }, 3: { unit: '/min' } });
    const deadBefore = worker.stats.deadLettered;
    const [meta] = await send(patient, [frame]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 5,
      45_000,
      'the 5 good observations',
    );
    expect((await rowsOf(patient)).map((r) => r.record_item)).toEqual([0, 2, 4, 5, 6]);

    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.some((m) => m.key?.toString() === patient));
    await deadLetterCounted(deadBefore);
    const mine = dead.filter((m) => m.key?.toString() === patient);
    expect(mine).toHaveLength(1);
    const header = (name: string) => mine[0]!.headers?.[name]?.toString();
    expect(header(DLQ_HEADERS.frameItems)).toBe('1,3');
    expect(header(DLQ_HEADERS.reason)).toMatch(/^observations\.1 schema-invalid: observations\.1\.value: must be between 0 and 100 %/);
    expect(header(DLQ_HEADERS.reason)).toMatch(/observations\.3 schema-invalid: observations\.3\.unit: must be the UCUM unit "mm\[Hg\]"/);
    expect(header(DLQ_HEADERS.offset)).toBe(meta!.baseOffset);
    expect(JSON.parse(mine[0]!.value!.toString())).toEqual(frame); // the frame as sent
  });

  it('stores a v2 frame (ADR 0029) with its ECG steps as sent, and dead-letters its chunk with a step off the grid by index', async () => {
    const patient = `pat-fr2-${uid()}`;
    const at = new Date();
    const steps = Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i / 8) * 10_000) - 3);
    const v2 = (firstSeq: number, ecgSteps: unknown[]) => {
      const v1 = monitorFrame(patient, `${patient}-mon`, firstSeq, at);
      const ecg = v1.observations[6]! as Record<string, unknown>;
      return {
        ...v1,
        envelope: FRAME_ENVELOPE_V2,
        observations: [
          ...v1.observations.slice(0, 6),
          {
            seq: ecg.seq,
            code: ecg.code,
            unit: ecg.unit,
            effective_at: ecg.effective_at,
            waveform: { period_ms: 4, sample_steps: ecgSteps },
          },
        ],
      };
    };
    const bad = v2(600, [...steps.slice(0, 10), 0.5]);
    const deadBefore = worker.stats.deadLettered;
    await send(patient, [v2(500, steps), bad]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 13,
      45_000,
      "the first frame's 7 rows and the second's 6 numerics",
    );
    const { rows } = await pool.query<{ sample_steps: Buffer; sample_period_ms: number }>(
      "SELECT sample_steps, sample_period_ms FROM vitals_observations WHERE patient_id = $1 AND code = '131330'",
      [patient],
    );
    expect(rows).toHaveLength(1);
    const stored = rows[0]!.sample_steps;
    expect(Array.from({ length: stored.length / 4 }, (_, i) => stored.readInt32LE(i * 4))).toEqual(steps);
    expect(rows[0]!.sample_period_ms).toBe(4);

    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.some((m) => m.key?.toString() === patient));
    await deadLetterCounted(deadBefore);
    const mine = dead.filter((m) => m.key?.toString() === patient);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.headers?.[DLQ_HEADERS.frameItems]?.toString()).toBe('6');
    expect(mine[0]!.headers?.[DLQ_HEADERS.reason]?.toString()).toMatch(
      /^observations\.6 schema-invalid: observations\.6\.waveform\.sample_steps\.10: must be a whole number of 0\.1 µV steps/,
    );
    expect(JSON.parse(mine[0]!.value!.toString())).toEqual(bad);
  });

  it('dead-letters a frame whose head is bad as a whole, and single observations on the same topic keep working', async () => {
    const patient = `pat-fr-${uid()}`;
    const { patient_id: _omitted, ...headless } = monitorFrame(patient, `${patient}-mon`, 500, new Date());
    const deadBefore = worker.stats.deadLettered;
    await send(patient, [headless, numeric(patient, `${patient}-mon`, 600, new Date())]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 1,
      45_000,
      'the single observation after the bad frame',
    );
    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.some((m) => m.key?.toString() === patient));
    await deadLetterCounted(deadBefore);
    const mine = dead.filter((m) => m.key?.toString() === patient);
    expect(mine[0]!.headers?.[DLQ_HEADERS.reason]?.toString()).toMatch(/^frame-invalid: patient_id/);
    expect(mine[0]!.headers?.[DLQ_HEADERS.frameItems]).toBeUndefined();
  });

  it("the simulator's monitors emit frames (six numerics and the ECG chunk of the last second), stored without a dead letter", async () => {
    const prefix = `pat-sim-${uid()}`;
    const deadBefore = worker.stats.deadLettered;
    const sim = await runSimulator({
      kafka,
      logger: createLogger('test-sim', 'error'),
      topic: topics.topic,
      patients: 2,
      rateHz: 1,
      deterioratingFraction: 0,
      ecg: true,
      patientId: (i) => `${prefix}-${i}`,
    });
    try {
      await waitFor(
        async () =>
          (
            await pool.query<{ n: number }>(
              "SELECT count(DISTINCT device_id)::int AS n FROM vitals_observations WHERE patient_id LIKE $1 || '%' AND code = '131330' AND record_item = 6",
              [prefix],
            )
          ).rows[0]!.n,
        (n) => n === 2,
        45_000,
        'an ECG chunk as the 7th observation of a frame from each monitor',
      );
    } finally {
      await sim.stop();
    }
    const { rows } = await pool.query<{ device_id: string; items: number }>(
      "SELECT device_id, count(DISTINCT record_item)::int AS items FROM vitals_observations WHERE patient_id LIKE $1 || '%' GROUP BY device_id ORDER BY device_id",
      [prefix],
    );
    expect(rows).toEqual([
      { device_id: `${prefix}-0-monitor`, items: 7 },
      { device_id: `${prefix}-1-monitor`, items: 7 },
    ]);
    expect(worker.stats.deadLettered).toBe(deadBefore);
  });
});
