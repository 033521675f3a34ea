/**
 * The event store on the `events` table (migration 0001): streams with a per-stream version and
 * optimistic concurrency, and a global position for subscribers.
 *
 * Gap safety (ADR 0017): global_position comes from an identity sequence, taken at INSERT time,
 * but rows become visible at COMMIT time. Migration 0024 makes positions follow commit order:
 * every INSERT into `events` first takes one transaction-scoped advisory lock (a BEFORE STATEMENT
 * trigger, so before its rows take positions) and holds it to COMMIT, and PostgreSQL makes a
 * transaction visible before it releases its locks. So when a reader sees position n, every
 * lower position is committed and visible too, or rolled back for good (a hole, never filled): a
 * reader may move its checkpoint to the last position it read, and no transaction elsewhere on the
 * server (another database's, an analyst's, a backup's) holds readers back.
 *
 * Long: the store is one module by design: append, the reads and the position rules above share its SQL, its row mapping and its errors, and each reader relies on the same commit-order guarantee.
 */
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient, Queryable } from '@vitalis/db';

export type { Queryable };

export interface EventMetadata {
  actor?: string | undefined;
  client?: string | undefined;
  correlationId?: string | undefined;
  causationId?: string | undefined;
  scope?: string | undefined;
  [key: string]: unknown;
}

export interface NewEvent {
  type: string;
  data: Record<string, unknown>;
  schemaVersion?: number;
  eventId?: string;
}

export interface StoredEvent {
  globalPosition: number;
  eventId: string;
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: EventMetadata & { time: string };
  recordedAt: string;
}

/** A number = the stream must be exactly at that version (0 = must not exist yet). */
export type ExpectedVersion = number | typeof ANY | typeof NO_STREAM;
export const ANY = 'any' as const;
export const NO_STREAM = 0;

export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`stream ${streamId}: expected version ${String(expected)}, actual ${actual}`);
    this.name = 'ConcurrencyError';
  }
}

/** An event id that is already stored: the append was a redelivery (nothing was written). */
export class DuplicateEventError extends Error {
  constructor(readonly streamId: string) {
    super(`stream ${streamId}: an event with this event id is already stored`);
    this.name = 'DuplicateEventError';
  }
}

interface EventRow {
  global_position: number;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: EventMetadata & { time: string };
  recorded_at: Date;
}

const COLUMNS = 'global_position, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at';

function toStored(r: EventRow): StoredEvent {
  return {
    globalPosition: r.global_position,
    eventId: r.event_id,
    streamId: r.stream_id,
    streamVersion: r.stream_version,
    type: r.type,
    schemaVersion: r.schema_version,
    data: r.data,
    metadata: r.metadata,
    recordedAt: r.recorded_at.toISOString(),
  };
}

async function currentVersion(db: Queryable, streamId: string): Promise<number> {
  const { rows } = await db.query<{ v: number | null }>('SELECT max(stream_version) AS v FROM events WHERE stream_id = $1', [streamId]);
  return rows[0]?.v ?? 0;
}

/**
 * Appends events to a stream at the expected version. Concurrency is decided by the
 * UNIQUE (stream_id, stream_version) constraint, so two writers at the same version can never both
 * commit: the loser gets ConcurrencyError (HTTP 409/412), never a silent overwrite. Pass a
 * PoolClient inside a transaction to append atomically with other writes. Give events a stable
 * `eventId` (e.g. derived from their cause) to make redelivery safe: DuplicateEventError.
 */
export async function append(
  db: Queryable,
  streamId: string,
  expected: ExpectedVersion,
  events: NewEvent[],
  metadata: EventMetadata = {},
): Promise<{ version: number; events: StoredEvent[] }> {
  if (events.length === 0) throw new Error('append: no events');
  const time = new Date().toISOString();
  // One round trip: the version check and the insert are one statement. A concurrent writer that
  // commits first makes the UNIQUE (stream_id, stream_version) check fail (→ ConcurrencyError).
  try {
    const { rows } = await db.query<EventRow>(
      `WITH cur AS (SELECT coalesce(max(stream_version), 0) AS v FROM events WHERE stream_id = $1)
       INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT e.event_id, $1, cur.v + e.n, e.type, e.schema_version, e.data, $6
         FROM cur, unnest($2::uuid[], $3::text[], $4::smallint[], $5::jsonb[]) WITH ORDINALITY AS e(event_id, type, schema_version, data, n)
        WHERE $7::integer IS NULL OR cur.v = $7
       RETURNING ${COLUMNS}`,
      [
        streamId,
        events.map((e) => e.eventId ?? randomUUID()),
        events.map((e) => e.type),
        events.map((e) => e.schemaVersion ?? 1),
        events.map((e) => JSON.stringify(e.data)),
        { ...metadata, time },
        expected === ANY ? null : expected,
      ],
    );
    const stored = rows.map(toStored).sort((a, b) => a.streamVersion - b.streamVersion);
    const last = stored.at(-1);
    if (!last) throw new ConcurrencyError(streamId, expected, await currentVersion(db, streamId));
    return { version: last.streamVersion, events: stored };
  } catch (err) {
    const e = err as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'events_event_id_key') throw new DuplicateEventError(streamId);
    if (e.code === '23505') throw new ConcurrencyError(streamId, expected, await currentVersion(db, streamId).catch(() => -1));
    throw err;
  }
}

