/**
 * The gateway's live hub: one Redis pub/sub subscription per gateway (the ingest publishes each
 * committed batch), dispatch by patient id to local subscribers, and the resume rule. Transport
 * agnostic: SSE, WebSocket and MCP (resources/subscribe) all call `subscribe(filter, sink)`.
 *
 * Resume without gap or duplicate: a subscription registers for live events FIRST (buffering
 * them), then reads the append log after its cursor page by page, then flushes the buffer,
 * dropping what the replay already delivered (position <= cursor). Live events are published only
 * after they are committed, so anything not yet in the log when the replay read it is in the buffer.
 * The same path serves a fresh subscription (cursor = the patients' latest positions), a gap seen
 * on the channel (a lost message: next.first > previous.last + 1), and a Redis reconnect.
 *
 * Backpressure: each subscription has a bounded queue; the sink says when its transport buffer is
 * full (send → false) and calls resume() when drained. When the queue overflows the subscriber
 * gets a `lagged` message carrying the last id it was sent, and is closed; it resumes from that id.
 *
 * One write per subscriber per batch: what one channel message (or one replay page) brings a
 * subscriber is handed to its sink in one `sendBatch` (SSE: one write of the joined frames;
 * WebSocket: the frames inside one cork), not one call per event. The queue bound still counts messages.
 *
 * Traces (off by default): a channel message carries the ingest's publish span (LiveBatch.trace);
 * each subscriber a message's events are handed to gets one CONSUMER span, `deliver <transport>`,
 * LINKED to it (not its child: a popular patient's thousand subscribers would make one POST's
 * trace a thousand spans wide). Events that wait behind a full transport or a resume's replay go
 * out later without a span of their own.
 *
 * Its two inputs are interfaces: the replay source (replay.ts: the append log) and the fan-out
 * channel (live-channel.ts: Redis pub/sub), so these rules are unit tested with in-memory ones.
 *
 * The subscription itself (its queue, its replay-then-live mode) is in hub-subscription.ts; its types
 * are re-exported here, so importers keep importing from hub.ts.
 */
import { ROOT_CONTEXT, SpanKind, TraceFlags, type SpanContext } from '@opentelemetry/api';
import type { Pool } from '@vitalis/db';
import type { Logger } from '@vitalis/log';
import type { Redis } from '@vitalis/redis';
import { decodeAlarmNotice, decodeBatch, decodeCriticalNotice, decodeCursor, isAfter, type LiveEvent } from '@vitalis/live';
import { remoteSpanContext, SPAN_ATTR, TRACING_OFF, type Tracing } from '@vitalis/tracing';
import { redisLiveChannel, type LiveChannel } from './live-channel';
import { appendLogReplay, type ReplaySource } from './replay';
import { TokenWatch } from '../access/token-watch';
import { effectiveAt, Sub } from './hub-subscription';
import type { LiveMessage, CloseReason, LiveSink, LiveTransport, SubscribeOptions, Subscription, HubStats } from './hub-subscription';

export type {
  LiveMessage,
  ReplaySummary,
  CloseReason,
  LiveSink,
  LiveFilter,
  LiveTransport,
  SubscribeOptions,
  Subscription,
  HubStats,
} from './hub-subscription';

/** The gateway's inputs: the append log and the Redis channel of `topic`. */
interface HubStores {
  pool: Pool;
  redis: Redis;
  topic: string;
}

/** Any replay source and channel (the unit tests' in-memory ones). */
interface HubInputs {
  replay: ReplaySource;
  channel: LiveChannel;
}

export type HubOptions = (HubStores | HubInputs) & {
  logger: Logger;
  maxQueue?: number;
  replayPageSize?: number;
  /** Which token ids are revoked (one round trip for all open streams). */
  revokedAmong?: (ids: string[]) => Promise<Set<string>>;
  tokenCheckMs?: number;
  /**
   * Told once per event the hub hands to its local subscribers, with the seconds since the event's
   * effective time (device clock): the metrics' device-to-subscriber and alert delivery latencies.
   */
  onHandOver?: (event: LiveEvent, seconds: number) => void;
  /** Delivery spans linked to the publish (off by default). */
  tracing?: Tracing;
};

export class LiveHub {
  readonly stats: HubStats = { subscribers: 0, batches: 0, delivered: 0, lagged: 0, gaps: 0, resyncs: 0 };
  readonly #byPatient = new Map<string, Set<Sub>>();
  readonly #subs = new Set<Sub>();
  readonly #lastOffset = new Map<number, number>();
  /** Partition of each watched patient, as seen on the channel (a gap refills only those affected). */
  readonly #partitionOf = new Map<string, number>();
  readonly #replay: ReplaySource;
  readonly #channel: LiveChannel;
  #nextId = 1;
  readonly #tokens: TokenWatch;
  readonly #maxQueue: number;
  readonly #pageSize: number;
  readonly #tracing: Tracing;

