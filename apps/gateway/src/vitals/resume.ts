/**
 * Where a resumed live subscription starts: the client's id (Last-Event-ID, `last_event_id`, a
 * WebSocket `after`) is checked against the log, and the replay is bounded to a window of ingest
 * time (LIVE_REPLAY_WINDOW_SECONDS). Without this a made-up id (`99-0`: a partition no patient is
 * in, so the patient's own partition has no cursor entry) replayed a patient's whole history.
 *
 * Never issued. Every id the stream issues is a vector of `<partition>-<offset>[.<k>]` entries
 * whose offset is that of a stored row (an event delivered) or the last offset of a stored range (a
 * fresh subscription's start), so it lies inside a range of `vitals_ingest_batches` (the offset
 * ranges each ingest transaction stored, per topic and partition). Checked per entry, with three
 * primary-key probes:
 *  - the topic has no stored range in that partition (`99-0`): it points at nothing;
 *  - the offset is beyond the partition's latest stored offset: it is in the future;
 *  - the offset is at or after the oldest retained range but inside none (the ingest never stored
 *    that offset: a poison message, a hole). A stored offset lies in the range of the transaction
 *    that stored it; ranges of one partition overlap only around a rebalance, so the ranges that
 *    can hold it are among the first 16 ending at or after it, and those are checked.
 * Any of these → 400. An offset older than the oldest retained range is not refused (the ranges
 * are dropped with the data after VITALS_RETENTION_DAYS + 1): it is old, and bounded like any old
 * id. The alert sub-index `.k` is not checked: it orders alerts after their observation and cannot
 * widen a replay. A patient's partition missing from the id is not an error (a ward id, or an id
 * issued before the patient had any row) but counts as "from the beginning", i.e. old.
 *
 * Bounded. S = now - window (the database's clock, like `ingested_at`). For each partition a
 * watched patient lives in, the window starts after the last offset stored before S. A client
 * position before that start (or none) replays from it instead. For each watched patient with an
 * observation in the part skipped, the client is told the gap: `from` = the effective time of its
 * first skipped observation, `to` = S + 1 minute (the on-time skew of the replay's index path, so
 * every on-time row of the gap is in [from, to)); read through REST GET /api/v1/vitals, where a
 * row is identified by (device_id, seq, effective_at): rows near `to` may come both from REST and
 * from the replay. A late row of the gap (a device backlog, effective time before `from`) is in
 * the history at its own time, not in [from, to).
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { cloneCursor, encodeCursor, RECORD_END_K, type Cursor } from '@vitalis/live';
import { patientPartitions, replayPage } from './replay';

/** How many stored ranges ending at or after an offset are searched for one that holds it. */
const CONTAIN_PROBE = 16;
/** The on-time skew of the replay's index path (replay.ts): `to` of a gap is S plus this. */
const ON_TIME_SKEW_MS = 60_000;

export interface ReplayGap {
  patient_id: string;
  /** Inclusive; the effective time of the first observation the replay skips. */
  from: string;
  /** Exclusive; the window's start plus the on-time skew. */
  to: string;
}

/** The `replay-truncated` event: the client's id is older than the window. */
export interface ReplayTruncated {
  /** The id the client resumed from. */
  last_event_id: string;
  /** Where the replay starts instead (the window's start). */
  resume_id: string;
  window_seconds: number;
  /** What to read through REST: GET /api/v1/vitals?patient={patient_id}&from={from}&to={to}. */
  gaps: ReplayGap[];
  detail: string;
}

export interface ResumePlan {
  /** Where the replay starts: the client's position, moved up to the window's start where it was older. */
  after: Cursor;
  /** Set when a watched patient has observations the replay skips. */
  truncated?: ReplayTruncated;
}

/** A resume id whose position the log never issued. */
/**
 * The plan once the gaps are known, for the append log's streams and the sandbox's synthetic ones
 * alike: resume after `after`, and when some patients' history fell out of the window, the
 * `replay-truncated` notice naming each gap to read through REST.
 */
export function resumePlanOf(after: Cursor, q: { lastEventId: string; windowSeconds: number }, gaps: ReplayGap[]): ResumePlan {
  if (gaps.length === 0) return { after };
  return {
    after,
    truncated: {
      last_event_id: q.lastEventId,
      resume_id: encodeCursor(after),
      window_seconds: q.windowSeconds,
      gaps,
      detail: `The id is older than the replay window (${q.windowSeconds} s): read each gap through GET /api/v1/vitals?patient=<patient_id>&from=<from>&to=<to>; the stream continues from the window's start.`,
    },
  };
}

export class UnissuedPosition extends Error {
  override name = 'UnissuedPosition';
}

/** What the log says about one partition (one row of the probe query). */
export interface PartitionFacts {
  partition: number;
  /** The latest stored offset; null when the topic has nothing in this partition. */
  head: number | null;
  /** The first offset of the oldest retained range. */
  floor: number | null;
  /** Whether a stored range holds the client's offset (null when the client has no entry here). */
  holds: boolean | null;
  /** The last offset stored before the window's start; null when everything retained is inside the window. */
  windowStart: number | null;
}

