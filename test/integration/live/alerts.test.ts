/**
 * The ingest's live stage against real PostgreSQL and Redis: alert events in the event store,
 * idempotent on redelivery, and active alerts restored by a fresh instance (restart or partition
 * takeover) so a raised alert is cleared later and not raised twice, even once acknowledged; the
 * raise carries the condition's priority, kind, latching, label and escalation time, and a site's
 * alarm settings change when it is raised.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@vitalis/db';
import { parseAlarmSettings, type AlarmSettings } from '@vitalis/clinical';
import { ANY, append, readStream } from '@vitalis/eventstore';
import { alertStream, type AlertData } from '@vitalis/live';
import { ALARM_EVENTS } from '@vitalis/records';
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

const stage = (alarms?: AlarmSettings) =>
  createLiveStage({
    pool,
    redis,
    topic: `vitals.test.alerts.${uid()}`,
    logger: createLogger('test', 'error'),
    ...(alarms ? { alarms } : {}),
  });
const t0 = Date.now() - 3_600_000;
function batch(patient: string, firstOffset: number, readings: [seconds: number, spo2: number][]): CommittedBatch {
  const items = readings.map(([s, value], i) => ({
    offset: firstOffset + i,
    effectiveMs: t0 + s * 1000,
    observation: {
      patient_id: patient,
      device_id: `${patient}-ox`,
      seq: firstOffset + i,
      effective_at: new Date(t0 + s * 1000).toISOString(),
      code: '59408-5',
      value,
      unit: '%',
    } as never,
  }));
  return { partition: 0, first: firstOffset, last: firstOffset + readings.length - 1, items };
}
const streamOf = async (patient: string) =>
  (await readStream(pool, alertStream(patient))).map((e) => ({
    type: e.type,
    stream_version: e.streamVersion,
    data: e.data as never as AlertData,
    metadata: e.metadata,
  }));

describe('alert events from the live stage', () => {
  it('raises once per episode, stores its live position, and a redelivered batch appends nothing', async () => {
    const patient = `pat-al-${uid()}`;
    const s = stage();
    const low = batch(patient, 10, [
      [0, 89],
      [5, 88],
      [10, 87],
    ]);
    await s.afterCommit(low);
    const rows = await streamOf(patient);
    expect(rows.map((r) => [r.type, r.stream_version, r.data.rule, r.data.triggered_by.seq])).toEqual([
      ['VitalsAlertRaised', 1, 'spo2-low', 12],
    ]);
    expect(rows[0]!.metadata).toMatchObject({ kafka_partition: 0, kafka_offset: 12, alert_seq: 1 });
    const raisedAt = new Date(t0 + 10_000);
    expect(rows[0]!.data).toMatchObject({
      priority: 'high',
      severity: 'high',
      kind: 'physiological',
      latching: true,
      label: 'SpO2 low',
      value: 87,
      message: 'SpO2 low: 87 % (≤ 91 % for 10 s)',
      due_at: new Date(raisedAt.getTime() + 60_000).toISOString(),
      triggered_by: { effective_at: raisedAt.toISOString() },
    });
    // redelivery (e.g. a crash before the offset commit) to a fresh instance: nothing appended twice
    await stage().afterCommit(low);
    expect(await streamOf(patient)).toHaveLength(1);
    s.stop();
  });

  it('an alarm storm: every patient of one batch raised and cleared, each stream in its order, in one statement', async () => {
    const patients = Array.from({ length: 24 }, () => `pat-storm-${uid()}`);
    // one batch: each patient low for 10 s (raised), then recovered for 10 s (cleared), the patients interleaved
    const readings: [seconds: number, spo2: number][] = [
      [0, 85],
      [11, 84],
      [20, 97],
      [31, 97],
    ];
    const items = readings.flatMap(([sec, value], r) =>
      patients.map((patient, p) => ({
        offset: 1_000 + r * patients.length + p,
        effectiveMs: t0 + sec * 1000,
        observation: {
          patient_id: patient,
          device_id: `${patient}-ox`,
          seq: r,
          effective_at: new Date(t0 + sec * 1000).toISOString(),
          code: '59408-5',
          value,
          unit: '%',
        } as never,
      })),
    );
    const s = stage();
    let inserts = 0;
    const query = pool.query.bind(pool);
    const counting = new Proxy(pool, {
      get: (target, key) =>
        key === 'query'
          ? (...args: Parameters<Pool['query']>) => {
              if (String(args[0]).includes('INSERT INTO events')) inserts += 1;
              return (query as (...a: unknown[]) => Promise<unknown>)(...args);
            }
          : Reflect.get(target, key),
    });
    const storm = createLiveStage({ pool: counting, redis, topic: `vitals.test.alerts.${uid()}`, logger: createLogger('test', 'error') });
    await storm.afterCommit({ partition: 0, first: 1_000, last: 1_000 + items.length - 1, items });
    storm.stop();
    s.stop();
    for (const patient of patients)
      expect((await streamOf(patient)).map((r) => [r.type, r.stream_version, r.data.triggered_by.seq])).toEqual([
        ['VitalsAlertRaised', 1, 1],
        ['VitalsAlertCleared', 2, 3],
      ]);
    expect(storm.stats.alerts).toBe(48);
    expect(inserts).toBe(1); // 48 alerts of 24 patients: one statement, one commit
  });

  it('a fresh instance restores the active alert: it clears it later and does not raise it twice', async () => {
    const patient = `pat-al-${uid()}`;
    const first = stage();
    await first.afterCommit(
      batch(patient, 100, [
        [0, 85],
        [11, 84],
      ]),
    );
    first.stop();
    const second = stage(); // restart / partition takeover: empty memory
    await second.afterCommit(
      batch(patient, 102, [
        [12, 84],
        [23, 83],
      ]),
    ); // still low for > 10 s: no second raise
    await second.afterCommit(
      batch(patient, 104, [
        [30, 96],
        [40, 97],
      ]),
    ); // recovered for its 10 s end delay: cleared
    second.stop();
    expect((await streamOf(patient)).map((r) => [r.type, r.data.triggered_by.seq])).toEqual([
      ['VitalsAlertRaised', 101],
      ['VitalsAlertCleared', 105],
    ]);
  });

  it('an alarm acknowledged while its condition holds is restored as active by a fresh instance: not raised twice, cleared later', async () => {
    const patient = `pat-al-${uid()}`;
    const first = stage();
    await first.afterCommit(
      batch(patient, 200, [
        [0, 85],
        [11, 84],
      ]),
    );
    first.stop();
    const [raise] = await streamOf(patient);
    await append(pool, alertStream(patient), ANY, [
      {
        type: ALARM_EVENTS.acknowledged,
        data: {
          alert_id: raise!.data.alert_id,
          patient_id: patient,
          rule: 'spo2-low',
          by: { user: 'nurse-1', client_id: 'card' },
          at: new Date(t0 + 15_000).toISOString(),
        },
      },
    ]);
    const second = stage();
    await second.afterCommit(
      batch(patient, 202, [
        [20, 84],
        [31, 83],
      ]),
    ); // still low for > 10 s
    await second.afterCommit(
      batch(patient, 204, [
        [40, 96],
        [50, 96],
      ]),
    );
    second.stop();
    expect((await streamOf(patient)).map((r) => [r.type, r.data.rule])).toEqual([
      ['VitalsAlertRaised', 'spo2-low'],
      [ALARM_EVENTS.acknowledged, 'spo2-low'],
      ['VitalsAlertCleared', 'spo2-low'],
    ]);
  });

  it("a site's settings (VITALIS_ALARMS) change the onset delay and the priority", async () => {
    const patient = `pat-al-${uid()}`;
    const site = stage(parseAlarmSettings(JSON.stringify({ conditions: { 'spo2-low': { onset_delay_s: 30, priority: 'low' } } })));
    await site.afterCommit(
      batch(patient, 300, [
        [0, 88],
        [10, 88],
        [29, 88],
      ]),
    );
    expect(await streamOf(patient)).toEqual([]); // the default 10 s would have raised it
    await site.afterCommit(batch(patient, 303, [[30, 88]]));
    site.stop();
    const rows = await streamOf(patient);
    expect(rows.map((r) => [r.type, r.data.triggered_by.seq, r.data.priority, r.data.due_at])).toEqual([
      ['VitalsAlertRaised', 303, 'low', null],
    ]);
  });
});
