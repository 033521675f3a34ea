/**
 * ensureTopics' wait for the new topics' leaders (`waitForLeaders`): a broker of a multi-broker
 * cluster answers "unknown topic" until a just created topic's metadata reaches it, and a partition
 * can have no leader yet; both are asked again, anything else fails at once. The admin here is a
 * scripted stand-in for the one call the wait makes (the metadata answers a 3-broker cluster gave:
 * the scale-out run in which an ingest exited at start on the first of them); ensureTopics against
 * the real broker runs in every integration test's setup.
 */
import { describe, expect, it } from 'vitest';
import { waitForLeaders } from '@vitalis/kafka';

type Metadata = { topics: { name: string; partitions: { partitionId: number; leader: number }[] }[] };
const unknownTopic = () =>
  Object.assign(new Error('This server does not host this topic-partition'), { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true });
const led = (name: string, leader = 1): Metadata['topics'][number] => ({
  name,
  partitions: [0, 1, 2].map((partitionId) => ({ partitionId, leader })),
});

function scripted(answers: (Metadata | Error)[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    fetchTopicMetadata: async () => {
      const answer = answers[Math.min(calls++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

describe('waitForLeaders', () => {
  it('asks again while a broker does not know the topic yet or a partition has no leader, and returns once every partition is led', async () => {
    const admin = scripted([
      unknownTopic(),
      unknownTopic(),
      { topics: [led('a'), { ...led('b'), partitions: [{ partitionId: 0, leader: -1 }] }] },
      { topics: [led('a')] },
      { topics: [led('a'), led('b')] },
    ]);
    await waitForLeaders(admin as never, ['a', 'b']);
    expect(admin.calls).toBe(5);
  });

  it('fails at once on an error that is not retriable', async () => {
    const denied = Object.assign(new Error('Topic authorization failed'), { type: 'TOPIC_AUTHORIZATION_FAILED', retriable: false });
    const admin = scripted([denied]);
    await expect(waitForLeaders(admin as never, ['a'])).rejects.toBe(denied);
    expect(admin.calls).toBe(1);
  });

  it('gives up after its time with the topics named', async () => {
    const admin = scripted([{ topics: [{ ...led('a'), partitions: [{ partitionId: 0, leader: -1 }] }] }]);
    await expect(waitForLeaders(admin as never, ['a'], 300)).rejects.toThrow(/without a leader after 300 ms: a/);
    const retriedUnknown = scripted([unknownTopic()]);
    await expect(waitForLeaders(retriedUnknown as never, ['a'], 300)).rejects.toMatchObject({ type: 'UNKNOWN_TOPIC_OR_PARTITION' });
  });
});
