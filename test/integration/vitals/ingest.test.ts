/**
 * The ingest worker against real Kafka and PostgreSQL, on private topics: messages are stored with
 * their Kafka position, redelivery stores once, poison goes to the DLQ with headers and never stalls
 * the partition, ECG chunks are stored as real[].
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { VitalsProducer } from '@vitalis/kafka';
import type { Pool } from '@vitalis/db';
import { decodeSampleSteps, SAMPLE_STEPS_PER_MV } from '@vitalis/live';
import { DLQ_HEADERS, type IngestWorker } from '../../../apps/ingest/src/worker';
import { closeIngestRig, countStored, numeric, openIngestRig, readTopic, testKafka, uid, waitFor, type IngestRig } from './support';

const kafka = testKafka('ingest');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: IngestRig['topics'];
let worker: IngestWorker;

beforeAll(async () => {
  ({ admin, pool, producer, topics, worker } = await openIngestRig(kafka));
});

afterAll(() => closeIngestRig({ admin, pool, producer, topics, worker }));

const send = (key: string, values: (string | object)[]) =>
  producer.send({
    topic: topics.topic,
    acks: -1,
    messages: values.map((v) => ({ key, value: typeof v === 'string' ? v : JSON.stringify(v) })),
  });

describe('vitals ingest worker', () => {
  it('stores produced observations with their Kafka partition and offset', async () => {
    const patient = `pat-it-${uid()}`;
    const now = Date.now();
    const [meta] = await send(
      patient,
      Array.from({ length: 20 }, (_, i) => numeric(patient, `${patient}-dev`, i, new Date(now + i))),
    );
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 20,
      45_000,
      '20 rows',
    );
    const { rows } = await pool.query(
      'SELECT seq, value, unit, kafka_partition, kafka_offset FROM vitals_observations WHERE patient_id = $1 ORDER BY seq',
      [patient],
    );
    expect(rows[0]).toMatchObject({
      seq: 0,
      value: 60,
      unit: '/min',
      kafka_partition: meta!.partition,
      kafka_offset: Number(meta!.baseOffset),
    });
    expect(rows.map((r) => r.kafka_offset)).toEqual(Array.from({ length: 20 }, (_, i) => Number(meta!.baseOffset) + i));
  });

  it('stores an observation delivered twice (and a duplicate in the same batch) once', async () => {
    const patient = `pat-it-${uid()}`;
    const o = numeric(patient, `${patient}-dev`, 42, new Date());
    await send(patient, [o, o]);
    await send(patient, [o]);
    const marker = numeric(patient, `${patient}-dev`, 43, new Date());
    await send(patient, [marker]);
    // the marker is behind the duplicates in the same partition: once it is stored, they were processed
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 2,
      45_000,
      'original + marker',
    );
    expect(await countStored(pool, { patient })).toEqual({ rows: 2, distinct: 2 });
  });

  it('sends poison messages to the DLQ with reason and source position, and keeps storing good ones', async () => {
    const patient = `pat-it-${uid()}`;
    const good = numeric(patient, `${patient}-dev`, 1, new Date());
    const wrongUnit = numeric(patient, `${patient}-dev`, 2, new Date(), { unit: '%' });
    const [meta] = await send(patient, ['{"not json', wrongUnit, good]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 1,
      45_000,
      'the good message after the poison',
    );

    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.filter((m) => m.key?.toString() === patient).length >= 2);
    const mine = dead.filter((m) => m.key?.toString() === patient);
    expect(mine).toHaveLength(2);
    const header = (i: number, name: string) => mine[i]!.headers?.[name]?.toString();
    expect(header(0, DLQ_HEADERS.reason)).toMatch(/^undecodable JSON/);
    expect(header(1, DLQ_HEADERS.reason)).toMatch(/^schema-invalid: unit: must be the UCUM unit "\/min"/);
    expect(header(0, DLQ_HEADERS.topic)).toBe(topics.topic);
    expect(header(0, DLQ_HEADERS.partition)).toBe(String(meta!.partition));
    expect(header(0, DLQ_HEADERS.offset)).toBe(meta!.baseOffset);
    expect(header(1, DLQ_HEADERS.offset)).toBe(String(Number(meta!.baseOffset) + 1));
    expect(mine[0]!.value?.toString()).toBe('{"not json');
    expect(worker.stats.deadLettered).toBeGreaterThanOrEqual(2);
  });

  it('stores ECG waveform chunks as real[] with the sample period (origin folded in)', async () => {
    const patient = `pat-it-${uid()}`;
    const samples = Array.from({ length: 250 }, (_, i) => Math.round(Math.sin(i / 10) * 1000) / 1000);
    await send(patient, [
      {
        patient_id: patient,
        device_id: `${patient}-ecg`,
        seq: 7,
        effective_at: new Date().toISOString(),
        code: '131330',
        unit: 'mV',
        waveform: { origin: 0.5, period_ms: 4, samples },
      },
    ]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 1,
      45_000,
      'ECG chunk',
    );
    const { rows } = await pool.query<{ value: null; sample_period_ms: number; samples: null; sample_steps: Buffer }>(
      'SELECT value, sample_period_ms, samples, sample_steps FROM vitals_observations WHERE patient_id = $1',
      [patient],
    );
    expect(rows[0]!.value).toBeNull();
    expect(rows[0]!.sample_period_ms).toBe(4);
    // the compact form (migration 0036): 250 steps of 0.1 µV, origin folded in
    expect(rows[0]!.samples).toBeNull();
    expect(rows[0]!.sample_steps).toHaveLength(250 * 4);
    expect(decodeSampleSteps(rows[0]!.sample_steps)[10]).toBe(Math.round((samples[10]! + 0.5) * SAMPLE_STEPS_PER_MV) / SAMPLE_STEPS_PER_MV);
  });

  it('commits the consumer group offsets after storing', async () => {
    const patient = `pat-it-${uid()}`;
    const [meta] = await send(patient, [numeric(patient, `${patient}-dev`, 1, new Date())]);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 1,
      45_000,
      'stored',
    );
    const { groupId } = await worker.consumer.describeGroup();
    const offsets = await waitFor(
      () => admin.fetchOffsets({ groupId, topics: [topics.topic] }),
      (o) => Number(o[0]?.partitions.find((p) => p.partition === meta!.partition)?.offset) > Number(meta!.baseOffset),
      15_000,
      'offset commit',
    );
    expect(Number(offsets[0]!.partitions.find((p) => p.partition === meta!.partition)!.offset)).toBe(Number(meta!.baseOffset) + 1);
  });
});
