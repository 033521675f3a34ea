/**
 * Live vitals over Server-Sent Events with automatic resume. The gateway numbers every event
 * (`id:`); after any disconnect (network drop, proxy timeout, gateway restart) the client
 * reconnects with `Last-Event-ID` set to the last id it delivered, and the gateway replays what
 * came after it, so the consumer sees every observation exactly once, in order. fetch + a
 * streaming parser rather than EventSource: EventSource cannot send an Authorization header.
 */
import { ProblemError } from './errors';
import type { Transport } from './http';
import { buildUrl } from './http';
import { sseMessages, type EventSourceMessage } from './sse';

export interface VitalsObservation {
  patient_id: string;
  device_id: string;
  seq: number;
  effective_at: string;
  code: string;
  unit: string;
  value?: number;
  waveform?: { origin: number; period_ms: number; samples: number[] };
  [key: string]: unknown;
}

/**
 * An alarm condition raised or cleared by the ingest (`data` of the gateway's alert event; the
 * conditions, priorities and onset delays: docs/alarms.md). Events written before the alarm
 * lifecycle carry `severity` only (high or medium): read `priority ?? severity`.
 */
export interface VitalsAlert {
  alert_id: string;
  /** The condition: spo2-low, hr-high, hr-low, rr-high, rr-low, sys-low, sys-high, temp-high, temp-low, news2-high. */
  rule: string;
  state: 'raised' | 'cleared';
  patient_id: string;
  /** IEC 60601-1-8 priority. */
  priority?: 'high' | 'medium' | 'low';
  /** The same as `priority` (the older field). */
  severity: string;
  kind?: 'physiological' | 'technical';
  /** Stays shown after the condition ends until a clinician acknowledges it. */
  latching?: boolean;
  /** The condition's name for people ("SpO2 low"). */
  label?: string;
  message: string;
  value: number;
  /** On a raise: when it escalates if nobody acknowledges it (null: never). */
  due_at?: string | null;
  [key: string]: unknown;
}

/** Observations the server did not replay: read them through REST (`vitals.all({ patient: patient_id, from, to })`). */
export interface ReplayGap {
  patient_id: string;
  /** Inclusive: the effective time of the first observation not replayed. */
  from: string;
  /** Exclusive. Rows near it may also come through the stream: a row is identified by (device_id, seq, effective_at). */
  to: string;
}

/** The `replay-truncated` event: the resume id was older than the server's replay window. */
export interface ReplayTruncated {
  /** The id the stream was resumed from. */
  last_event_id: string;
  /** Where the server's replay starts instead (the window's start). */
  resume_id: string;
  window_seconds: number;
  gaps: ReplayGap[];
  detail: string;
}

/**
 * One live event. `id` is the resume position: hand it back as `lastEventId` to continue after it.
 * `replay-truncated` (first, when the resume id was older than the server's replay window) carries
 * no id: the stream continues from the window's start, and `truncated.gaps` is what to read through
 * REST to fill the hole.
 */
export type LiveVitalsEvent =
  | { type: 'observation'; id: string; observation: VitalsObservation }
  | { type: 'alert'; id: string; alert: VitalsAlert }
  | { type: 'replay-truncated'; id?: undefined; truncated: ReplayTruncated }
  /**
   * A critical diagnostic result raised, escalated or acknowledged (with alerts on, for tokens holding
   * read:diagnostics): a live notice with no id; the report and the triage board hold it until acknowledged.
   */
  | { type: 'critical-result'; id?: undefined; critical: CriticalResultNotice };

/** The data of a `critical-result` event (docs/diagnostics.md). */
export interface CriticalResultNotice {
  event: 'CriticalResultRaised' | 'CriticalResultEscalated' | 'CriticalResultAcknowledged';
  critical_id: string;
  report_id: string;
  patient_id: string;
  [field: string]: unknown;
}

export interface LiveVitalsOptions {
  /** A patient id, or several (a ward stream). */
  patient: string | string[];
  /** Only these codes (LOINC / MDC); all when omitted. */
  codes?: string[];
  /** Also deliver alert events (raised/cleared); default false. */
  alerts?: boolean;
  /** Resume after this event id (e.g. persisted from an earlier session). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** First reconnect delay; doubles per failed attempt up to maxDelayMs; a server `retry:` overrides it. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Called on every (re)connection attempt failure before waiting; for logging/status UIs. */
  onDisconnect?: (error: unknown, attempt: number) => void;
  /** Called when a connection is established. */
  onConnect?: () => void;
  /** The stream route (default `/api/v1/vitals/stream`). */
  path?: string;
}

export const STREAM_PATH = '/api/v1/vitals/stream';

