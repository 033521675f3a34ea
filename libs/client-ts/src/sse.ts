/**
 * The one Server-Sent Events reader of the project: the TypeScript client's live vitals
 * (./stream.ts) and the gateway's UI cards (apps/gateway/src/ui/cards/shared/stream.ts, bundled
 * into each card document) both read a stream through it. It reads a `text/event-stream` body to
 * its end and yields each message (eventsource-parser: `id:`, `event:`, multi-line `data:`, CR/LF
 * line ends, comments and heartbeats skipped); a `retry:` field goes to `onRetry`. Browser- and
 * Node-safe: it uses only fetch-era globals (ReadableStream, TextDecoder).
 * The reconnect policy is the caller's: the client refreshes its token on a 401, a card (a fixed
 * token from its URL) stops on one.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export type { EventSourceMessage };

/** Every message of one SSE response body, in order, until the body ends (or its reader is cancelled). */
export async function* sseMessages(body: ReadableStream<Uint8Array>, onRetry?: (ms: number) => void): AsyncGenerator<EventSourceMessage> {
  const queue: EventSourceMessage[] = [];
  const parser = createParser({
    onEvent: (msg) => {
      queue.push(msg);
    },
    onRetry: (ms) => onRetry?.(ms),
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      for (const msg of queue.splice(0)) yield msg;
    }
  } finally {
    // The consumer stopped early (a `closed` event, an abort): release the body.
    reader.cancel().catch(() => undefined);
  }
}
