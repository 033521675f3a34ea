/**
 * The vitals pipeline's judgement (apps/gateway/src/health.ts judgePipeline), the one definition
 * GET /api/v1/health, GET /readyz, the MCP tool get_pipeline_status and the cards' "Data delayed"
 * banner read: stalled (no progress while messages wait), delayed (messages have waited as long as
 * the newest stored reading is old), and never delayed when nothing waits (an idle ward) or when
 * the stored data is fresh (a busy pipeline). And the newest-observation reading it is fed.
 */
import { describe, expect, it } from 'vitest';
import { readNewestObservation, NEWEST_OBSERVATION_SQL } from '@vitalis/metrics';
import { judgePipeline, overallStatus, summaryOf, type PartitionReading } from '../../../apps/gateway/src/health';

const T = { stallAfterMs: 300_000, dataAgeAfterMs: 120_000 };
const part = (partition: number, lag: number, stalledMs = 0, waitingMs = 0): PartitionReading => ({ partition, lag, stalledMs, waitingMs });
const newest = (ageSeconds: number | null) => ({ at: ageSeconds === null ? null : new Date(Date.now() - ageSeconds * 1_000), ageSeconds });

describe('judgePipeline', () => {
  it('an idle ward: nothing waits, old data is not delayed', () => {
    const p = judgePipeline([part(0, 0), part(1, 0)], newest(3_600), T);
    expect(p).toMatchObject({
      status: 'ok',
      delayed: false,
      stalled_partitions: [],
      delayed_partitions: [],
      delayed_s: 0,
      lag: 0,
      newest_observation_age_s: 3_600,
    });
  });

  it('a busy pipeline: messages wait at every reading (the commit trails), the data is fresh: ok', () => {
    const p = judgePipeline([part(0, 40, 0, 900_000), part(1, 12, 0, 900_000)], newest(2), T);
    expect(p).toMatchObject({ status: 'ok', delayed: false, lag: 52 });
  });

  it('a message that just arrived after a quiet spell is not delayed, however old the data', () => {
    const p = judgePipeline([part(0, 1, 0, 1_000)], newest(3_600), T);
    expect(p.delayed).toBe(false);
  });

  it('messages have waited data_age_after while the newest stored reading is older: delayed, naming the partitions', () => {
    const p = judgePipeline([part(0, 0), part(1, 30, 10_000, 125_000), part(2, 8, 0, 119_000)], newest(130), T);
    expect(p).toMatchObject({ status: 'delayed', delayed: true, stalled_partitions: [], delayed_partitions: [1], delayed_s: 125, lag: 38 });
    expect(
      overallStatus(
        { postgres: { status: 'ok', latency_ms: 1 }, kafka: { status: 'ok', latency_ms: 1 }, redis: { status: 'ok', latency_ms: 1 } },
        p,
      ),
    ).toBe('degraded');
  });

  it('the data just younger than the threshold is not delayed; nothing stored at all while messages wait is', () => {
    expect(judgePipeline([part(0, 30, 0, 200_000)], newest(119), T).delayed).toBe(false);
    expect(judgePipeline([part(0, 30, 0, 200_000)], newest(null), T)).toMatchObject({
      status: 'delayed',
      delayed_partitions: [0],
      newest_observation_at: null,
      newest_observation_age_s: null,
    });
  });

  it('a stalled partition is named whatever the data age (the others store), and stalled wins over delayed', () => {
    const p = judgePipeline([part(3, 5, 300_000, 310_000), part(0, 2, 0, 1_000), part(1, 40, 0, 200_000)], newest(1), T);
    expect(p).toMatchObject({ status: 'stalled', delayed: true, stalled_partitions: [3], delayed_partitions: [3], delayed_s: 310 });
    expect(p.partitions.map((x) => x.partition)).toEqual([0, 1, 3]);
    expect(p.partitions.find((x) => x.partition === 3)).toEqual({ partition: 3, lag: 5, stalled_s: 300, waiting_s: 310 });
  });

  it('the database could not be read: the data age is not judged (stalls still are)', () => {
    expect(judgePipeline([part(0, 30, 0, 600_000)], undefined, T)).toMatchObject({
      status: 'ok',
      delayed: false,
      newest_observation_at: null,
    });
    expect(judgePipeline([part(0, 30, 600_000, 600_000)], undefined, T)).toMatchObject({ status: 'stalled', delayed: true });
  });

  it('0 turns a judgement off', () => {
    const p = judgePipeline([part(0, 30, 900_000, 900_000)], newest(900), { stallAfterMs: 0, dataAgeAfterMs: 0 });
    expect(p).toMatchObject({ status: 'ok', delayed: false });
  });

  it('the summary is the judgement without the partition list', () => {
    const full = { ...judgePipeline([part(1, 30, 10_000, 125_000)], newest(130), T), stall_after_s: 300, data_age_after_s: 120 };
    expect(summaryOf(full)).toEqual({
      status: 'delayed',
      delayed: true,
      lag: 30,
      stalled_partitions: [],
      delayed_partitions: [1],
      delayed_s: 125,
      newest_observation_at: full.newest_observation_at,
      newest_observation_age_s: 130,
    });
  });
});

describe('readNewestObservation', () => {
  const db = (answers: Array<Date | null>, now = new Date('2026-11-29T12:00:00Z')) => {
    const asked: string[] = [];
    return {
      asked,
      query: async (q: { name: string; text: string }) => (asked.push(q.text), { rows: [{ newest: answers.shift() ?? null, now }] }),
    };
  };

  it('asks the last day first (partition pruning), the whole log only when the day holds nothing', async () => {
    const recent = db([new Date('2026-11-29T11:58:00Z')]);
    expect(await readNewestObservation(recent)).toEqual({ at: new Date('2026-11-29T11:58:00Z'), ageSeconds: 120 });
    expect(recent.asked).toEqual([NEWEST_OBSERVATION_SQL.recent]);
    const old = db([null, new Date('2026-11-20T12:00:00Z')]);
    expect(await readNewestObservation(old)).toEqual({ at: new Date('2026-11-20T12:00:00Z'), ageSeconds: 9 * 86_400 });
    expect(old.asked).toEqual([NEWEST_OBSERVATION_SQL.recent, NEWEST_OBSERVATION_SQL.any]);
    expect(await readNewestObservation(db([null, null]))).toEqual({ at: null, ageSeconds: null });
  });

  it('a reading ahead of the database clock (a device clock ahead) is 0 s old', async () => {
    expect((await readNewestObservation(db([new Date('2026-11-29T12:01:00Z')]))).ageSeconds).toBe(0);
  });
});
