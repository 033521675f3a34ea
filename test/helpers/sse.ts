/** Reading a `text/event-stream` response body in tests. */

/** Feeds the body to an SSE parser until the stream ends or is aborted (an abort ends it quietly). */
export async function pumpSse(body: ReadableStream<Uint8Array>, parser: { feed: (chunk: string) => void }): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    /* aborted */
  }
}
