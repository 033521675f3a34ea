/**
 * One live subscription of the hub (hub.ts): the messages it is sent, the filter and options it was
 * opened with, and `Sub`, which holds its cursor, buffers live events while its replay runs, and
 * keeps its bounded queue (backpressure: `lagged` and close on overflow, resume() when the sink drains).
 */
import {
  cloneCursor,
  encodeCursor,
  eventJson,
  isAfter,
  type AlarmNoticeEventName,
  type AlertData,
  type CriticalResultEventName,
  type Cursor,
  type LiveEvent,
} from '@vitalis/live';
import type { VitalsObservation } from '@vitalis/schemas';
import type { ReplayTruncated } from './resume';
import type { TokenBinding } from '../access/token-watch';

export type LiveMessage =
  | { type: 'observation'; id: string; data: VitalsObservation; json: string }
  | { type: 'alert'; id: string; event: string; data: AlertData; json: string }
  | { type: 'lagged'; last_id: string | null; json: string }
  /** First message of a resumed subscription whose id was older than the replay window (no id: the client's own stays valid). */
  | { type: 'replay-truncated'; data: ReplayTruncated; json: string }
  /** A critical diagnostic result raised, escalated or acknowledged (@vitalis/live critical.ts): a live notice, no id. */
  | { type: 'critical-result'; event: CriticalResultEventName; data: Record<string, unknown>; json: string }
  /**
   * A bedside alarm's lifecycle outside the ingest's batches (@vitalis/live critical.ts AlarmNotice):
   * acknowledged (gateway), escalated (projector), a device-disconnect raised or cleared (watchdog).
   * A live notice, no id: the alarm's state is in its patient's alert stream (GET /api/v1/alarms).
   */
  | { type: 'alarm'; event: AlarmNoticeEventName; data: Record<string, unknown>; json: string };

/** What the replay of a resumed subscription delivered from the append log (before it went live). */
export interface ReplaySummary {
  events: number;
  byPatient: Map<string, number>;
}

export type CloseReason = 'lagged' | 'revoked' | 'expired' | 'shutdown' | 'error';

export interface LiveSink {
  /** Delivers one message; false = the transport's buffer is full (the hub then waits for resume()). */
  send(msg: LiveMessage): boolean;
  /**
   * Delivers several messages in one transport write, in order; false as for send (all of them
   * were taken). Without it the hub calls send for each.
   */
  sendBatch?(msgs: LiveMessage[]): boolean;
  /** The hub ended the subscription (after a `lagged` message when it fell behind). */
  close(reason: CloseReason): void;
}

export interface LiveFilter {
  patients: string[];
  /** Only these codes (observations); all when absent. */
  codes?: string[];
  /** Include alert events (default true). */
  alerts?: boolean;
  /** Include critical diagnostic results (default false: only for callers holding read:diagnostics). */
  criticalResults?: boolean;
  /** Include bedside alarm lifecycle notices (default false: only for callers the access policy lets read alarms). */
  alarms?: boolean;
  /** Resume after this id (an event id we issued, or its decoded cursor); absent = from now. */
  after?: Cursor | string;
}

/** The transports that subscribe (counted apart in the metrics). */
export type LiveTransport = 'sse' | 'ws' | 'mcp';

export interface SubscribeOptions extends LiveFilter {
  /** Which transport holds the subscription (metrics only). */
  transport?: LiveTransport;
  /**
   * The token behind the stream: closed when it expires, or when it or any token it was exchanged
   * from (`derivedFrom`) is revoked.
   */
  token?: TokenBinding;
  /** Queue bound (messages not yet accepted by the transport). */
  maxQueue?: number;
  /** Sent before anything else (the client's resume id was older than the replay window). */
  notice?: ReplayTruncated;
  /**
   * Called once the replay after `after` is done, before the subscription goes live (the replay's
   * audit). A rejection ends the subscription with `error`: nothing live follows an unrecorded replay.
   */
  onReplayed?: (summary: ReplaySummary) => Promise<void>;
}

export interface Subscription {
  readonly id: number;
  /**
   * Resolves once the subscription's starting point is fixed (for a fresh one: the patients' latest
   * stored positions). Tell the client the stream is open only after it: "from now" then means
   * "from when you saw it open", so an observation produced right after is never taken for history.
   */
  readonly ready: Promise<void>;
  /** The id of the last message handed to the sink (null before the first). */
  readonly lastId: string | null;
  resume(): void;
  unsubscribe(): void;
}

export interface HubStats {
  subscribers: number;
  batches: number;
  delivered: number;
  lagged: number;
  gaps: number;
  resyncs: number;
}

/** What a subscription needs of the hub that owns it: the counters it adds to, and its removal. */
export interface SubscriptionOwner {
  readonly stats: HubStats;
  remove(sub: Sub): void;
}

type Queued = Exclude<LiveMessage, { type: 'lagged' }>;
/** The resume id a message carries (a notice carries none: the client's last id stays its position). */
const idOf = (m: Queued): string | undefined =>
  m.type === 'replay-truncated' || m.type === 'critical-result' || m.type === 'alarm' ? undefined : m.id;