/** Errors that reconnecting cannot fix (bad request, missing scope, unknown patient). */
function isFatal(err: unknown): boolean {
  return (
    err instanceof ProblemError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 408 && err.status !== 429
  );
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

/** Why the server ended a stream (`event: closed`); revoked/expired mean: get a new token. */
export type CloseReason = 'revoked' | 'expired' | 'shutdown' | string;

/** An SSE message as a live event; null for control messages (`lagged`, `closed`) and comments. */
export function toLiveEvent(msg: EventSourceMessage): LiveVitalsEvent | null {
  if (msg.event === 'replay-truncated' && msg.data) return { type: 'replay-truncated', truncated: JSON.parse(msg.data) as ReplayTruncated };
  if (msg.event === 'critical-result' && msg.data)
    return { type: 'critical-result', critical: JSON.parse(msg.data) as CriticalResultNotice };
  if (!msg.id || !msg.data) return null;
  if (msg.event === 'observation') return { type: 'observation', id: msg.id, observation: JSON.parse(msg.data) as VitalsObservation };
  if (msg.event === 'alert') return { type: 'alert', id: msg.id, alert: JSON.parse(msg.data) as VitalsAlert };
  return null;
}

/** The server ended the stream on purpose; the loop reconnects from the last delivered id. */
class StreamClosed extends Error {
  constructor(readonly reason: CloseReason) {
    super(`live stream closed by the server: ${reason}`);
  }
}

/**
 * Async iterator over live observations of one patient; never ends on its own except through
 * `signal` (or a fatal 4xx). `for await (const e of liveVitals(api, { patient })) ...`
 */
export async function* liveVitals(transport: Transport, opts: LiveVitalsOptions): AsyncGenerator<LiveVitalsEvent> {
  let lastEventId = opts.lastEventId;
  let delay = opts.initialDelayMs ?? 250;
  const maxDelay = opts.maxDelayMs ?? 10_000;
  let attempt = 0;
  while (!opts.signal?.aborted) {
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      const url = buildUrl(
        transport.baseUrl,
        opts.path ?? STREAM_PATH,
        {},
        { patient: opts.patient, code: opts.codes, alerts: String(opts.alerts ?? false) },
      );
      const res = await transport.send('GET', url, undefined, headers, abort.signal);
      opts.onConnect?.();
      attempt = 0;
      delay = opts.initialDelayMs ?? 250;
      if (!res.body) throw new Error(`the live stream ${url} answered ${res.status} without a body`);
      for await (const msg of sseMessages(res.body, (ms) => (delay = ms))) {
        const e = toLiveEvent(msg);
        if (e) {
          if (e.id !== undefined) lastEventId = e.id; // a notice (replay-truncated, critical-result) moves nothing: the next event's id does
          yield e;
        }
        // `lagged`: we fell behind and the server drops us; resuming from our last id catches up.
        else if (msg.event === 'closed' || msg.event === 'lagged')
          throw new StreamClosed(msg.event === 'closed' ? (JSON.parse(msg.data) as { reason: string }).reason : 'lagged');
      }
      throw new Error('live stream ended');
    } catch (err) {
      if (opts.signal?.aborted) return;
      if (isFatal(err)) throw err;
      if (err instanceof StreamClosed && (err.reason === 'revoked' || err.reason === 'expired')) transport.auth?.invalidate();
      attempt++;
      opts.onDisconnect?.(err, attempt);
      await sleep(attempt === 1 ? Math.min(delay, 250) : delay, opts.signal);
      delay = Math.min(maxDelay, delay * 2);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      abort.abort();
    }
  }
}

export interface Subscription {
  close(): void;
  /** The id of the last delivered event (persist it to resume later). */
  readonly lastEventId: string | undefined;
  /** Resolves when the subscription has stopped (closed, or a fatal error). */
  readonly done: Promise<void>;
}

/** Callback form of liveVitals (used by the React hook). */
export function subscribeVitals(
  transport: Transport,
  opts: Omit<LiveVitalsOptions, 'signal'> & { onEvent: (e: LiveVitalsEvent) => void; onError?: (err: unknown) => void },
): Subscription {
  const controller = new AbortController();
  let last = opts.lastEventId;
  const done = (async () => {
    try {
      for await (const e of liveVitals(transport, { ...opts, signal: controller.signal })) {
        if (e.type !== 'replay-truncated') last = e.id;
        opts.onEvent(e);
      }
    } catch (err) {
      opts.onError?.(err);
    }
  })();
  return {
    close: () => controller.abort(),
    get lastEventId() {
      return last;
    },
    done,
  };
}
