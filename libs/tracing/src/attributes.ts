/**
 * Every span attribute Vitalis sets, in one place (OpenTelemetry semantic-convention names where
 * one exists). The rule, as for metric labels: closed sets and counts only. A route pattern, never
 * the URL (a record's path carries the patient id, a query string may carry anything); a topic, a
 * partition, an offset, a count, a transport; never a patient id, a name, a token or an error
 * message (a database error can echo the row). test/integration/ops/tracing.test.ts fails on any
 * exported attribute not listed here.
 */
import { SpanStatusCode, type Span } from '@opentelemetry/api';

export const SPAN_ATTR = {
  httpMethod: 'http.request.method',
  /** The route pattern, e.g. /api/v1/patients/:id. */
  httpRoute: 'http.route',
  httpStatus: 'http.response.status_code',
  /** The error's class (e.g. KafkaJSError), never its message. */
  errorType: 'error.type',
  messagingSystem: 'messaging.system',
  messagingOperationName: 'messaging.operation.name',
  messagingOperationType: 'messaging.operation.type',
  messagingDestination: 'messaging.destination.name',
  messagingPartition: 'messaging.destination.partition.id',
  messagingBatchCount: 'messaging.batch.message_count',
  /** The first offset of a consumed record batch. */
  kafkaOffset: 'messaging.kafka.offset',
  /** Producer contexts a batch span links to beyond the cap (links are capped; the count is kept). */
  linksDropped: 'vitalis.links.dropped',
  /** sse, ws or mcp. */
  liveTransport: 'vitalis.live.transport',
  /** Events one delivery handed to one subscriber. */
  liveEvents: 'vitalis.live.events',
} as const;

/** Links one batch span keeps at most (a batch of 5,000 observations from 5,000 POSTs still exports small). */
export const MAX_LINKS = 128;

/** Marks a span failed with the error's class only (its message may carry data: never exported). */
export function spanFailed(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute(SPAN_ATTR.errorType, err instanceof Error ? err.name : typeof err);
}

/** Runs `fn` as the span's work: failed (by class) if it throws, ended either way. */
export async function inSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    spanFailed(span, err);
    throw err;
  } finally {
    span.end();
  }
}
