// Exit 0 once the Kafka broker serves clients (a kafkajs admin listTopics answers), 1 otherwise.
// Readiness means "answers the apps' own client", not "the process exists" or "the port is open".
//   node infra/bin/kafka-ready.mjs [127.0.0.1:59092]
import { Kafka, logLevel } from 'kafkajs';

const broker = process.argv[2] ?? `127.0.0.1:${process.env.VITALIS_KAFKA_PORT ?? 59092}`;
setTimeout(() => process.exit(1), 8_000).unref(); // never hang the caller
const kafka = new Kafka({
  brokers: [broker],
  clientId: 'vitalis-ready',
  logLevel: logLevel.NOTHING,
  connectionTimeout: 1_000,
  requestTimeout: 5_000,
  retry: { retries: 0 },
});
const admin = kafka.admin();
try {
  await admin.connect();
  await admin.listTopics();
  await admin.disconnect();
  process.exit(0);
} catch {
  process.exit(1);
}
