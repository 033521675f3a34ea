/**
 * resources/subscribe for live vitals: `vitalis://patients/{id}/vitals` → one live-hub
 * subscription per (session, uri). Each observation, alert, critical-result or alarm notice becomes a
 * `notifications/resources/updated` for that uri carrying the event in `_meta["vitalis/live"]`
 * ({ type, id, event?, data }); the SDK stores it in the session's event store and writes it to
 * the session's GET stream, so a client that reconnects with Last-Event-ID gets what it missed.
 *
 * Notifications are sent one after another (a promise chain), so they reach the event store and
 * the stream in hub order; while too many are in flight the hub subscription is paused (its own
 * bounded queue then applies). When the hub drops a subscription that fell behind, it is reopened
 * right after the last event sent (the hub replays the gap from the append log). The token that
 * subscribed bounds it: revoked → closed; expired → carried on with the session's newer token of
 * the same subject if there is one, else closed; either way the client gets a log message.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { encodeCursor } from '@vitalis/live';
import type { Logger } from '@vitalis/log';
import type { CloseReason, LiveMessage, Subscription } from '../vitals/hub';
import type { LiveSource } from '../vitals/live-sources';
import type { Principal } from '../access/principal';
import type { Caller } from '../access/caller';
import { VITALS_URI } from './resource-uri';
import {
  requireVitalsAccess,
  restoreVitalsStream,
  startVitalsStream,
  vitalsDenial,
  type LiveStreamDeps,
  type StreamStart,
} from '../vitals/service';
import { reachesAll } from '../access/policy';
import { mayReadAlarms } from '../alarms/service';

const HIGH_WATER = 256;

export interface LiveDeps {
  /** The live sources (the hub, or the synthetic sandbox source: vitals/live-sources.ts). */
  hub: LiveSource;
  /** The pool, topic and replay window of the live streams (vitals service). */
  stream: LiveStreamDeps;
  server: McpServer;
  logger: Logger;
  sessionId: string;
  /** The session's latest verified principal (renewed tokens of the same subject). */
  currentPrincipal: () => Principal | undefined;
  /** The set of subscribed uris changed (the session record in Redis follows it). */
  onChange: () => void;
}

interface Entry {
  patientId: string;
  sub: Subscription;
  principal: Principal;
  lastId: string | null;
}

export class LiveSubscriptions {
  #subs = new Map<string, Entry>();
  #chain: Promise<void> = Promise.resolve();
  #inFlight = 0;
  #closed = false;

  constructor(private readonly d: LiveDeps) {}

  get size(): number {
    return this.#subs.size;
  }

