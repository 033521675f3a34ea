/**
 * The SDK's EventStore (resumability, Last-Event-ID) backed by Redis: one Redis stream per MCP
 * session and SSE stream (`vitalis:mcp:ev:<session>:<stream>`), trimmed to a bounded length and
 * expiring after MCP_EVENT_TTL_SECONDS without writes, so any gateway instance can replay what a
 * session was sent. The event id is `<stream>~<redis entry id>`: it names its stream, and entry
 * ids are ordered, so "after this id" is one XRANGE with an exclusive start.
 *
 * One store per session: an id presented on another session finds nothing (keys are per session).
 */
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Redis } from '@vitalis/redis';

const SEP = '~';
const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;
const STREAM_ID = /^[\w-]{1,128}$/;
const PAGE = 500;

export interface EventStoreOptions {
  ttlSeconds: number;
  /** Approximate bound on the events kept per stream (oldest trimmed first). */
  maxLen?: number;
}

export function parseEventId(eventId: string): { stream: StreamId; entry: string } | undefined {
  const at = eventId.lastIndexOf(SEP);
  if (at <= 0) return undefined;
  const stream = eventId.slice(0, at);
  const entry = eventId.slice(at + 1);
  return STREAM_ID.test(stream) && ENTRY_ID.test(entry) ? { stream, entry } : undefined;
}

export class RedisEventStore implements EventStore {
  constructor(
    private readonly redis: Redis,
    private readonly sessionId: string,
    private readonly opts: EventStoreOptions,
  ) {}

  #key(stream: StreamId): string {
    return `vitalis:mcp:ev:${this.sessionId}:${stream}`;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const key = this.#key(streamId);
    // One round trip; commands on one connection run in order, so ids follow the call order.
    const results = await this.redis
      .multi()
      .xadd(key, 'MAXLEN', '~', String(this.opts.maxLen ?? 10_000), '*', 'm', JSON.stringify(message))
      .expire(key, this.opts.ttlSeconds)
      .exec();
    const [err, entry] = results?.[0] ?? [new Error('no reply'), null];
    if (err || typeof entry !== 'string') throw err ?? new Error('XADD returned no id');
    return `${streamId}${SEP}${entry}`;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return parseEventId(eventId)?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const parsed = parseEventId(lastEventId);
    if (!parsed) throw new Error('unknown event id');
    const key = this.#key(parsed.stream);
    let after = parsed.entry;
    for (;;) {
      const page = (await this.redis.xrange(key, `(${after}`, '+', 'COUNT', PAGE)) as [string, string[]][];
      for (const [entry, fields] of page) {
        const json = fields[fields.indexOf('m') + 1];
        if (json !== undefined) await send(`${parsed.stream}${SEP}${entry}`, JSON.parse(json) as JSONRPCMessage);
        after = entry;
      }
      if (page.length < PAGE) return parsed.stream;
    }
  }

  /** Drops every stream of the session (on DELETE / close). */
  async clear(): Promise<void> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await this.redis.scan(cursor, 'MATCH', `vitalis:mcp:ev:${this.sessionId}:*`, 'COUNT', 200);
      cursor = next;
      keys.push(...found);
    } while (cursor !== '0');
    if (keys.length > 0) await this.redis.del(...keys);
  }
}
