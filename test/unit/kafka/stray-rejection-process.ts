/**
 * A process for stray-rejections.test.ts: installs the rule, then leaves one rejection unhandled
 * (argv[2]: `closed` a connection closed under a request, `timeout` a request timed out, `other`
 * any other error) and, if it is still running 300 ms later, says so and exits 0.
 */
import kafkajs from 'kafkajs';

// kafkajs is CommonJS and spreads its error classes into its exports: named ESM imports cannot see them
const { KafkaJSConnectionError, KafkaJSRequestTimeoutError } = kafkajs;
import { tolerateStrayKafkaRejections } from '@vitalis/kafka';

tolerateStrayKafkaRejections({ warn: (_obj: unknown, msg?: string) => process.stdout.write(`warn: ${msg}\n`) } as never);
const kind = process.argv[2];
const reason =
  kind === 'closed'
    ? new KafkaJSConnectionError('Closed connection', { broker: '127.0.0.1:9' })
    : kind === 'timeout'
      ? new KafkaJSRequestTimeoutError('Request Fetch(key: 1, version: 11) timed out', {
          broker: '127.0.0.1:9',
          clientId: 'vitalis-test',
          correlationId: 1,
          createdAt: Date.now(),
          sentAt: Date.now(),
          pendingDuration: 0,
        })
      : new Error('a real bug');
void Promise.reject(reason);
setTimeout(() => {
  process.stdout.write('still running\n');
  process.exit(0);
}, 300);