  uris(): string[] {
    return [...this.#subs.keys()];
  }

  /**
   * Reopens subscriptions a session had on another instance, each right after the last event that
   * instance sent (from the event store; from now when unknown), so nothing produced meanwhile is
   * lost; bounded to the replay window and audited like a client's resume (vitals service).
   */
  async restore(uris: string[], after: Map<string, string>, caller: Caller): Promise<void> {
    const { principal } = caller;
    const entries = [];
    for (const uri of uris) {
      const [, patientId] = VITALS_URI.exec(uri) ?? [];
      if (patientId === undefined || this.#subs.has(uri)) continue;
      if (vitalsDenial(principal, [patientId])) continue;
      const start = await restoreVitalsStream(this.d.stream, caller, [patientId], after.get(uri), 'mcp');
      entries.push(this.#open(uri, patientId, principal, start));
    }
    await Promise.all(entries.map((e) => e.sub.ready));
  }

  /** Opens (or keeps) the subscription; resolves once its starting point is fixed. */
  async subscribe(uri: string, caller: Caller): Promise<void> {
    const [, patientId] = VITALS_URI.exec(uri) ?? [];
    if (patientId === undefined) throw new Error(`unknown resource ${uri.slice(0, 200)}`);
    const existing = this.#subs.get(uri);
    if (existing && existing.principal.subject === caller.principal.subject) {
      await requireVitalsAccess(this.d.stream.pool, caller, [patientId], { action: 'vitals.subscribe', via: 'mcp' });
      return;
    }
    // access (audited refusal) and the subscription's audit row before it opens (503 when it cannot be written)
    const start = await startVitalsStream(
      this.d.stream,
      caller,
      { patients: [patientId] },
      { via: 'mcp', action: 'vitals.subscribe', detail: { session: this.d.sessionId } },
    );
    existing?.sub.unsubscribe();
    const entry = this.#open(uri, patientId, caller.principal, start);
    await entry.sub.ready;
    this.d.onChange();
  }

  unsubscribe(uri: string): boolean {
    const e = this.#subs.get(uri);
    if (!e) return false;
    this.#subs.delete(uri);
    e.sub.unsubscribe();
    this.d.onChange();
    return true;
  }

  closeAll(): void {
    this.#closed = true;
    for (const e of this.#subs.values()) e.sub.unsubscribe();
    this.#subs.clear();
  }

  /** `start`: from the vitals service (a resume), or the last id this session sent (a reopen after lagging or a renewed token). */
  #open(uri: string, patientId: string, principal: Principal, start: StreamStart | string | null): Entry {
    const lastId = typeof start === 'string' ? start : start?.after ? encodeCursor(start.after) : null;
    const entry: Entry = { patientId, principal, lastId, sub: undefined as unknown as Subscription };
    const from = typeof start === 'string' ? { after: start } : (start ?? {});
    entry.sub = this.d.hub.subscribe(
      {
        transport: 'mcp',
        patients: [patientId],
        alerts: true,
        criticalResults: reachesAll(principal, 'CriticalResult', 'read'),
        alarms: mayReadAlarms(principal, [patientId]),
        token: { id: principal.tokenId, expiresAt: principal.expiresAt, derivedFrom: principal.derivedFrom },
        ...from,
      },
      { send: (msg) => this.#send(uri, entry, msg), close: (reason) => this.#onClose(uri, entry, reason) },
    );
    this.#subs.set(uri, entry);
    return entry;
  }

  #send(uri: string, entry: Entry, msg: LiveMessage): boolean {
    if (msg.type === 'lagged') return true; // the close that follows reopens after lastId
    if (msg.type !== 'replay-truncated' && msg.type !== 'critical-result' && msg.type !== 'alarm') entry.lastId = msg.id;
    const live =
      msg.type === 'critical-result' || msg.type === 'alarm'
        ? { type: msg.type, event: msg.event, data: msg.data } // no id: a notice (the event store holds the report, the alarm)
        : msg.type === 'observation'
          ? { type: 'observation', id: msg.id, data: msg.data }
          : msg.type === 'alert'
            ? { type: 'alert', id: msg.id, event: msg.event, data: msg.data }
            : { type: 'replay-truncated', data: msg.data }; // no id: the gaps to read through REST
    this.#inFlight += 1;
    this.#chain = this.#chain
      .then(() => this.d.server.server.sendResourceUpdated({ uri, _meta: { 'vitalis/live': live } }))
      .catch((err: unknown) => this.d.logger.warn({ err, session: this.d.sessionId }, 'mcp live notification failed'))
      .finally(() => {
        this.#inFlight -= 1;
        if (this.#inFlight === HIGH_WATER / 2) for (const e of this.#subs.values()) e.sub.resume();
      });
    return this.#inFlight < HIGH_WATER;
  }

  #onClose(uri: string, entry: Entry, reason: CloseReason): void {
    if (this.#closed || this.#subs.get(uri) !== entry) return;
    this.#subs.delete(uri);
    const renewed = this.d.currentPrincipal();
    const canRenew =
      renewed &&
      renewed.subject === entry.principal.subject &&
      renewed.tokenId !== entry.principal.tokenId &&
      renewed.expiresAt > Date.now() / 1000;
    if (reason === 'lagged') {
      this.#open(uri, entry.patientId, entry.principal, entry.lastId);
      return;
    }
    if (reason === 'expired' && renewed && canRenew) {
      this.#open(uri, entry.patientId, renewed, entry.lastId);
      return;
    }
    if (reason === 'shutdown') return;
    this.d.onChange();
    void this.d.server
      .sendLoggingMessage(
        {
          level: 'warning',
          logger: 'vitalis-live',
          data: { uri, closed: reason, detail: `The subscription to ${uri} ended (${reason}); subscribe again with a valid token.` },
        },
        this.d.sessionId,
      )
      .catch(() => undefined);
  }
}
