/**
 * Browser mode's live data: SSE over fetch (EventSource cannot send Authorization), read by the
 * TypeScript client's own reader (libs/client-ts/src/sse.ts, bundled into the card). The policy
 * around it is the card's: reconnect with `Last-Event-ID` after any drop, wait what the server's
 * `retry:` says (2 s until it says), follow `lagged` (resume from its `last_id`), and stop on
 * 400/401/403: the card's token comes from its URL and cannot be refreshed, so those never heal.
 */
import { sseMessages } from '@vitalis/client/sse';
import { ApiError, noToken, token } from './access';

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'error';

export interface StreamHandle {
  close(): void;
}

/** Follows `path`; every event goes to onEvent (data parsed as JSON when it is JSON), every state change to onState. */
export function stream(
  path: string,
  onEvent: (event: string, data: any, id: string | undefined) => void,
  onState?: (state: StreamState, err?: unknown) => void,
): StreamHandle {
  let lastId: string | null = null;
  let stopped = false;
  let ctrl: AbortController | null = null;
  let retryMs = 2000;

  async function read(): Promise<void> {
    ctrl = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${token}` };
    if (lastId) headers['last-event-id'] = lastId;
    onState?.('connecting');
    const res = await fetch(path, { headers, signal: ctrl.signal });
    if (!res.ok || !res.body) {
      const p = await res.json().catch(() => null);
      throw new ApiError((p && (p.detail || p.title)) || `stream refused: HTTP ${res.status}`, res.status, p);
    }
    onState?.('live');
    for await (const msg of sseMessages(res.body, (ms) => (retryMs = ms))) {
      if (msg.id) lastId = msg.id;
      let data: any;
      try {
        data = JSON.parse(msg.data);
      } catch {
        data = msg.data;
      }
      if (msg.event === 'lagged' && data && data.last_id) lastId = data.last_id;
      onEvent(msg.event ?? 'message', data, msg.id);
    }
  }

  function connect(): void {
    if (stopped) return;
    if (!token) {
      onState?.('error', noToken());
      return;
    }
    read().then(() => retry(null), retry);
  }

  function retry(err: unknown): void {
    if (stopped) return;
    // 400/401/403 will not heal by retrying.
    const status = err instanceof ApiError ? err.status : 0;
    if (status === 401 || status === 403 || status === 400) {
      onState?.('error', err);
      return;
    }
    onState?.('reconnecting', err);
    setTimeout(connect, retryMs);
  }

  connect();
  return {
    close: () => {
      stopped = true;
      ctrl?.abort();
    },
  };
}