/** When the device says the event happened: an observation's effective time, an alert's triggering observation's. */
export const effectiveAt = (e: LiveEvent): number =>
  Date.parse(e.kind === 'observation' ? e.data.effective_at : e.data.triggered_by.effective_at);

const json = new WeakMap<object, string>();
/** Serialised once per event, shared by every subscriber; the same bytes from the live and the replay path (`eventJson`). */
const jsonOf = (data: object) => {
  let s = json.get(data);
  if (s === undefined) json.set(data, (s = eventJson(data)));
  return s;
};

/** One subscriber: its cursor, its replay-then-live mode, its bounded queue and its sink. */
export class Sub implements Subscription {
  cursor: Cursor;
  mode: 'replaying' | 'live' = 'replaying';
  pending: LiveEvent[] = [];
  pendingOverflow = false;
  queue: Queued[] = [];
  paused = false;
  /** A batch is being dispatched to it: messages wait in the queue for one hand-over at uncork(). */
  corked = false;
  closed = false;
  /** Messages handed to the sink so far (a delivery span counts its batch's share). */
  handed = 0;
  lastId: string | null = null;
  ready: Promise<void>;
  markReady!: () => void;
  #drained?: () => void;

  /** The token the stream is bound to (the hub's TokenWatch ends it). */
  get token(): TokenBinding | undefined {
    return this.opts.token;
  }

  constructor(
    readonly id: number,
    readonly opts: SubscribeOptions,
    readonly sink: LiveSink,
    readonly hub: SubscriptionOwner,
    readonly maxQueue: number,
  ) {
    this.cursor = opts.after ? cloneCursor(opts.after as Cursor) : new Map();
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  wants(e: LiveEvent): boolean {
    if (e.kind === 'alert') return this.opts.alerts !== false;
    return !this.opts.codes?.length || this.opts.codes.includes(e.data.code);
  }

  /** A live event from the channel. */
  offer(e: LiveEvent): void {
    if (this.closed || !this.wants(e)) return;
    if (this.mode === 'replaying') {
      if (this.pending.length >= this.maxQueue) {
        this.pending = []; // the log has them: replay again instead of holding them
        this.pendingOverflow = true;
      } else if (!this.pendingOverflow) this.pending.push(e);
      return;
    }
    this.deliver(e);
  }

  /** Hands the event on unless it was delivered already; true when it was handed on. */
  deliver(e: LiveEvent): boolean {
    if (!isAfter(this.cursor, e.partition, e)) return false; // already delivered (replay/live overlap, redelivery)
    this.cursor.set(e.partition, { offset: e.offset, k: e.k });
    const id = encodeCursor(this.cursor);
    const msg: Queued =
      e.kind === 'observation'
        ? { type: 'observation', id, data: e.data, json: jsonOf(e.data) }
        : { type: 'alert', id, event: e.type, data: e.data, json: jsonOf(e.data) };
    this.enqueue(msg);
    return true;
  }

  enqueue(msg: Queued): void {
    if (this.closed) return;
    this.queue.push(msg);
    // the bound counts what waits behind a full transport (a corked batch is handed over whole)
    if (this.paused) {
      if (this.queue.length > this.maxQueue) this.lag();
    } else if (!this.corked) this.flush();
  }

  cork(): void {
    this.corked = true;
  }

  uncork(): void {
    this.corked = false;
    this.flush();
  }

  /** Hands the queue to the sink: whole in one batch when it takes batches, else one by one until it is full. */
  flush(): void {
    if (this.closed || this.corked) return;
    const sink = this.sink;
    while (!this.paused && this.queue.length > 0) {
      const msgs = sink.sendBatch && this.queue.length > 1 ? this.queue.splice(0) : this.queue.splice(0, 1);
      for (const m of msgs) this.lastId = idOf(m) ?? this.lastId;
      this.hub.stats.delivered += msgs.length;
      this.handed += msgs.length;
      // several only when the sink takes batches; one is sent alone
      const accepted = msgs.length > 1 && sink.sendBatch ? sink.sendBatch(msgs) : msgs.every((m) => sink.send(m));
      if (!accepted) this.paused = true;
    }
    if (!this.paused && this.queue.length === 0) this.#drained?.();
  }

  lag(): void {
    this.hub.stats.lagged += 1;
    this.queue = [];
    const last_id = this.lastId;
    this.sink.send({
      type: 'lagged',
      last_id,
      json: JSON.stringify({ last_id, reason: 'the subscriber fell behind; resume from last_id' }),
    });
    this.end('lagged');
  }

  resume(): void {
    if (this.closed) return;
    this.paused = false;
    this.flush();
  }

  /** Resolves when the transport has taken everything queued (replay pages wait on it). */
  drained(): Promise<void> {
    if (this.closed || (!this.paused && this.queue.length === 0)) return Promise.resolve();
    return new Promise((resolve) => (this.#drained = () => ((this.#drained = undefined), resolve())));
  }

  end(reason: CloseReason): void {
    if (this.closed) return;
    this.closed = true;
    this.markReady();
    this.#drained?.();
    this.hub.remove(this);
    this.sink.close(reason);
  }

  unsubscribe(): void {
    if (this.closed) return;
    this.closed = true;
    this.markReady();
    this.#drained?.();
    this.hub.remove(this);
  }
}
