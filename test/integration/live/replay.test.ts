/**
 * Live replay from the append log without a per-row position index (migration 0009): the rows after
 * a cursor are found through the ingest's batch ranges + the series index (on-time rows) and the
 * partial late-row index (rows ingested long after their effective_at). Exact: every row after the
 * cursor, in position order, none before it, whichever path finds it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@vitalis/db';
import { RECORD_END_K, type Cursor } from '@vitalis/live';
import { writeRows, type StoredRow } from '../../../apps/ingest/src/store';
import { latestCursor, replayPage } from '../../../apps/gateway/src/vitals/replay';
import { testPool, uid } from '../vitals/support';

const pool = testPool();
afterAll(() => pool.end());

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

function row(patient: string, partition: number, offset: number, effectiveAt: number, code = '8867-4'): StoredRow {
  return {
    patient_id: patient,
    device_id: `${patient}-dev`,
    seq: offset,
    code,
    effective_at: iso(effectiveAt),
    value: 60 + (offset % 40),
    unit: '/min',
    sample_period_ms: null,
    steps: null,
    kafka_partition: partition,
    kafka_offset: String(offset),
  };
}

/** One ingest transaction (rows + its range), as the worker writes it. */
const ingest = (topic: string, rows: StoredRow[]) => withTransaction(pool, (c) => writeRows(c, topic, rows));

/** One ingest transaction as if it had run at `writtenAt`: its rows' ingested_at and its range's. */
async function ingestAt(topic: string, rows: StoredRow[], writtenAt: number): Promise<void> {
  await ingest(topic, rows);
  const keys = [rows.map((r) => r.patient_id), rows.map((r) => r.kafka_partition), rows.map((r) => r.kafka_offset)];
  await pool.query(
    `UPDATE vitals_observations v SET ingested_at = $4 FROM unnest($1::text[], $2::int[], $3::bigint[]) AS r(patient, p, o)
      WHERE v.patient_id = r.patient AND v.kafka_partition = r.p AND v.kafka_offset = r.o`,
    [...keys, iso(writtenAt)],
  );
  await pool.query(
    `UPDATE vitals_ingest_batches SET ingested_at = $4
      WHERE topic = $1 AND (kafka_partition, last_offset) IN (SELECT * FROM unnest($2::int[], $3::bigint[]))`,
    [topic, keys[1], keys[2], iso(writtenAt)],
  );
}

const offsetsOf = (events: { offset: number }[]) => events.map((e) => e.offset);
const cursor = (entries: [number, number][]): Cursor => new Map(entries.map(([p, offset]) => [p, { offset, k: 0 }]));
/** A position built from a stored range: after everything of its record (a frame's observations share an offset). */
const afterRecord = (entries: [number, number][]): Cursor => new Map(entries.map(([p, offset]) => [p, { offset, k: RECORD_END_K }]));
const page = (topic: string, patients: string[], after: Cursor, limit = 100, codes?: string[]) =>
  replayPage(pool, { topic, patients, codes, alerts: false, after, limit });

