/**
 * Stream positions for live vitals. The topic is keyed by patient, so a patient's observations
 * live in ONE Kafka partition and (partition, offset) is a strictly increasing per-patient
 * position, stored with every row of the append log. Alerts are derived from an observation and
 * take the position of that observation plus a sub-index k >= 1 (k = 0 is the observation itself),
 * so an alert sorts right after the observation that raised it.
 *
 * A subscriber's cursor maps partition -> last delivered (offset, k). For one patient that is a
 * single entry; a ward stream (several patients, several partitions) carries a small vector. The
 * SSE `id:` / WebSocket `id` of every event is the subscriber's cursor AFTER that event, encoded as
 *   `<partition>-<offset>[.<k>]` joined by `_`, e.g. `3-1042` or `3-1042.1_7-88`.
 * Resuming with that id replays exactly what comes after it, partition by partition.
 *
 * A frame record (ADR 0015) holds several observations at one offset: observation `item` of a
 * record sorts at k = 10 * item (`observationK`), the alerts it raised at k = 10 * item + 1..9. A
 * single-observation record is item 0, so its ids are what they always were (`3-1042`, `3-1042.1`).
 * A position built from an offset range (a fresh start, a replay window's start) is after
 * everything of its record: k = RECORD_END_K.
 */

export interface Position {
  offset: number;
  /** 0 = the observation at `offset`; 1.. = alerts derived from it. */
  k: number;
}

export type Cursor = Map<number, Position>;

/** k steps per observation of a record: room for 9 alerts after each (the rules raise or clear at most 3). */
export const K_PER_ITEM = 10;
/** After every observation and alert of a record (schemas' MAX_FRAME_OBSERVATIONS = 64 stays below it). */
export const RECORD_END_K = 999;
/** The sub-position of observation `item` of a record. */
export const observationK = (item: number) => item * K_PER_ITEM;
/** The observation (index in its record) a sub-position belongs to; RECORD_END_K is beyond every one. */
export const itemOfK = (k: number) => Math.floor(k / K_PER_ITEM);

/** Most partitions one id may carry (the topic has 12; room for growth, bounded input). */
export const MAX_CURSOR_ENTRIES = 256;
const ENTRY = /^(\d{1,5})-(\d{1,16})(?:\.(\d{1,3}))?$/;
/**
 * The shape of an id (entries `partition-offset[.k]` joined by `_`), as a pattern request schemas
 * publish (Last-Event-ID, last_event_id): ASCII only, so 8 192 characters stay 8 KiB on the wire.
 * decodeCursor still refuses what a pattern cannot see (a partition twice, an unsafe offset).
 */
export const CURSOR_PATTERN = new RegExp(`^${ENTRY.source.slice(1, -1)}(?:_${ENTRY.source.slice(1, -1)}){0,${MAX_CURSOR_ENTRIES - 1}}$`);

export function comparePosition(a: Position, b: Position): number {
  return a.offset !== b.offset ? a.offset - b.offset : a.k - b.k;
}

/** True when (partition, pos) is after the cursor (nothing delivered there yet). */
export function isAfter(cursor: Cursor, partition: number, pos: Position): boolean {
  const seen = cursor.get(partition);
  return !seen || comparePosition(pos, seen) > 0;
}

export function encodeCursor(cursor: Cursor): string {
  return [...cursor.entries()]
    .sort(([a], [b]) => a - b)
    .map(([p, { offset, k }]) => (k === 0 ? `${p}-${offset}` : `${p}-${offset}.${k}`))
    .join('_');
}

/** Parses an id; undefined when it is not one of ours (the caller answers 400). */
export function decodeCursor(id: string): Cursor | undefined {
  if (id.length === 0 || id.length > 8_192) return undefined;
  const cursor: Cursor = new Map();
  const parts = id.split('_');
  if (parts.length > MAX_CURSOR_ENTRIES) return undefined;
  for (const part of parts) {
    const m = ENTRY.exec(part);
    if (!m) return undefined;
    const partition = Number(m[1]);
    const offset = Number(m[2]);
    if (!Number.isSafeInteger(offset) || cursor.has(partition)) return undefined;
    cursor.set(partition, { offset, k: m[3] ? Number(m[3]) : 0 });
  }
  return cursor;
}

export const cloneCursor = (c: Cursor): Cursor => new Map(c);