/** An event for `appendToStreams`: its stream, its own metadata, and a stable id (what makes the append idempotent). */
export interface StreamEvent extends NewEvent {
  streamId: string;
  eventId: string;
  metadata?: EventMetadata;
}

/**
 * Appends events to several streams in ONE statement (one transaction, one commit, one turn of the
 * position lock: migration 0024): each stream's events in their given order at its head (expected
 * version ANY), and an event whose id is already stored left out (a redelivery appends nothing
 * twice; an id given twice in one call is appended once). For writers whose events carry stable
 * ids and need no expected version, many streams at a time: the ingest's alarms, where a storm is
 * thousands of patients' raises in one batch. A writer that takes one of those streams' next
 * version meanwhile fails the whole statement with ConcurrencyError (nothing written; append
 * again), as does a concurrent append of one of the same ids (DuplicateEventError: again, and the
 * stored one is left out). Returns the events it stored, in the order given.
 */
export async function appendToStreams(db: Queryable, events: readonly StreamEvent[]): Promise<StoredEvent[]> {
  const seen = new Set<string>();
  const unique = events.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId));
  if (unique.length === 0) return [];
  const time = new Date().toISOString();
  try {
    const { rows } = await db.query<EventRow>(
      `WITH input AS (
         SELECT e.* FROM unnest($1::text[], $2::uuid[], $3::text[], $4::smallint[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY
                      AS e(stream_id, event_id, type, schema_version, data, metadata, n)
       ), fresh AS (
         SELECT i.*, row_number() OVER (PARTITION BY i.stream_id ORDER BY i.n) AS k
           FROM input i WHERE NOT EXISTS (SELECT 1 FROM events x WHERE x.event_id = i.event_id)
       ), head AS (
         SELECT s.stream_id, (SELECT coalesce(max(stream_version), 0) FROM events x WHERE x.stream_id = s.stream_id) AS v
           FROM (SELECT DISTINCT stream_id FROM fresh) s
       )
       INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata)
       SELECT f.event_id, f.stream_id, head.v + f.k, f.type, f.schema_version, f.data, f.metadata
         FROM fresh f JOIN head USING (stream_id)
        ORDER BY f.n
       RETURNING ${COLUMNS}`,
      [
        unique.map((e) => e.streamId),
        unique.map((e) => e.eventId),
        unique.map((e) => e.type),
        unique.map((e) => e.schemaVersion ?? 1),
        unique.map((e) => JSON.stringify(e.data)),
        unique.map((e) => JSON.stringify({ ...e.metadata, time })),
      ],
    );
    const order = new Map(unique.map((e, i) => [e.eventId, i]));
    return rows.map(toStored).sort((a, b) => (order.get(a.eventId) ?? 0) - (order.get(b.eventId) ?? 0));
  } catch (err) {
    const e = err as { code?: string; constraint?: string; detail?: string };
    // the stream that clashed, from PostgreSQL's "Key (stream_id, stream_version)=(s, v) already exists."
    const clash = /^Key \(stream_id, stream_version\)=\((.*), (\d+)\) already exists/.exec(e.detail ?? '');
    if (e.code === '23505' && e.constraint === 'events_event_id_key') throw new DuplicateEventError(unique[0]?.streamId ?? '');
    if (e.code === '23505') throw new ConcurrencyError(clash?.[1] ?? '', ANY, clash ? Number(clash[2]) : -1);
    throw err;
  }
}

/** The events of one stream in version order (read-your-writes: sees every committed event). */
export async function readStream(db: Queryable, streamId: string, fromVersion = 1): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`,
    [streamId, fromVersion],
  );
  return rows.map(toStored);
}

/**
 * Events after `afterPosition` in global order, at most `limit`, gap-safe (see the header): what
 * is visible is a prefix of the positions ever committed, so a checkpoint never passes an event
 * that could still appear.
 */
export async function readAll(db: Queryable, afterPosition: number, limit = 500): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${COLUMNS} FROM events
      WHERE global_position > $1
      ORDER BY global_position LIMIT $2`,
    [afterPosition, limit],
  );
  return rows.map(toStored);
}

