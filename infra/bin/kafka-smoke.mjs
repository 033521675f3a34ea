// Proves that kafkajs (the apps' client) works with our broker end to end:
// admin create/describe/delete topics, idempotent + gzip produce with headers, a consumer group
// (join, sync, fetch, commit, a second member joining = rebalance, offsets read back), and a
// transactional produce. Prints one line per step; exits 1 on the first failure.
//   node infra/bin/kafka-smoke.mjs [127.0.0.1:59092]
import { Kafka, logLevel, CompressionTypes } from 'kafkajs';

const broker = process.argv[2] ?? `127.0.0.1:${process.env.VITALIS_KAFKA_PORT ?? 59092}`;
const kafka = new Kafka({
  brokers: [broker],
  clientId: 'vitalis-smoke',
  logLevel: process.env.KAFKAJS_LOG ? logLevel.INFO : logLevel.NOTHING,
});
const run = `${Date.now()}-${process.pid}`;
const topic = `vitalis.smoke.${run}`;
const groupId = `vitalis-smoke-${run}`;
const N = 200;
const step = (msg) => console.log(`ok  ${msg}`);
const timeout = (ms, what) => new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout: ${what}`)), ms).unref());

const admin = kafka.admin();
const consumers = [];
let producer;
let txProducer;
try {
  await admin.connect();
  const cluster = await admin.describeCluster();
  step(`describeCluster: ${cluster.brokers.length} broker(s), controller ${cluster.controller}`);
  await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
  const meta = await admin.fetchTopicMetadata({ topics: [topic] });
  step(`createTopics + fetchTopicMetadata: ${meta.topics[0].partitions.length} partitions`);
  const configs = await admin.describeConfigs({ resources: [{ type: 2, name: topic }], includeSynonyms: false });
  step(`describeConfigs: ${configs.resources[0].configEntries.length} entries`);

  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = Array.from({ length: N }, (_, i) => ({ key: `p${i % 17}`, value: JSON.stringify({ i }), headers: { run } }));
  await producer.send({ topic, acks: -1, compression: CompressionTypes.GZIP, messages: messages.slice(0, N / 2) });
  await producer.send({ topic, acks: -1, messages: messages.slice(N / 2) });
  step(`idempotent produce: ${N} messages (half gzip), acks=all`);

  const seen = new Set();
  let resolveAll;
  const all = new Promise((r) => (resolveAll = r));
  const c1 = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000 });
  consumers.push(c1);
  await c1.connect();
  await c1.subscribe({ topic, fromBeginning: true });
  await c1.run({
    eachMessage: async ({ message }) => {
      if (message.headers.run?.toString() !== run) throw new Error('header lost');
      seen.add(JSON.parse(message.value.toString()).i);
      if (seen.size === N) resolveAll();
    },
  });
  await Promise.race([all, timeout(30_000, `consume ${N} messages (got ${seen.size})`)]);
  step(`consumer group ${groupId}: consumed ${seen.size}/${N}`);

  // A second member joins: the group rebalances and both members get partitions.
  const assigned = new Map();
  const c2 = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 1_000 });
  consumers.push(c2);
  for (const [name, c] of [
    ['c1', c1],
    ['c2', c2],
  ]) {
    c.on(c.events.GROUP_JOIN, (e) => assigned.set(name, (e.payload.memberAssignment[topic] ?? []).length));
  }
  await c2.connect();
  await c2.subscribe({ topic, fromBeginning: true });
  await c2.run({ eachMessage: async () => {} });
  await Promise.race([
    (async () => {
      while (!(assigned.get('c1') > 0 && assigned.get('c2') > 0)) await new Promise((r) => setTimeout(r, 100));
    })(),
    timeout(30_000, 'rebalance to two members'),
  ]);
  step(`rebalance: c1 has ${assigned.get('c1')} partition(s), c2 has ${assigned.get('c2')}`);
  const groups = await admin.describeGroups([groupId]);
  step(
    `describeGroups: state ${groups.groups[0].state}, ${groups.groups[0].members.length} members, protocol ${groups.groups[0].protocol}`,
  );
  for (const c of consumers) await c.disconnect();
  consumers.length = 0;

  const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
  const committed = offsets[0].partitions.reduce((s, p) => s + Number(p.offset), 0);
  if (committed !== N) throw new Error(`committed offsets sum to ${committed}, want ${N}`);
  step(`committed offsets read back: sum ${committed}`);

  txProducer = kafka.producer({ transactionalId: `vitalis-smoke-tx-${run}`, idempotent: true, maxInFlightRequests: 1 });
  await txProducer.connect();
  const tx = await txProducer.transaction();
  await tx.send({ topic, messages: [{ key: 'tx', value: 'tx' }] });
  await tx.commit();
  step('transactional produce + commit');

  await admin.deleteGroups([groupId]);
  await admin.deleteTopics({ topics: [topic] });
  step('deleteGroups + deleteTopics');
  console.log(`kafka smoke: PASS against ${broker}`);
} catch (err) {
  console.error(`kafka smoke: FAIL against ${broker}: ${err.stack ?? err}`);
  process.exitCode = 1;
} finally {
  for (const c of consumers) await c.disconnect().catch(() => {});
  await producer?.disconnect().catch(() => {});
  await txProducer?.disconnect().catch(() => {});
  await admin.disconnect().catch(() => {});
}
process.exit(process.exitCode ?? 0);
