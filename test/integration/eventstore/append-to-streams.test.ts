/**
 * `appendToStreams` against the real PostgreSQL: several streams in one statement, each stream's
 * events in their order at its head, idempotent by event id, and a clash with another writer
 * reported (nothing written) and then appended at the new heads by the ingest's alarms
 * (`appendAlertEvents`). The clash is forced: the other writer holds the position lock (migration
 * 0024) while this statement waits for it, its snapshot already taken.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool, type PoolClient } from '@vitalis/db';
import { ANY, ConcurrencyError, append, appendToStreams, readStream, type StreamEvent } from '@vitalis/eventstore';
import { alertStream, appendAlertEvents } from '@vitalis/live';
import { alertData } from '../../helpers/alert-data';
import { testEnv } from '../../helpers/env';
import { backendPid, until } from './support';

const pool = createPool({ url: testEnv.DATABASE_URL, max: 6 });
afterAll(() => pool.end());
const stream = () => `test-${randomUUID()}`;
const event = (streamId: string, n: number, eventId = randomUUID()): StreamEvent => ({
  streamId,
  eventId,
  type: 'Numbered',
  data: { n },
  metadata: { actor: 'test', n },
});
const versions = async (s: string) => (await readStream(pool, s)).map((e) => [e.streamVersion, e.data.n]);

const waitingForLock = async (pid: number) =>
  (await pool.query<{ w: string | null }>('SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1', [pid])).rows[0]?.w === 'Lock';

/**
 * Runs `write` on its own connection while another transaction that appended to `held` holds the
 * position lock; commits that transaction once `write` waits for the lock; returns `write`'s outcome.
 */
async function whileAnotherWriterCommits<T>(held: string, write: (c: PoolClient) => Promise<T>): Promise<PromiseSettledResult<T>> {
  const other = await pool.connect();
  const mine = await pool.connect();
  try {
    await other.query('BEGIN');
    await append(other, held, ANY, [{ type: 'Other', data: { n: 0 } }]);
    const pid = await backendPid(mine);
    const outcome = write(mine).then(
      (value) => ({ status: 'fulfilled', value }) as const,
      (reason: unknown) => ({ status: 'rejected', reason }) as const,
    );
    await until(() => waitingForLock(pid), 'the statement to wait for the position lock');
    await other.query('COMMIT');
    return await outcome;
  } finally {
    other.release();
    mine.release();
  }
}

describe('appendToStreams: many streams, one statement', () => {
  it("appends each stream's events in their order at its head, with each event's own metadata", async () => {
    const [a, b] = [stream(), stream()];
    await append(pool, a, ANY, [{ type: 'Before', data: { n: 0 } }]);
    const stored = await appendToStreams(pool, [event(a, 1), event(b, 1), event(a, 2), event(b, 2), event(a, 3)]);
    expect(stored.map((e) => [e.streamId === a ? 'a' : 'b', e.streamVersion, e.data.n])).toEqual([
      ['a', 2, 1],
      ['b', 1, 1],
      ['a', 3, 2],
      ['b', 2, 2],
      ['a', 4, 3],
    ]);
    // positions in the order given (one statement: one turn of the position lock)
    const positions = stored.map((e) => e.globalPosition);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    expect(await versions(a)).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 3],
    ]);
    expect((await readStream(pool, b))[1]!.metadata).toMatchObject({ actor: 'test', n: 2, time: expect.any(String) });
  });

  it('leaves out what is already stored (a redelivery) and an id given twice, and numbers the rest on', async () => {
    const s = stream();
    const first = [event(s, 1), event(s, 2)];
    expect(await appendToStreams(pool, first)).toHaveLength(2);
    expect(await appendToStreams(pool, first)).toEqual([]);
    const again = event(s, 3);
    const stored = await appendToStreams(pool, [...first, again, { ...again }, event(s, 4)]);
    expect(stored.map((e) => e.data.n)).toEqual([3, 4]);
    expect(await versions(s)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(await appendToStreams(pool, [])).toEqual([]);
  });

  it('a version taken by another writer meanwhile fails the whole statement: nothing of it is written', async () => {
    const [a, b] = [stream(), stream()];
    const outcome = await whileAnotherWriterCommits(a, (c) => appendToStreams(c, [event(b, 1), event(a, 1)]));
    expect(outcome.status).toBe('rejected');
    const err = (outcome as PromiseRejectedResult).reason as ConcurrencyError;
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err.streamId).toBe(a);
    expect(await versions(a)).toEqual([[1, 0]]);
    expect(await versions(b)).toEqual([]);
  });

  it("the ingest's alarms: a clash is appended again at the new heads, once", async () => {
    const patient = `pat-ats-${randomUUID()}`;
    const data = alertData(patient, 'spo2-low', 'raised', 7, 7);
    const outcome = await whileAnotherWriterCommits(alertStream(patient), (c) =>
      appendAlertEvents(c, [{ data, position: { partition: 0, offset: 7, k: 1 } }]),
    );
    expect(outcome).toEqual({ status: 'fulfilled', value: 1 });
    expect((await readStream(pool, alertStream(patient))).map((e) => [e.streamVersion, e.type])).toEqual([
      [1, 'Other'],
      [2, 'VitalsAlertRaised'],
    ]);
    // redelivered: nothing twice
    expect(await appendAlertEvents(pool, [{ data, position: { partition: 0, offset: 7, k: 1 } }])).toBe(0);
  });
});
