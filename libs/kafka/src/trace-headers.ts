/**
 * Traces across Kafka (@vitalis/tracing), for every producer and consumer of the vitals topics:
 *  - `sendTraced`: one PRODUCER span per send (a POST's batch, a device frame, a simulator tick),
 *    its W3C `traceparent` copied into every record's headers;
 *  - `startBatchSpan`: one CONSUMER span per fetched record batch (never one per record: the path
 *    carries tens of thousands of observations a second), linked to each distinct producer
 *    context among its records (capped at MAX_LINKS), and the child of that context when all
 *    records share one (one POST: one trace from the request to the delivery).
 * With tracing off both cost one property read: no span, no header, no parse.
 */
import { ROOT_CONTEXT, SpanKind, trace, type Context, type Link, type Span } from '@opentelemetry/api';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import { inSpan, MAX_LINKS, SPAN_ATTR, remoteSpanContext, traceHeadersOf, type Tracing } from '@vitalis/tracing';
import type { SentBatch, VitalsProducer, VitalsRecord } from './producer';

export const TRACEPARENT_HEADER = 'traceparent';

/** producer.send with a PRODUCER span; `parent`: the request's span context (ROOT_CONTEXT: a new trace). */
export async function sendTraced(
  producer: Pick<VitalsProducer, 'send'>,
  record: VitalsRecord,
  tracing: Tracing,
  parent: Context = ROOT_CONTEXT,
): Promise<SentBatch[]> {
  if (!tracing.enabled) return producer.send(record);
  const span = tracing.tracer.startSpan(
    `send ${record.topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        [SPAN_ATTR.messagingSystem]: 'kafka',
        [SPAN_ATTR.messagingOperationName]: 'send',
        [SPAN_ATTR.messagingOperationType]: 'send',
        [SPAN_ATTR.messagingDestination]: record.topic,
        [SPAN_ATTR.messagingBatchCount]: record.messages.length,
      },
    },
    parent,
  );
  const headers = traceHeadersOf(trace.setSpan(parent, span));
  return inSpan(span, () =>
    producer.send({ ...record, messages: record.messages.map((m) => ({ ...m, headers: { ...m.headers, ...headers } })) }),
  );
}

const headerText = (headers: IHeaders | undefined, name: string): string | undefined => {
  const v = headers?.[name];
  const one = Array.isArray(v) ? v[0] : v;
  return one === undefined ? undefined : String(one);
};

/** Where a batch's records came from: the distinct producer contexts (as links) and the parent to use. */
export function batchOrigin(messages: readonly Pick<KafkaMessage, 'headers'>[]): { parent: Context; links: Link[]; dropped: number } {
  // Compare the raw header first: a batch is mostly a few sends, each parsed once; neighbours
  // mostly share a send, so the bytes are compared with the previous record's before any decoding.
  const seen = new Set<string>();
  const links: Link[] = [];
  let dropped = 0;
  let previous: unknown;
  for (const m of messages) {
    const raw = m.headers?.[TRACEPARENT_HEADER];
    if (raw === undefined || raw === previous || (Buffer.isBuffer(raw) && Buffer.isBuffer(previous) && raw.equals(previous))) continue;
    previous = raw;
    const traceparent = headerText(m.headers, TRACEPARENT_HEADER);
    if (traceparent === undefined || seen.has(traceparent)) continue;
    seen.add(traceparent);
    if (links.length >= MAX_LINKS) {
      dropped += 1;
      continue;
    }
    const context = remoteSpanContext({ traceparent, tracestate: headerText(m.headers, 'tracestate') });
    if (context) links.push({ context });
  }
  const [only] = links;
  const parent = only && links.length === 1 && dropped === 0 ? trace.setSpanContext(ROOT_CONTEXT, only.context) : ROOT_CONTEXT;
  return { parent, links, dropped };
}

/** The CONSUMER span of one fetched record batch (undefined with tracing off); the caller ends it. */
export function startBatchSpan(
  tracing: Tracing,
  batch: { topic: string; partition: number; messages: readonly Pick<KafkaMessage, 'headers' | 'offset'>[] },
): Span | undefined {
  if (!tracing.enabled) return undefined;
  const { parent, links, dropped } = batchOrigin(batch.messages);
  return tracing.tracer.startSpan(
    `process ${batch.topic}`,
    {
      kind: SpanKind.CONSUMER,
      links,
      attributes: {
        [SPAN_ATTR.messagingSystem]: 'kafka',
        [SPAN_ATTR.messagingOperationName]: 'process',
        [SPAN_ATTR.messagingOperationType]: 'process',
        [SPAN_ATTR.messagingDestination]: batch.topic,
        [SPAN_ATTR.messagingPartition]: String(batch.partition),
        [SPAN_ATTR.messagingBatchCount]: batch.messages.length,
        ...(batch.messages[0] ? { [SPAN_ATTR.kafkaOffset]: Number(batch.messages[0].offset) } : {}),
        ...(dropped > 0 ? { [SPAN_ATTR.linksDropped]: dropped } : {}),
      },
    },
    parent,
  );
}
