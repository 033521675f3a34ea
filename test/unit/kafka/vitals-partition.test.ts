/**
 * The vitals producers' partition of a key (libs/kafka producer.ts `vitalsPartition`, ADR 0037) is
 * the one Kafka's Java client and kafkajs's default partitioner compute: a patient's records stay on
 * the partition every other producer of the topic (devices in other languages, a gateway of an
 * older release) sends them to. Compared key by key with kafkajs's own partitioner.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { vitalsPartition } from '@vitalis/kafka';

const javaCompatible = Partitioners.DefaultPartitioner();

function kafkajsPartition(key: string | Buffer, partitions: number): number {
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionId,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return javaCompatible({ topic: 't', partitionMetadata, message: { key, value: null } } as unknown as PartitionerArgs);
}

const KEYS: (string | Buffer)[] = [
  '',
  'a',
  'pat-0001',
  'pat-00042',
  'sbx-0001',
  'patient/with/slashes',
  'ünïcödé-Ωμέγα-患者',
  ...Array.from({ length: 3_000 }, (_, i) => `pat-${String(i).padStart(5, '0')}`),
  ...Array.from({ length: 1_000 }, (_, i) => randomBytes(1 + (i % 40))),
];

describe('vitalsPartition', () => {
  it.each([1, 2, 3, 7, 12, 24, 100])('picks the partition kafkajs (Java) picks for every key, %i partitions', (partitions) => {
    const differing = KEYS.filter((key) => vitalsPartition(key, partitions) !== kafkajsPartition(key, partitions));
    expect(differing).toEqual([]);
  });

  it('spreads patients over the partitions (no partition left empty among 3,000 patient ids on 12)', () => {
    const used = new Set(KEYS.slice(7, 3_007).map((key) => vitalsPartition(key, 12)));
    expect(used.size).toBe(12);
  });
});
