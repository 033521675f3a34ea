/**
 * MCP sessions: each one is an SDK StreamableHTTPServerTransport (session id, SSE streams,
 * resumability through the Redis event store) connected to its own McpServer, plus its live
 * subscriptions and the subject and client it is bound to. The transport and server live in this
 * gateway's memory; the stream events (event-store.ts) and the session record (session-store.ts:
 * binding, subscribed uris, owner) live in Redis, so another instance can take a session over: it rebuilds
 * the transport as already initialized, claims ownership, and reopens the subscriptions right after
 * the last event sent; the previous holder sees it lost ownership and drops its copy.
 * Idle sessions (no request and no open stream for MCP_SESSION_IDLE_SECONDS) are closed; at most
 * MCP_MAX_SESSIONS exist at once per instance.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { problemOf } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import type { LiveSource } from '../vitals/live-sources';
import type { Principal } from '../access/principal';
import type { Caller } from '../access/caller';
import { liveStreamDeps } from '../vitals/service';
import { RedisEventStore } from './event-store';
import { buildMcpServer } from './server';
import { SessionStore, bindingOf, isBoundTo, type SessionBinding, type SessionRecord } from './session-store';
import { LiveSubscriptions } from './subscriptions';

/** How often an instance checks that it still owns its sessions (and refreshes their records). */
const OWNERSHIP_CHECK_MS = 2_000;
const TOUCH_EVERY_MS = 30_000;

export class McpSession {
  readonly events: RedisEventStore;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly live: LiveSubscriptions;
  /** The subject and client of the first token seen on this session; every later request must carry both. */
  binding: SessionBinding | undefined;
  /** The latest verified principal (a renewed token of the same subject and client replaces it). */
  principal: Principal | undefined;
  initialized = false;
  lastSeen = Date.now();
  lastTouched = Date.now();
  openStreams = 0;

