/**
 * The shared part of an MCP session, in Redis, so another gateway instance can take it over (the
 * holder crashed, was redeployed, or a load balancer moved the client): who the session is bound to
 * (subject and client) and the subscribed uris (`vitalis:mcp:session:<id>`, expiring after the idle time), and which instance
 * holds it now (`vitalis:mcp:owner:<id>`). The stream events are in the event store (event-store.ts);
 * the position of each subscription is the `vitalis/live` id of its last notification there.
 */
import type { Redis } from '@vitalis/redis';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../access/principal';

/**
 * Who a session belongs to: the subject AND the client of the first token that authenticated on
 * it. Every later request must carry a token of both (the same user through another client, e.g.
 * a token exchanged by another client, is someone else here).
 */
export interface SessionBinding {
  subject: string;
  clientId: string;
}

export const bindingOf = (p: Principal): SessionBinding => ({ subject: p.subject, clientId: p.clientId });
export const isBoundTo = (binding: SessionBinding, p: Principal): boolean =>
  binding.subject === p.subject && binding.clientId === p.clientId;

export interface SessionRecord {
  binding?: SessionBinding;
  subscriptions: string[];
}

const recordKey = (id: string) => `vitalis:mcp:session:${id}`;
const ownerKey = (id: string) => `vitalis:mcp:owner:${id}`;
export const standaloneStreamKey = (id: string) => `vitalis:mcp:ev:${id}:_GET_stream`;

/**
 * Compare-and-set on the owner: write (ARGV[3] given) or refresh the record and the ownership only
 * when this instance owns the session or nobody does, so a stale copy never takes it back.
 */
const SAVE = `
local owner = redis.call('GET', KEYS[2])
if owner and owner ~= ARGV[1] then return 0 end
if ARGV[3] then redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[2]) else redis.call('EXPIRE', KEYS[1], ARGV[2]) end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return 1`;

export class SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
    /** This gateway instance. */
    readonly instanceId: string,
  ) {}

  /** Writes the record, unless another instance owns the session now (then this copy is stale). */
  async save(id: string, record: SessionRecord): Promise<boolean> {
    return (
      (await this.redis.eval(SAVE, 2, recordKey(id), ownerKey(id), this.instanceId, String(this.ttlSeconds), JSON.stringify(record))) === 1
    );
  }

  /** Takes the session over (adoption): this instance owns it from now on. */
  async claim(id: string): Promise<void> {
    await this.redis.multi().set(ownerKey(id), this.instanceId, 'EX', this.ttlSeconds).expire(recordKey(id), this.ttlSeconds).exec();
  }

  /**
   * The record, if there is one to take over. A record bound to a subject without a client (written
   * before sessions were bound to clients too) is not: its client would be unknown, so the session
   * is treated as gone (404) and the client initializes a new one.
   */
  async load(id: string): Promise<SessionRecord | undefined> {
    const text = await this.redis.get(recordKey(id));
    if (!text) return undefined;
    const v = JSON.parse(text) as { binding?: Partial<SessionBinding>; subject?: unknown; subscriptions?: unknown };
    if (v.subject !== undefined && v.binding === undefined) return undefined;
    const b = v.binding;
    const binding =
      b === undefined
        ? undefined
        : typeof b.subject === 'string' && typeof b.clientId === 'string'
          ? { subject: b.subject, clientId: b.clientId }
          : null;
    if (binding === null) return undefined; // a binding without its subject and client: not ours
    return {
      ...(binding ? { binding } : {}),
      subscriptions: Array.isArray(v.subscriptions) ? v.subscriptions.filter((u): u is string => typeof u === 'string') : [],
    };
  }

  /** Keeps a session's record and ownership from expiring, if this instance still owns it. */
  async touch(id: string): Promise<boolean> {
    return (await this.redis.eval(SAVE, 2, recordKey(id), ownerKey(id), this.instanceId, String(this.ttlSeconds))) === 1;
  }

  /** Which of these sessions another instance has taken over since. */
  async lostAmong(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const owners = await this.redis.mget(...ids.map(ownerKey));
    return ids.filter((_, i) => owners[i] !== null && owners[i] !== this.instanceId);
  }

  async remove(id: string): Promise<void> {
    await this.redis.del(recordKey(id), ownerKey(id));
  }

  /**
   * The `vitalis/live` id of the latest notification for each uri in the session's stream (scanning
   * back at most `limit` events), so a subscription taken over resumes right after it.
   */
  async lastLiveIds(id: string, uris: string[], limit = 5_000): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    let end = '+';
    let scanned = 0;
    while (found.size < uris.length && scanned < limit) {
      const page = (await this.redis.xrevrange(standaloneStreamKey(id), end, '-', 'COUNT', 500)) as [string, string[]][];
      for (const [entry, fields] of page) {
        const m = JSON.parse(fields[fields.indexOf('m') + 1] ?? '{}') as JSONRPCMessage & {
          params?: { uri?: string; _meta?: Record<string, { id?: string }> };
        };
        const uri = m.params?.uri;
        const live = m.params?._meta?.['vitalis/live']?.id;
        if (uri && live && uris.includes(uri) && !found.has(uri)) found.set(uri, live);
        end = `(${entry}`;
      }
      scanned += page.length;
      if (page.length < 500) break;
    }
    return found;
  }
}
