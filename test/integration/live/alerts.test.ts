/**
 * The ingest's live stage against real PostgreSQL and Redis: alert events in the event store,
 * idempotent on redelivery, and active alerts restored by a fresh instance (restart or partition
 * takeover) so a raised alert is cleared later and not raised twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@vitalis/db';
import { readStream } from '@vitalis/eventstore';
import { alertStream, type AlertData } from '@vitalis/live';
import { createLogger } from '@vitalis/log';
import { createRedis, type Redis } from '@vitalis/redis';
import { createLiveStage, type CommittedBatch } from '../../../apps/ingest/src/live/stage';
import { testEnv } from '../../helpers/env';
import { testPool, uid } from '../vitals/support';

let pool: Pool;
let redis: Redis;
beforeAll(async () => {
  pool = testPool();
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-alerts' });
  await redis.connect();
});
afterAll(async () => {
  redis?.disconnect();
  await pool?.end();
});

const stage = () => createLiveStage({ pool, redis, topic: `vitals.test.alerts.${uid()}`, logger: createLogger('test', 'error') });
const t0 = Date.now() - 3_600_000;
function batch(patient: string, firstOffset: number, readings: [seconds: number, spo2: number][]): CommittedBatch {
  const items = readings.map(([s, value], i) => ({
    offset: firstOffset + i,
    observation: { patient_id: patient, device_id: `${patient}-ox`, seq: firstOffset + i, effective_at: new Date(t0 + s * 1000).toISOString(), code: '59408-5', value, unit: '%' } as never,
  }));
  return { partition: 0, first: firstOffset, last: firstOffset + readings.length - 1, items };
}
const streamOf = async (patient: string) =>
  (await readStream(pool, alertStream(patient))).map((e) => ({ type: e.type, stream_version: e.streamVersion, data: e.data as never as AlertData, metadata: e.metadata }));

describe('alert events from the live stage', () => {
  it('raises once per episode, stores its live position, and a redelivered batch appends nothing', async () => {
    const patient = `pat-al-${uid()}`;
    const s = stage();
    const low = batch(patient, 10, [[0, 89], [5, 88], [10, 87]]);
    await s.afterCommit(low);
    const rows = await streamOf(patient);
    expect(rows.map((r) => [r.type, r.stream_version, r.data.rule, r.data.triggered_by.seq])).toEqual([['VitalsAlertRaised', 1, 'spo2-low', 12]]);
    expect(rows[0]!.metadata).toMatchObject({ kafka_partition: 0, kafka_offset: 12, alert_seq: 1 });
    // redelivery (e.g. a crash before the offset commit) to a fresh instance: nothing appended twice
    await stage().afterCommit(low);
    expect(await streamOf(patient)).toHaveLength(1);
    s.stop();
  });

  it('a fresh instance restores the active alert: it clears it later and does not raise it twice', async () => {
    const patient = `pat-al-${uid()}`;
    const first = stage();
    await first.afterCommit(batch(patient, 100, [[0, 85], [11, 84]]));
    first.stop();
    const second = stage(); // restart / partition takeover: empty memory
    await second.afterCommit(batch(patient, 102, [[12, 84], [23, 83]])); // still low for > 10 s: no second raise
    await second.afterCommit(batch(patient, 104, [[30, 96]])); // recovered: cleared
    second.stop();
    expect((await streamOf(patient)).map((r) => [r.type, r.data.triggered_by.seq])).toEqual([
      ['VitalsAlertRaised', 101],
      ['VitalsAlertCleared', 104],
    ]);
  });
});
