// Exit 0 once the Kafka broker answers a metadata request (listTopics), 1 otherwise.
// Readiness means "serves clients", not "the process exists".
import { Kafka, logLevel } from 'kafkajs';

const broker = process.argv[2] ?? '127.0.0.1:59092';
const kafka = new Kafka({ brokers: [broker], clientId: 'vitalis-ready', logLevel: logLevel.NOTHING, connectionTimeout: 1000, retry: { retries: 0 } });
const admin = kafka.admin();
try {
  await admin.connect();
  await admin.listTopics();
  await admin.disconnect();
  process.exit(0);
} catch {
  process.exit(1);
}
