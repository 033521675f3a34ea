/**
 * The topics' durability comes from configuration: one copy on the development broker, three
 * copies with two in sync on a production cluster (docs/operations.md#topology). The scale-out
 * test (test/disruptive/scale-out.test.ts) runs the apps with 3 / 2 on a real 3-broker cluster.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, infraShape, kafkaTopicDurability, parseConfig } from '@vitalis/config';
import { topicSpecs } from '@vitalis/kafka';

const minInsync = (spec: ReturnType<typeof topicSpecs>[number]) => spec.configEntries.find((e) => e.name === 'min.insync.replicas')?.value;

describe('Kafka topic durability', () => {
  it('defaults to the single development broker: one copy, one in sync', () => {
    expect(kafkaTopicDurability(parseConfig(infraShape, {}))).toEqual({ replicationFactor: 1, minInsyncReplicas: 1 });
    for (const spec of topicSpecs()) expect({ rf: spec.replicationFactor, isr: minInsync(spec) }).toEqual({ rf: 1, isr: '1' });
  });

  it('a production cluster: every topic with 3 copies and min.insync.replicas 2', () => {
    const durability = kafkaTopicDurability(parseConfig(infraShape, { KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' }));
    expect(durability).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    for (const spec of topicSpecs(durability))
      expect({ topic: spec.topic, rf: spec.replicationFactor, isr: minInsync(spec) }).toEqual({ topic: spec.topic, rf: 3, isr: '2' });
  });

  it('refuses an in-sync minimum above the copies (no write could be acknowledged), naming the variable', () => {
    const config = parseConfig(infraShape, { KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '2' });
    expect(() => kafkaTopicDurability(config)).toThrow(ConfigError);
    expect(() => kafkaTopicDurability(config)).toThrow(/KAFKA_MIN_INSYNC_REPLICAS: must not exceed KAFKA_REPLICATION_FACTOR/);
    expect(() => parseConfig(infraShape, { KAFKA_REPLICATION_FACTOR: '0' })).toThrow(
      /KAFKA_REPLICATION_FACTOR: must be a positive integer/,
    );
  });
});