  constructor(private readonly opts: HubOptions) {
    this.#maxQueue = opts.maxQueue ?? 4_096;
    this.#pageSize = opts.replayPageSize ?? Math.max(1, Math.min(1_000, Math.floor(this.#maxQueue / 2)));
    const inputs =
      'replay' in opts ? opts : { replay: appendLogReplay(opts.pool, opts.topic), channel: redisLiveChannel(opts.redis, opts.topic) };
    this.#replay = inputs.replay;
    this.#channel = inputs.channel;
    this.#tracing = opts.tracing ?? TRACING_OFF;
    this.#tokens = new TokenWatch({ logger: opts.logger, revokedAmong: opts.revokedAmong, checkMs: opts.tokenCheckMs });
  }

  /** Connects the fan-out channel and starts watching tokens. */
  async start(): Promise<void> {
    await this.#channel.start({
      message: (raw) => this.#onBatch(raw),
      critical: (raw) => this.#onClinicalNotice(raw),
      // messages published while the channel was down are lost: every subscriber refills from the log
      reconnected: () => this.#resyncAll('channel reconnect'),
    });
    this.#tokens.start();
  }

  async close(): Promise<void> {
    this.#tokens.stop();
    for (const s of [...this.#subs]) s.end('shutdown');
    this.#channel.close();
  }

  /** Opens a subscription: replays after `filter.after` (or starts from now), then goes live. */
  subscribe(options: SubscribeOptions, sink: LiveSink): Subscription {
    if (typeof options.after === 'string') {
      const after = decodeCursor(options.after);
      if (!after) throw new Error(`not a live stream id: ${options.after.slice(0, 64)}`);
      options = { ...options, after };
    }
    const s = new Sub(this.#nextId++, options, sink, this, options.maxQueue ?? this.#maxQueue);
    this.#subs.add(s);
    this.#tokens.add(s);
    this.stats.subscribers = this.#subs.size;
    for (const p of new Set(options.patients)) {
      let set = this.#byPatient.get(p);
      if (!set) this.#byPatient.set(p, (set = new Set()));
      set.add(s);
    }
    void this.#catchUp(s, !options.after, true);
    return s;
  }

  /** Callback form (e.g. MCP notifications): the callback never pushes back; returns unsubscribe. */
  subscribeCallback(
    options: SubscribeOptions,
    onMessage: (msg: LiveMessage) => void,
    onClose?: (reason: CloseReason) => void,
  ): (() => void) & { ready: Promise<void> } {
    const sub = this.subscribe(options, { send: (m) => (onMessage(m), true), close: (r) => onClose?.(r) });
    return Object.assign(() => sub.unsubscribe(), { ready: sub.ready });
  }

  /** Open subscriptions per transport (counted at scrape time: no bookkeeping on the hot path). */
  subscribersByTransport(): Record<LiveTransport | 'other', number> {
    const counts = { sse: 0, ws: 0, mcp: 0, other: 0 };
    for (const s of this.#subs) counts[s.opts.transport ?? 'other'] += 1;
    return counts;
  }

  remove(s: Sub): void {
    if (!this.#subs.delete(s)) return;
    this.#tokens.delete(s);
    for (const p of new Set(s.opts.patients)) {
      const set = this.#byPatient.get(p);
      set?.delete(s);
      if (set?.size === 0) {
        this.#byPatient.delete(p);
        this.#partitionOf.delete(p);
      }
    }
    this.stats.subscribers = this.#subs.size;
  }

  /**
   * Replay from the log after the cursor, then flush what arrived live meanwhile. `initial`: the
   * subscription's first catch-up (its notice first; a resumed one's replay reported to onReplayed),
   * not a refill after a gap.
   */
  async #catchUp(s: Sub, fresh: boolean, initial = false): Promise<void> {
    try {
      if (fresh) {
        const start = await this.#replay.latest(s.opts.patients);
        for (const [p, pos] of start) if (isAfter(s.cursor, p, pos)) s.cursor.set(p, pos);
      }
      s.markReady();
      // told before the first replayed event, after the transport saw the subscription open (its first page is read meanwhile)
      let notice = initial ? s.opts.notice : undefined;
      let replayed = initial && !fresh && s.opts.onReplayed ? new Map<string, number>() : undefined;
      for (;;) {
        if (s.closed) return;
        const { events, more } = await this.#replay.page({
          patients: s.opts.patients,
          codes: s.opts.codes,
          alerts: s.opts.alerts !== false,
          after: s.cursor,
          limit: this.#pageSize,
        });
        if (s.closed) return;
        s.cork(); // the page (and the notice before it) in one write
        if (notice) {
          s.enqueue({ type: 'replay-truncated', data: notice, json: JSON.stringify(notice) });
          notice = undefined;
        }
        for (const e of events) if (s.deliver(e) && replayed) replayed.set(e.patient_id, (replayed.get(e.patient_id) ?? 0) + 1);
        s.uncork();
        if (more) {
          await s.drained();
          continue;
        }
        if (s.pendingOverflow) {
          s.pendingOverflow = false;
          s.pending = [];
          continue;
        }
        if (replayed) {
          const byPatient = replayed;
          replayed = undefined; // pages read after this (a refill that raced the audit) are not the client's replay
          await s.opts.onReplayed?.({ events: [...byPatient.values()].reduce((a, b) => a + b, 0), byPatient }); // counted only when given
          if (s.closed) return;
          if (s.pendingOverflow) continue; // a refill was asked for while the audit was written
        }
        break;
      }
      const pending = s.pending;
      s.pending = [];
      s.mode = 'live';
      s.cork();
      for (const e of pending) s.deliver(e);
      s.uncork();
    } catch (err) {
      s.markReady();
      if (s.closed) return; // ended meanwhile (client gone, shutdown): nothing to report
      this.opts.logger.error({ err, subscription: s.id }, 'live replay failed; closing the stream');
      s.end('error');
    }
  }

  #resync(s: Sub): void {
    if (s.closed || s.mode === 'replaying') {
      // a replay is running: make it loop once more
      s.pendingOverflow = true;
      s.pending = [];
      return;
    }
    this.stats.resyncs += 1;
    s.mode = 'replaying';
    void this.#catchUp(s, false);
  }

  /** Refills from the log every subscriber that may watch a patient of `partition` (all when undefined). */
  #resyncAll(why: string, partition?: number): void {
    let n = 0;
    for (const s of this.#subs) {
      const affected = partition === undefined || s.opts.patients.some((p) => (this.#partitionOf.get(p) ?? partition) === partition);
      if (affected) {
        n += 1;
        this.#resync(s);
      }
    }
    this.opts.logger.warn({ why, subscribers: n }, 'live: refilling subscribers from the append log');
  }

  #onBatch(raw: string): void {
    const batch = decodeBatch(raw);
    if (!batch) return;
    this.stats.batches += 1;
    const last = this.#lastOffset.get(batch.partition);
    if (last !== undefined && batch.first > last + 1) {
      // A message was lost (publish failure, missed while reconnecting): refill from the log.
      this.stats.gaps += 1;
      this.#resyncAll(`gap in partition ${batch.partition}: ${last + 1}..${batch.first - 1}`, batch.partition);
    }
    if (last === undefined || batch.last > last) this.#lastOffset.set(batch.partition, batch.last);
    const now = this.opts.onHandOver ? Date.now() : 0;
    // a publish its trace's sampler dropped gets no delivery spans either (they would be orphans)
    const linked = this.#tracing.enabled && batch.trace ? remoteSpanContext({ traceparent: batch.trace }) : undefined;
    const origin = linked && linked.traceFlags & TraceFlags.SAMPLED ? linked : undefined;
    const startTime = origin ? Date.now() : 0;
    // every subscriber's share of the batch is handed over in one write, once the batch is dispatched
    // (each with what it had been handed before: the difference is its delivery)
    const touched = new Map<Sub, number>();
    for (const e of batch.events) {
      const subs = this.#byPatient.get(e.patient_id);
      if (!subs) continue;
      this.opts.onHandOver?.(e, (now - effectiveAt(e)) / 1_000);
      if (this.#partitionOf.get(e.patient_id) !== batch.partition) this.#partitionOf.set(e.patient_id, batch.partition);
      for (const s of subs) {
        if (!s.corked) {
          s.cork();
          touched.set(s, s.handed);
        }
        s.offer(e);
      }
    }
    for (const [s, before] of touched) {
      s.uncork();
      if (origin && s.handed > before) this.#deliverySpan(s, origin, s.handed - before, startTime);
    }
  }

  /** One subscriber's share of one channel message, linked to the ingest's publish span. */
  #deliverySpan(s: Sub, origin: SpanContext, events: number, startTime: number): void {
    const transport = s.opts.transport ?? 'other';
    this.#tracing.tracer
      .startSpan(
        `deliver ${transport}`,
        {
          kind: SpanKind.CONSUMER,
          startTime,
          links: [{ context: origin }],
          attributes: {
            [SPAN_ATTR.messagingSystem]: 'redis',
            [SPAN_ATTR.messagingOperationName]: 'deliver',
            [SPAN_ATTR.messagingOperationType]: 'process',
            [SPAN_ATTR.liveTransport]: transport,
            [SPAN_ATTR.liveEvents]: events,
          },
        },
        ROOT_CONTEXT,
      )
      .end();
  }

  /**
   * A notice of the clinical channel (critical results, alarm lifecycle): to every subscriber of the
   * patient that asked for that kind (no id, no cursor move). Anything else on the channel is ignored.
   */
  #onClinicalNotice(raw: string): void {
    const critical = decodeCriticalNotice(raw);
    const alarm = critical ? undefined : decodeAlarmNotice(raw);
    const notice = critical ?? alarm;
    if (!notice) return;
    const subs = this.#byPatient.get(notice.patient_id);
    if (!subs) return;
    const data = { ...notice.data, patient_id: notice.patient_id, event: notice.event };
    const json = JSON.stringify(data);
    for (const s of subs) {
      if (s.closed) continue;
      if (critical && s.opts.criticalResults) s.enqueue({ type: 'critical-result', event: critical.event, data, json });
      else if (alarm && s.opts.alarms) s.enqueue({ type: 'alarm', event: alarm.event, data, json });
    }
  }
}
