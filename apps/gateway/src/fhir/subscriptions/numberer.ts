/**
 * Gives every event of every active FHIR subscription its number, whether or not a client is bound.
 * Each gateway follows each active subscription through the live hub, from the stream id after its
 * last numbered event (the hub replays the append log after it, then goes live: no gap, no
 * duplicate), and numbers its events in PostgreSQL (store.ts `numberEvents`: what arrived meanwhile
 * in one transaction, idempotent by stream id,
 * so several gateways numbering the same subscription agree). The numbers then go to the websockets
 * bound on this gateway (`onEvent`). A numbering that fails (database down) stops and starts again
 * from the stored position a second later: an event is never skipped, only numbered late.
 * Subscriptions created or deleted on another gateway are picked up by a poll (every 5 s).
 */
import type { Pool } from '@vitalis/db';
import type { Logger } from '@vitalis/log';
import { encodeCursor, type Cursor } from '@vitalis/live';
import { entryUuid, observationFullUrl, toFhirObservation } from '@vitalis/schemas';
import type { LiveHub, LiveMessage } from '../../vitals/hub';
import { latestCursor } from '../../vitals/replay';
import { activeSubscriptions, numberEvents, type NumberedEvent, type SubscriptionRecord } from './store';

const POLL_MS = 5_000;
const RETRY_MS = 1_000;
/** Events numbered in one transaction at most (what arrived while the previous batch was being numbered). */
const NUMBERING_BATCH = 500;

/** The resource an event is about, with the fullUrl notifications give it (these resources have no read URL: urn:uuid). */
export function focusOf(
  topic: SubscriptionRecord['topic'],
  msg: LiveMessage,
): { fullUrl: string; resource: Record<string, unknown> } | undefined {
  if (topic === 'vitals' && msg.type === 'observation') {
    const o = msg.data;
    return { fullUrl: observationFullUrl(o), resource: toFhirObservation(o) as unknown as Record<string, unknown> };
  }
  if (topic === 'alerts' && msg.type === 'alert') {
    return { fullUrl: entryUuid('Flag', `${msg.data.alert_id}/${msg.data.state}`), resource: msg.data.flag };
  }
  return undefined;
}

/** The live stream position a new subscription of `patientId` starts after ('' = before the patient's first row). */
export async function startPositionOf(pool: Pool, topic: string, patientId: string): Promise<string> {
  const cursor = await latestCursor(pool, topic, [patientId]);
  return cursor.size ? encodeCursor(cursor) : '';
}

/** A numbered event, or 'ended': the subscription was deleted or stopped. */
type Listener = (e: NumberedEvent | 'ended') => void;

interface Watch {
  /** When it started (a sync whose read began earlier does not end it). */
  since: number;
  stop: () => void;
}

export class SubscriptionNumberer {
  readonly #watches = new Map<string, Watch>();
  readonly #listeners = new Map<string, Set<Listener>>();
  #poll: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly hub: LiveHub,
    /** The hub's Kafka topic: only subscriptions positioned in it are numbered here. */
    private readonly liveTopic: string,
    private readonly logger: Logger,
  ) {}

  /** Starts numbering; a database that cannot answer now is tried again at the next poll (the gateway starts anyway). */
  async start(): Promise<void> {
    await this.#sync().catch((err) => this.logger.warn({ err }, 'fhir subscriptions: first sync failed; retrying'));
    this.#poll = setInterval(() => void this.#sync().catch((err) => this.logger.warn({ err }, 'fhir subscriptions: sync failed')), POLL_MS);
    this.#poll.unref();
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#poll);
    for (const w of this.#watches.values()) w.stop();
    this.#watches.clear();
  }

  /** Told each numbered event of `subscriptionId` (this gateway's numbering); returns the unsubscribe. */
  onEvent(subscriptionId: string, listener: Listener): () => void {
    let set = this.#listeners.get(subscriptionId);
    if (!set) this.#listeners.set(subscriptionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(subscriptionId) === set) this.#listeners.delete(subscriptionId);
    };
  }

  /** Starts numbering `rec` on this gateway (a no-op when it already does). */
  watch(rec: SubscriptionRecord): void {
    if (this.#closed || this.#watches.has(rec.id)) return;
    let stopped = false;
    const watch: Watch = { since: Date.now(), stop: () => undefined };
    const restart = () => {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      this.#watches.delete(rec.id);
      setTimeout(() => void this.#rewatch(rec.id), RETRY_MS).unref();
    };
    const after: Cursor | string = rec.resumeId === '' ? new Map() : rec.resumeId;
    // what the hub handed over and is not numbered yet; one worker numbers all of it in one transaction
    let pending: { liveId: string; focus: Record<string, unknown> }[] = [];
    let working = false;
    const work = async () => {
      if (working) return;
      working = true;
      try {
        while (pending.length > 0 && !stopped) {
          const batch = pending.slice(0, NUMBERING_BATCH);
          let numbered;
          try {
            numbered = await numberEvents(this.pool, rec.id, batch);
          } catch (err) {
            this.logger.warn({ err, subscription: rec.id }, 'fhir subscriptions: numbering failed; restarting from the stored position');
            return restart();
          }
          if (!numbered) return this.#unwatch(rec.id); // deleted, or no longer active
          pending = pending.slice(batch.length);
          for (const e of numbered) for (const l of this.#listeners.get(rec.id) ?? []) l(e);
        }
      } finally {
        working = false;
      }
    };
    const unsubscribe = this.hub.subscribeCallback(
      {
        patients: [rec.patientId],
        codes: rec.topic === 'vitals' ? (rec.codes ?? undefined) : undefined,
        alerts: rec.topic === 'alerts',
        after,
      },
      (msg) => {
        const focus = focusOf(rec.topic, msg);
        if (!focus || !('id' in msg)) return;
        pending.push({ liveId: msg.id, focus });
        void work();
      },
      (reason) => {
        if (reason !== 'shutdown') restart();
      },
    );
    watch.stop = () => {
      stopped = true;
      unsubscribe();
    };
    this.#watches.set(rec.id, watch);
  }

  /** The subscription ended (deleted here): stop numbering it and tell its bound sockets. */
  forget(id: string): void {
    this.#unwatch(id);
  }

  #unwatch(id: string): void {
    this.#watches.get(id)?.stop();
    this.#watches.delete(id);
    for (const l of [...(this.#listeners.get(id) ?? [])]) l('ended');
  }

  async #rewatch(id: string): Promise<void> {
    if (this.#closed) return;
    try {
      const rec = (await activeSubscriptions(this.pool, this.liveTopic)).find((s) => s.id === id);
      if (rec) this.watch(rec);
    } catch {
      setTimeout(() => void this.#rewatch(id), RETRY_MS).unref();
    }
  }

  /** Follows the active subscriptions in the database: new ones start, deleted or stopped ones end. */
  async #sync(): Promise<void> {
    const readAt = Date.now();
    const active = await activeSubscriptions(this.pool, this.liveTopic);
    const ids = new Set(active.map((s) => s.id));
    for (const [id, w] of [...this.#watches]) if (!ids.has(id) && w.since < readAt) this.#unwatch(id);
    for (const rec of active) this.watch(rec);
  }
}
