/**
 * kafkajs 2.x can leave a request's promise without a handler when a broker's connection closes
 * under it: the connection rejects every request in flight (KafkaJSConnectionClosedError), and a
 * request its caller no longer awaits (a retried fetch, a heartbeat, a metadata refresh raced by a
 * reconnect) becomes an unhandled rejection, which ends a Node process (tulios/kafkajs#702, #796,
 * #939). The ingest met it in a test that cuts the broker off: it exited instead of turning
 * unready and waiting for the broker. The clients reconnect and retry on their own, and whoever
 * awaits a request sees its failure; a stray transport failure is only logged. Any other unhandled
 * rejection still ends the process, as Node's default does.
 */
import kafkajs from 'kafkajs';
import type { Logger } from '@vitalis/log';

// kafkajs is CommonJS and spreads its error classes into its exports: named ESM imports cannot see them
const { KafkaJSConnectionError, KafkaJSRequestTimeoutError } = kafkajs;

/** A request that failed because its broker connection closed, failed or timed out (nothing about the request itself). */
const isKafkaTransportFailure = (reason: unknown): boolean =>
  reason instanceof KafkaJSConnectionError || reason instanceof KafkaJSRequestTimeoutError;

let installed = false;

/** Installs the process's unhandled-rejection rule once: a stray Kafka transport failure is logged, anything else is thrown (the process ends). */
export function tolerateStrayKafkaRejections(logger: Pick<Logger, 'warn'>): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    if (!isKafkaTransportFailure(reason)) throw reason;
    logger.warn(
      { err: reason },
      'a Kafka request nobody awaited failed with its broker connection (kafkajs); the clients reconnect and retry',
    );
  });
}