/**
 * The events of several streams, each in version order, grouped by stream (streams without events
 * are absent). `upToPosition` leaves out what was appended after that global position (the
 * projector folds each touched stream up to the last event of its batch, not beyond).
 */
export async function readStreams(
  db: Queryable,
  streamIds: readonly string[],
  options: { upToPosition?: number } = {},
): Promise<Map<string, StoredEvent[]>> {
  const out = new Map<string, StoredEvent[]>();
  if (streamIds.length === 0) return out;
  const { rows } = await db.query<EventRow>(
    `SELECT ${COLUMNS} FROM events
      WHERE stream_id = ANY($1::text[]) AND ($2::bigint IS NULL OR global_position <= $2)
      ORDER BY stream_id, stream_version`,
    [[...new Set(streamIds)], options.upToPosition ?? null],
  );
  for (const r of rows) {
    const list = out.get(r.stream_id) ?? [];
    list.push(toStored(r));
    out.set(r.stream_id, list);
  }
  return out;
}

/**
 * Events of ONE category (streams `<category>-*`, see streams.ts) after `afterPosition` in global
 * order, at most `limit`, gap-safe like readAll. The category is matched exactly (the part before
 * the first `-`), never by a LIKE prefix.
 */
export async function readCategory(db: Queryable, category: string, afterPosition: number, limit = 500): Promise<StoredEvent[]> {
  const { rows } = await db.query<EventRow>(
    `SELECT ${COLUMNS} FROM events
      WHERE global_position > $1
        AND split_part(stream_id, '-', 1) = $3
      ORDER BY global_position LIMIT $2`,
    [afterPosition, limit, category],
  );
  return rows.map(toStored);
}

/**
 * A compacted view of streams: for each stream and each distinct value of `data[key]`, only that
 * stream's latest event carrying the value (like a compacted Kafka topic keyed by it), ordered by
 * stream then key. Events without the key are left out, and, with `types`, events of other types
 * (they neither count as the latest nor hide an earlier one). E.g. key `rule`, types raised and
 * cleared: each alarm condition's last raise-or-clear per patient, whatever acknowledgements came
 * after it, without shipping the whole history to the caller.
 */
export async function readLatestPerKey(
  db: Queryable,
  streamIds: readonly string[],
  key: string,
  options: { types?: readonly string[] } = {},
): Promise<StoredEvent[]> {
  if (streamIds.length === 0) return [];
  const { rows } = await db.query<EventRow>(
    `SELECT DISTINCT ON (stream_id, data->>$2) ${COLUMNS} FROM events
      WHERE stream_id = ANY($1::text[]) AND data ? $2 AND ($3::text[] IS NULL OR type = ANY($3::text[]))
      ORDER BY stream_id, data->>$2, stream_version DESC`,
    [[...new Set(streamIds)], key, options.types ? [...options.types] : null],
  );
  return rows.map(toStored);
}

/**
 * The stream of the first event of `type`, in a stream of `category`, whose data's `key` is `value`
 * (an id the event carries that is not its stream's: e.g. an alarm's id in its patient's alert
 * stream). Undefined when there is none. A scan by type: for rare lookups (a read model answers the
 * frequent ones).
 */
export async function streamOfEvent(
  db: Queryable,
  q: { type: string; category: string; key: string; value: string },
): Promise<string | undefined> {
  const { rows } = await db.query<{ stream_id: string }>(
    `SELECT stream_id FROM events WHERE type = $1 AND data->>$2 = $3 AND split_part(stream_id, '-', 1) = $4 LIMIT 1`,
    [q.type, q.key, q.value, q.category],
  );
  return rows[0]?.stream_id;
}

/**
 * Where an event derived from a record of a partitioned log (Kafka) sits in that log: the record's
 * partition and offset, and the event's index k >= 1 among those derived from the record. Kept in
 * the event's metadata under the keys below (named by their first writer, the ingest's alerts), so
 * a reader can resume by the log's positions rather than the store's.
 */
export interface SourcePosition {
  partition: number;
  offset: number;
  k: number;
}
const SOURCE = { partition: 'kafka_partition', offset: 'kafka_offset', k: 'alert_seq' } as const;

/** The metadata entries that record a source position (merge them into an append's metadata). */
export const sourcePositionMetadata = (p: SourcePosition): EventMetadata => ({
  [SOURCE.partition]: p.partition,
  [SOURCE.offset]: p.offset,
  [SOURCE.k]: p.k,
});