describe('live replay without a position index', () => {
  it('returns on-time, late and future-dated rows after the cursor, in offset order, and nothing before it', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-${uid()}`;
    const now = Date.now();
    await ingest(
      topic,
      [10, 11, 12, 13, 14].map((o) => row(p, 3, o, now - 1_000 + o)),
    );
    // a device's buffered backlog: ingested now, effective two hours ago (late rows)
    await ingest(topic, [15, 16, 17].map((o) => row(p, 3, o, now - 120 * MINUTE + o)).concat(row(p, 3, 18, now)));
    // a device whose clock runs an hour ahead, and a late ECG-free respiratory rate
    await ingest(topic, [row(p, 3, 19, now + 1), row(p, 3, 20, now - 30 * MINUTE, '9279-1'), row(p, 3, 21, now + 60 * MINUTE)]);

    const all = await page(topic, [p], cursor([[3, 12]]));
    expect(offsetsOf(all.events)).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21]);
    expect(all.more).toBe(false);
    expect(all.events.map((e) => (e.kind === 'observation' ? e.data.seq : -1))).toEqual([13, 14, 15, 16, 17, 18, 19, 20, 21]);

    // pages: cut after `limit`, `more` set, the next page continues exactly
    const first = await page(topic, [p], cursor([[3, 15]]), 3);
    expect(offsetsOf(first.events)).toEqual([16, 17, 18]);
    expect(first.more).toBe(true);
    const second = await page(topic, [p], cursor([[3, 18]]), 3);
    expect(offsetsOf(second.events)).toEqual([19, 20, 21]);

    // a code filter applies on both paths
    expect(offsetsOf((await page(topic, [p], cursor([[3, 9]]), 100, ['9279-1'])).events)).toEqual([20]);
    // nothing after the last stored position; everything without a cursor entry
    expect((await page(topic, [p], cursor([[3, 21]]))).events).toEqual([]);
    expect(offsetsOf((await page(topic, [p], new Map())).events)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    // a fresh subscription starts at the partition's latest stored position
    expect(await latestCursor(pool, topic, [p])).toEqual(afterRecord([[3, 21]]));
  });

  it('bounds the window by when the rows after the cursor were written, not by the time of the replay', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-old-${uid()}`;
    const twoHoursAgo = Date.now() - 120 * MINUTE;
    // as if written two hours ago (on time then): the rows and their range
    await ingestAt(
      topic,
      [1, 2, 3, 4].map((o) => row(p, 0, o, twoHoursAgo + o)),
      twoHoursAgo + 10,
    );
    await ingest(topic, [row(p, 0, 5, Date.now())]);

    expect(offsetsOf((await page(topic, [p], cursor([[0, 1]]))).events)).toEqual([2, 3, 4, 5]);
    expect(offsetsOf((await page(topic, [p], cursor([[0, 4]]))).events)).toEqual([5]);
  });

  it('finds the partition of a patient whose latest row is older than the 2-day fast path', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-quiet-${uid()}`;
    const tenDaysAgo = Date.now() - 10 * 24 * 60 * MINUTE;
    await ingest(
      topic,
      [5, 6, 7].map((o) => row(p, 4, o, tenDaysAgo + o)),
    );
    expect(await latestCursor(pool, topic, [p])).toEqual(afterRecord([[4, 7]]));
    expect(offsetsOf((await page(topic, [p], cursor([[4, 5]]))).events)).toEqual([6, 7]);
  });

  it('a redelivery that stores nothing records no range: replay still starts from when the rows were written', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-redelivered-${uid()}`;
    const anHourAgo = Date.now() - 60 * MINUTE;
    await ingestAt(
      topic,
      [10, 11, 12, 13, 14, 15, 16].map((o) => row(p, 2, o, anHourAgo + o)),
      anHourAgo + 50,
    );
    // an hour later a restarted ingest is handed a shorter batch of the same offsets: all duplicates
    expect(
      await ingest(
        topic,
        [10, 11, 12].map((o) => row(p, 2, o, anHourAgo + o)),
      ),
    ).toBe(0);
    // and then a partly new one: only 17 is new, so only 17 gets a range of its own
    expect(
      await ingest(
        topic,
        [15, 16, 17].map((o) => row(p, 2, o, anHourAgo + o)),
      ),
    ).toBe(1);
    const ranges = await pool.query(
      'SELECT first_offset::int AS f, last_offset::int AS l FROM vitals_ingest_batches WHERE topic = $1 ORDER BY l',
      [topic],
    );
    expect(ranges.rows).toEqual([
      { f: 10, l: 16 },
      { f: 17, l: 17 },
    ]);
    expect(offsetsOf((await page(topic, [p], cursor([[2, 10]]))).events)).toEqual([11, 12, 13, 14, 15, 16, 17]);
  });

  it('reads window after window of ingest time: an old cursor, a quiet stretch, pages cut across windows', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-windows-${uid()}`;
    const q = `pat-replay-other-${uid()}`;
    const HOUR = 60 * MINUTE;
    // six ingest transactions an hour apart on partition 6; p is quiet in the 3rd and 4th (q's rows only)
    let offset = 0;
    const expected: number[] = [];
    for (let h = 0; h < 6; h++) {
      const at = Date.now() - (6 - h) * HOUR;
      const who = h === 2 || h === 3 ? q : p;
      const batch = [0, 1].map(() => row(who, 6, ++offset, at));
      if (who === p) expected.push(...batch.map((r) => Number(r.kafka_offset)));
      await ingestAt(topic, batch, at + 100); // as if written then, on time
    }
    const windowed = (after: Cursor, limit: number) =>
      replayPage(pool, { topic, patients: [p], alerts: false, after, limit, windowMs: MINUTE });

    const all = await windowed(new Map(), 100);
    expect(offsetsOf(all.events)).toEqual(expected);
    expect(all.more).toBe(false);

    const first = await windowed(new Map(), 3);
    expect(offsetsOf(first.events)).toEqual(expected.slice(0, 3));
    expect(first.more).toBe(true);
    const rest = await windowed(cursor([[6, expected[2]!]]), 100);
    expect(offsetsOf(rest.events)).toEqual(expected.slice(3));
    // the same from the default (10-minute) window
    expect(offsetsOf((await page(topic, [p], cursor([[6, expected[1]!]]))).events)).toEqual(expected.slice(2));
  });

  it('windows closer together than the skew margin: each row once, in order', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-close-${uid()}`;
    const start = Date.now() - 30 * MINUTE;
    for (let i = 0; i < 4; i++) {
      const at = start + i * 2 * MINUTE; // 2 minutes apart: beyond a 1-minute window, within the 3-minute margin
      await ingestAt(
        topic,
        [1, 2].map((k) => row(p, 8, i * 2 + k, at)),
        at + 100,
      );
    }
    const { events } = await replayPage(pool, { topic, patients: [p], alerts: false, after: new Map(), limit: 100, windowMs: MINUTE });
    expect(offsetsOf(events)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('keeps topics apart: another topic with the same partition and offsets shadows nothing', async () => {
    const [a, b] = [`replay-a-${uid()}`, `replay-b-${uid()}`];
    const p = `pat-replay-a-${uid()}`;
    const q = `pat-replay-b-${uid()}`;
    const now = Date.now();
    await ingest(
      a,
      [100, 101, 102].map((o) => row(p, 7, o, now + o)),
    );
    await ingest(
      b,
      [50, 101, 200].map((o) => row(q, 7, o, now + o)),
    );
    expect(offsetsOf((await page(a, [p], cursor([[7, 100]]))).events)).toEqual([101, 102]);
    expect(await latestCursor(pool, a, [p])).toEqual(afterRecord([[7, 102]]));
    expect(await latestCursor(pool, b, [q])).toEqual(afterRecord([[7, 200]]));
  });

  it('pages through frame records: observations of one offset in item order, a page cut inside a frame continues there', async () => {
    const topic = `replay-${uid()}`;
    const p = `pat-replay-${uid()}`;
    const now = Date.now();
    // a single observation at 29, then two frames of four observations (one of them late: the off-time path) at 30 and 31
    const frameRows = (offset: number, at: number) =>
      ['8867-4', '59408-5', '9279-1', '8310-5'].map((code, item) => ({
        ...row(p, 5, offset, at, code),
        seq: offset * 10 + item,
        value: 50,
        unit: code === '59408-5' ? '%' : code === '8310-5' ? 'Cel' : '/min',
        record_item: item,
      }));
    await ingest(topic, [row(p, 5, 29, now), ...frameRows(30, now), ...frameRows(31, now - 90 * MINUTE)]);
    const positions = (events: { offset: number; k: number }[]) => events.map((e) => `${e.offset}.${e.k}`);
    const all = ['30.0', '30.10', '30.20', '30.30', '31.0', '31.10', '31.20', '31.30'];
    expect(positions((await page(topic, [p], cursor([[5, 29]]))).events)).toEqual(all);
    const first = await page(topic, [p], cursor([[5, 29]]), 3);
    expect([positions(first.events), first.more]).toEqual([all.slice(0, 3), true]);
    const after = new Map([[5, { offset: 30, k: first.events[2]!.k }]]);
    expect(positions((await page(topic, [p], after)).events)).toEqual(all.slice(3));
    expect(positions((await page(topic, [p], new Map([[5, { offset: 31, k: 15 }]]))).events)).toEqual(['31.20', '31.30']); // after an alert of item 1
    expect(positions((await page(topic, [p], afterRecord([[5, 30]]))).events)).toEqual(all.slice(4));
    expect(await latestCursor(pool, topic, [p])).toEqual(afterRecord([[5, 31]]));
  });

  it('replays a ward (several patients, several partitions) in position order per partition', async () => {
    const topic = `replay-${uid()}`;
    const [p, q, r] = ['p', 'q', 'r'].map((x) => `pat-ward-${x}-${uid()}`) as [string, string, string];
    const now = Date.now();
    await ingest(topic, [row(p, 1, 40, now), row(q, 1, 41, now), row(r, 2, 7, now), row(p, 1, 42, now - 10 * MINUTE), row(r, 2, 8, now)]);
    const { events } = await page(
      topic,
      [p, q, r],
      cursor([
        [1, 40],
        [2, 7],
      ]),
    );
    expect(events.map((e) => [e.partition, e.offset, e.patient_id])).toEqual([
      [1, 41, q],
      [1, 42, p],
      [2, 8, r],
    ]);
  });
});
