/**
 * MCP sessions: each one is an SDK StreamableHTTPServerTransport (session id, SSE streams,
 * resumability through the Redis event store) connected to its own McpServer, plus its live
 * subscriptions and the subject it is bound to. Sessions live in this gateway's memory; their
 * stream events live in Redis (event-store.ts). Idle sessions (no request and no open stream for
 * MCP_SESSION_IDLE_SECONDS) are closed; at most MCP_MAX_SESSIONS exist at once.
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { HttpProblem } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import type { LiveHub } from '../live/hub';
import type { Principal } from '../auth/route-auth';
import { RedisEventStore } from './event-store';
import { buildMcpServer } from './server';
import { LiveSubscriptions } from './subscriptions';

export class McpSession {
  readonly id = randomUUID();
  readonly events: RedisEventStore;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly live: LiveSubscriptions;
  /** The subject of the first token seen on this session; every later request must carry it. */
  subject: string | undefined;
  /** The latest verified principal (a renewed token of the same subject replaces it). */
  principal: Principal | undefined;
  initialized = false;
  lastSeen = Date.now();
  openStreams = 0;

  constructor(deps: GatewayDeps, hub: LiveHub, onInitialized: (s: McpSession) => void, onClosed: (s: McpSession) => void) {
    this.events = new RedisEventStore(deps.redis, this.id, { ttlSeconds: deps.config.MCP_EVENT_TTL_SECONDS });
    this.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => this.id,
      eventStore: this.events,
      retryInterval: 2_000,
      onsessioninitialized: () => {
        this.initialized = true;
        onInitialized(this);
      },
      // DELETE: the client ended the session, nothing will resume it (otherwise events expire by TTL).
      onsessionclosed: () => this.events.clear().catch((err: unknown) => deps.logger.warn({ err }, 'mcp event store cleanup failed')),
    });
    this.server = buildMcpServer(deps, () => this.live);
    this.live = new LiveSubscriptions({ hub, pool: deps.pool, server: this.server, logger: deps.logger, sessionId: this.id, currentPrincipal: () => this.principal });
    this.transport.onclose = () => {
      this.live.closeAll();
      onClosed(this);
    };
  }

  /** Binds the session to the principal's subject (first one wins); false if it belongs to another. */
  bind(principal: Principal): boolean {
    this.subject ??= principal.subject;
    if (this.subject !== principal.subject) return false;
    this.principal = principal;
    return true;
  }

  async close(): Promise<void> {
    await this.server.close().catch(() => undefined);
    await this.transport.close().catch(() => undefined);
  }
}

export class SessionRegistry {
  readonly #sessions = new Map<string, McpSession>();
  readonly #reaper: NodeJS.Timeout;

  constructor(private readonly deps: GatewayDeps, private readonly hub: LiveHub) {
    this.#reaper = setInterval(() => this.reap(), Math.min(60_000, deps.config.MCP_SESSION_IDLE_SECONDS * 500));
    this.#reaper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): McpSession | undefined {
    return this.#sessions.get(id);
  }

  /** A new session for an initialize request; registered once the SDK has initialized it. */
  async create(): Promise<McpSession> {
    if (this.#sessions.size >= this.deps.config.MCP_MAX_SESSIONS) {
      throw new HttpProblem(503, 'unavailable', 'Service Unavailable', 'Too many MCP sessions are open on this server; retry shortly.', { retry_after: 30 }, { 'retry-after': '30' });
    }
    const session = new McpSession(this.deps, this.hub, (s) => this.#sessions.set(s.id, s), (s) => this.#sessions.delete(s.id));
    await session.server.connect(session.transport);
    return session;
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

  async closeAll(): Promise<void> {
    clearInterval(this.#reaper);
    await Promise.all([...this.#sessions.values()].map((s) => s.close()));
    this.#sessions.clear();
  }
}