/** The source position an event was appended with, if any. */
export function sourcePositionOf(e: StoredEvent): SourcePosition | undefined {
  const m = e.metadata;
  const [partition, offset, k] = [m[SOURCE.partition], m[SOURCE.offset], m[SOURCE.k]];
  return typeof partition === 'number' && typeof offset === 'number' && typeof k === 'number' ? { partition, offset, k } : undefined;
}

/**
 * The events of several streams whose source position is after `after` (partition -> last
 * (offset, k) seen; a partition absent from it: everything), in no particular order (callers sort
 * by source position). Events without a source position are left out.
 */
export async function readStreamsAfterSource(
  db: Queryable,
  streamIds: readonly string[],
  after: ReadonlyMap<number, { offset: number; k: number }>,
): Promise<StoredEvent[]> {
  if (streamIds.length === 0) return [];
  const sources = [...after.entries()];
  const parts = sources.map(([p]) => p);
  const { rows } = await db.query<EventRow>(
    `WITH c(p, o, k) AS (SELECT * FROM unnest($2::int[], $3::bigint[], $4::int[])),
          e AS (SELECT ${COLUMNS}, (metadata->>'${SOURCE.partition}')::int AS src_p, (metadata->>'${SOURCE.offset}')::bigint AS src_o,
                       (metadata->>'${SOURCE.k}')::int AS src_k
                  FROM events WHERE stream_id = ANY($1::text[]))
     SELECT ${COLUMNS} FROM e LEFT JOIN c ON c.p = e.src_p
      WHERE e.src_p IS NOT NULL AND e.src_o IS NOT NULL AND e.src_k IS NOT NULL
        AND (c.p IS NULL OR e.src_o > c.o OR (e.src_o = c.o AND e.src_k > c.k))`,
    [[...new Set(streamIds)], parts, sources.map(([, s]) => s.offset), sources.map(([, s]) => s.k)],
  );
  return rows.map(toStored);
}

/** The highest global position visible now (for "wait until projected" and benchmarks). */
export async function headPosition(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ p: number | null }>('SELECT max(global_position) AS p FROM events');
  return rows[0]?.p ?? 0;
}

export interface EventSubscription {
  stop: () => Promise<void>;
}

/** The channel migration 0007 notifies on every insert into `events`. */
export const EVENTS_CHANNEL = 'vitalis_events';

/**
 * Listens on EVENTS_CHANNEL with a dedicated connection and calls `wake` on every notification
 * (coalesced by the caller). Reconnects after a lost connection; polling remains the safety net.
 */
export function listenForEvents(pool: Pool, wake: () => void, onError: (err: unknown) => void = () => {}): EventSubscription {
  return listenOnChannel(pool, EVENTS_CHANNEL, wake, onError);
}

/** The same on another channel (the bulk export's kick-offs: libs/export EXPORT_CHANNEL). */
export function listenOnChannel(
  pool: Pool,
  channel: string,
  wake: () => void,
  onError: (err: unknown) => void = () => {},
): EventSubscription {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let stopped = false;
  let client: PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    try {
      client = await pool.connect();
      client.on('notification', () => wake());
      client.on('error', (err) => {
        onError(err);
        client?.release(true);
        client = undefined;
        if (!stopped) retry = setTimeout(() => void connect(), 1_000);
      });
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      onError(err);
      client?.release(true);
      client = undefined;
      if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    }
  };
  void connect();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retry);
      if (client) {
        await client.query(`UNLISTEN ${channel}`).catch(() => {});
        client.release();
      }
    },
  };
}

/**
 * Reads from `fromPosition` and hands each batch to `handle` (which should persist its own
 * checkpoint); woken at once by LISTEN/NOTIFY (delivered after the commit, so the events are
 * visible), and polls every `intervalMs` as a safety net (a lost listener connection).
 */
export function subscribe(
  pool: Pool,
  fromPosition: number,
  handle: (events: StoredEvent[]) => Promise<void>,
  options: { intervalMs?: number; batch?: number; onError?: (err: unknown) => void } = {},
): EventSubscription {
  let position = fromPosition;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  const listener = listenForEvents(pool, () => wakeUp?.(), options.onError);
  const loop = (async () => {
    while (!stopped) {
      try {
        const events = await readAll(pool, position, options.batch ?? 500);
        const last = events.at(-1);
        if (last) {
          await handle(events);
          position = last.globalPosition;
          continue;
        }
      } catch (err) {
        options.onError?.(err);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.intervalMs ?? 1_000);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wakeUp?.();
      await loop;
      await listener.stop();
    },
  };
}