/** Why `offset` in this partition cannot be a position the stream issued; undefined when it can be. */
export function unissuedReason(offset: number, f: PartitionFacts): string | undefined {
  if (f.head === null) return `partition ${f.partition} holds nothing this stream issued`;
  if (offset > f.head) return `offset ${offset} is beyond the latest position of partition ${f.partition}`;
  if (f.floor !== null && offset >= f.floor && f.holds === false) return `offset ${offset} of partition ${f.partition} was never stored`;
  return undefined;
}

/**
 * The client's cursor with every watched partition moved up to its window start where the client
 * is behind it (or has no entry); `behind` lists those partitions. Entries of other partitions stay.
 */
export function boundCursor(client: Cursor, windowStarts: ReadonlyMap<number, number | null>): { after: Cursor; behind: number[] } {
  const after = cloneCursor(client);
  const behind: number[] = [];
  for (const [p, start] of windowStarts) {
    if (start === null) continue;
    const pos = client.get(p);
    if (pos === undefined || pos.offset < start) {
      after.set(p, { offset: start, k: RECORD_END_K }); // after all of the record stored before the window
      behind.push(p);
    }
  }
  return { after, behind };
}

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

async function partitionFacts(
  pool: Pool,
  topic: string,
  probes: Map<number, number>,
  windowSeconds: number,
): Promise<{ facts: PartitionFacts[]; gapEnd: string }> {
  const parts = [...probes.keys()];
  const { rows } = await pool.query<{
    p: number;
    head: string | null;
    floor: string | null;
    holds: boolean | null;
    window_start: string | null;
    gap_end: string;
  }>({
    name: 'vitalis-live-resume-facts',
    text: `WITH since AS (SELECT now() - $4 * interval '1 second' AS s)
      SELECT c.p,
             (SELECT last_offset FROM vitals_ingest_batches b WHERE b.topic = $1 AND b.kafka_partition = c.p ORDER BY last_offset DESC LIMIT 1) AS head,
             (SELECT first_offset FROM vitals_ingest_batches b WHERE b.topic = $1 AND b.kafka_partition = c.p ORDER BY last_offset LIMIT 1) AS floor,
             CASE WHEN c.o < 0 THEN NULL ELSE
               coalesce((SELECT bool_or(r.first_offset <= c.o) FROM (
                  SELECT first_offset FROM vitals_ingest_batches b WHERE b.topic = $1 AND b.kafka_partition = c.p AND b.last_offset >= c.o
                   ORDER BY last_offset LIMIT ${CONTAIN_PROBE}) r), false) END AS holds,
             (SELECT last_offset FROM vitals_ingest_batches b, since WHERE b.topic = $1 AND b.kafka_partition = c.p AND b.ingested_at < since.s
               ORDER BY last_offset DESC LIMIT 1) AS window_start,
             (SELECT to_char((s + ${ON_TIME_SKEW_MS} * interval '1 millisecond') AT TIME ZONE 'UTC', ${ISO_MS}) FROM since) AS gap_end
        FROM unnest($2::int[], $3::bigint[]) AS c(p, o)`,
    values: [topic, parts, [...probes.values()], windowSeconds],
  });
  const num = (v: string | number | null) => (v === null ? null : Number(v));
  return {
    facts: rows.map((r) => ({ partition: r.p, head: num(r.head), floor: num(r.floor), holds: r.holds, windowStart: num(r.window_start) })),
    gapEnd: rows[0]?.gap_end ?? new Date().toISOString(),
  };
}

/**
 * Checks a client's resume position against the log (throws UnissuedPosition) and bounds it to
 * the window: returns where the replay starts and, when it skips observations of a watched
 * patient, the `replay-truncated` notice for the client.
 */
export async function planResume(
  pool: Pool,
  q: { topic: string; patients: string[]; after: Cursor; lastEventId: string; windowSeconds: number },
): Promise<ResumePlan> {
  const partitionOf = await patientPartitions(pool, q.patients);
  const probes = new Map<number, number>();
  for (const [p, pos] of q.after) probes.set(p, pos.offset);
  for (const p of partitionOf.values()) if (!probes.has(p)) probes.set(p, -1);
  if (probes.size === 0) return { after: q.after };
  const { facts, gapEnd } = await partitionFacts(pool, q.topic, probes, q.windowSeconds);

  for (const f of facts) {
    const pos = q.after.get(f.partition);
    const why = pos === undefined ? undefined : unissuedReason(pos.offset, f);
    if (why) throw new UnissuedPosition(`Last-Event-ID is not an id this stream issued: ${why}.`);
  }
  const watched = new Set(partitionOf.values());
  const windowStarts = new Map(facts.filter((f) => watched.has(f.partition)).map((f) => [f.partition, f.windowStart]));
  const { after, behind } = boundCursor(q.after, windowStarts);
  if (behind.length === 0) return { after: q.after };

  // Which watched patients have an observation in the skipped part: their first one after the client's position.
  const gaps: ReplayGap[] = [];
  for (const [patient, p] of partitionOf) {
    if (!behind.includes(p)) continue;
    const { events } = await replayPage(pool, { topic: q.topic, patients: [patient], alerts: false, after: q.after, limit: 1 });
    const first = events[0];
    if (first?.kind === 'observation' && first.offset <= must(windowStarts.get(p), `the window start of partition ${p}, which is behind`))
      gaps.push({ patient_id: patient, from: first.data.effective_at, to: gapEnd });
  }
  return resumePlanOf(after, q, gaps);
}