  constructor(
    readonly id: string,
    private readonly deps: GatewayDeps,
    hub: LiveSource,
    private readonly store: SessionStore,
    hooks: { initialized: (s: McpSession) => void; closed: (s: McpSession) => void },
  ) {
    this.events = new RedisEventStore(deps.redis, this.id, { ttlSeconds: deps.config.MCP_EVENT_TTL_SECONDS });
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => this.id,
      eventStore: this.events,
      retryInterval: 2_000,
      onsessioninitialized: () => {
        this.initialized = true;
        hooks.initialized(this);
        this.persist();
      },
      // DELETE: the client ended the session; nothing will resume it (otherwise it all expires by TTL).
      onsessionclosed: () =>
        Promise.all([this.events.clear(), this.store.remove(this.id)]).then(
          () => undefined,
          (err: unknown) => deps.logger.warn({ err }, 'mcp session cleanup failed'),
        ),
    });
    this.server = buildMcpServer(deps, () => this.live);
    this.live = new LiveSubscriptions({
      hub,
      stream: liveStreamDeps(deps),
      server: this.server,
      logger: deps.logger,
      sessionId: this.id,
      currentPrincipal: () => this.principal,
      onChange: () => this.persist(),
    });
    this.transport.onclose = () => {
      this.live.closeAll();
      hooks.closed(this);
    };
  }

  /** Binds the session to the principal's subject and client (first one wins); false if it belongs to another. */
  bind(principal: Principal): boolean {
    const first = this.binding === undefined;
    this.binding ??= bindingOf(principal);
    if (!isBoundTo(this.binding, principal)) return false;
    this.principal = principal;
    if (first && this.initialized) this.persist();
    return true;
  }

  /** Writes the shared record (binding, subscriptions) to Redis; failures only cost a takeover. */
  persist(): void {
    const record: SessionRecord = { ...(this.binding ? { binding: this.binding } : {}), subscriptions: this.live.uris() };
    this.store.save(this.id, record).catch((err: unknown) => this.deps.logger.warn({ err }, 'mcp session record not saved'));
  }

  /**
   * Takes over a session another instance held: the SDK transport is marked initialized with the
   * same id (the handshake happened elsewhere; the SDK has no public API for this, hence the two
   * private fields, pinned by test/integration/mcp/failover.test.ts).
   */
  adopt(record: SessionRecord): void {
    const inner = (this.transport as unknown as { _webStandardTransport: { _initialized: boolean; sessionId?: string } })
      ._webStandardTransport;
    inner._initialized = true;
    inner.sessionId = this.id;
    this.initialized = true;
    this.binding = record.binding;
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

export class SessionRegistry {
  readonly #sessions = new Map<string, McpSession>();
  readonly #timer: NodeJS.Timeout;
  readonly store: SessionStore;
  #lastReap = Date.now();

  constructor(
    private readonly deps: GatewayDeps,
    private readonly hub: LiveSource,
  ) {
    this.store = new SessionStore(deps.redis, deps.config.MCP_SESSION_IDLE_SECONDS, randomUUID());
    this.#timer = setInterval(() => void this.#maintain(), OWNERSHIP_CHECK_MS);
    this.#timer.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): McpSession | undefined {
    return this.#sessions.get(id);
  }

  #new(id: string): McpSession {
    if (this.#sessions.size >= this.deps.config.MCP_MAX_SESSIONS) {
      throw problemOf(
        'unavailable',
        'Too many MCP sessions are open on this server; retry shortly.',
        { retry_after: 30 },
        { 'retry-after': '30' },
      );
    }
    return new McpSession(id, this.deps, this.hub, this.store, {
      initialized: (s) => this.#sessions.set(s.id, s),
      closed: (s) => {
        if (this.#sessions.get(s.id) === s) this.#sessions.delete(s.id);
      },
    });
  }

  /** A new session for an initialize request; registered once the SDK has initialized it. */
  async create(): Promise<McpSession> {
    const session = this.#new(randomUUID());
    await session.server.connect(session.transport);
    return session;
  }

  /**
   * Takes over a session known in Redis (held by another instance, or by one that is gone), after
   * the request was authenticated against the record's binding (subject and client). Its
   * subscriptions reopen when the request carries such a token (they need a token to be bound to).
   */
  async adopt(id: string, record: SessionRecord, caller: Caller | undefined): Promise<McpSession> {
    const session = this.#new(id);
    await session.server.connect(session.transport);
    session.adopt(record);
    this.#sessions.set(id, session);
    await this.store.claim(id); // the previous holder drops its copy at its next check
    if (caller && record.subscriptions.length > 0 && session.bind(caller.principal)) {
      const after = await this.store.lastLiveIds(id, record.subscriptions);
      await session.live.restore(record.subscriptions, after, caller);
      session.persist();
    }
    return session;
  }

  /** Drops sessions another instance took over, refreshes the records of the others, reaps idle ones. */
  async #maintain(): Promise<void> {
    const now = Date.now();
    try {
      const ids = [...this.#sessions.keys()];
      for (const id of await this.store.lostAmong(ids)) {
        const s = this.#sessions.get(id);
        this.#sessions.delete(id);
        void s?.close();
      }
      for (const s of this.#sessions.values()) {
        if (now - s.lastTouched >= TOUCH_EVERY_MS && (s.openStreams > 0 || now - s.lastSeen < TOUCH_EVERY_MS)) {
          s.lastTouched = now;
          await this.store.touch(s.id);
        }
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'mcp session maintenance failed (Redis)');
    }
    if (now - this.#lastReap >= Math.min(60_000, this.deps.config.MCP_SESSION_IDLE_SECONDS * 500)) {
      this.#lastReap = now;
      this.reap(now);
    }
  }

  /** Closes sessions without an open stream that saw no request for the idle time. */
  reap(now = Date.now()): number {
    const limit = now - this.deps.config.MCP_SESSION_IDLE_SECONDS * 1000;
    let closed = 0;
    for (const s of [...this.#sessions.values()]) {
      if (s.openStreams === 0 && s.lastSeen < limit) {
        closed += 1;
        void s.close();
      }
    }
    return closed;
  }

  /** Shutdown: closes the local copies; the records stay so another instance can take over. */
  async closeAll(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([...this.#sessions.values()].map((s) => s.close()));
    this.#sessions.clear();
  }
}
